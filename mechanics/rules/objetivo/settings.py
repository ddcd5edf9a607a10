"""House-rule settings of this system, with their defaults (docs/rules.md)."""

from __future__ import annotations

from mechanics.rules.errors import gettext_noop
from mechanics.rules.settings import SettingDef

SETTINGS: tuple[SettingDef, ...] = (
    SettingDef(
        "defense_base",
        gettext_noop("Constant added to Defensa (5; 6 for harder games)"),
        5,
        minimum=0,
        maximum=10,
    ),
    SettingDef(
        "incapacitated_threshold",
        gettext_noop("PV at or below which a character is Incapacitado"),
        10,
        minimum=0,
        maximum=50,
    ),
)
