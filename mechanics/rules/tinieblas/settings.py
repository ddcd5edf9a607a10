"""House-rule settings of this system, with their defaults (docs/rules.md)."""

from __future__ import annotations

from mechanics.rules.errors import gettext_noop
from mechanics.rules.settings import SettingDef

SETTINGS: tuple[SettingDef, ...] = (
    SettingDef(
        "unskilled_penalty",
        gettext_noop("Unskilled rolls: −3 dice for Mental skills, −1 for Physical or Social"),
        True,
    ),
    SettingDef(
        "health_from_stamina",
        gettext_noop("Health boxes = Resistencia + Tamaño (otherwise 7)"),
        False,
    ),
    SettingDef(
        "aggravated_heals_as_lethal",
        gettext_noop("Aggravated damage heals at the lethal rate"),
        True,
    ),
)
