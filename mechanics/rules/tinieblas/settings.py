"""House-rule settings of this system, with their defaults (docs/rules.md)."""

from __future__ import annotations

from mechanics.rules.errors import gettext_noop
from mechanics.rules.settings import SettingDef

# The seed's wound penalties, box by box (Incapacitado cannot act, so it has none of its own).
WOUND_PENALTY_DEFAULTS = (
    ("magullado", gettext_noop("Wound penalty at Magullado"), 0),
    ("lastimado", gettext_noop("Wound penalty at Lastimado"), -1),
    ("lesionado", gettext_noop("Wound penalty at Lesionado"), -1),
    ("herido", gettext_noop("Wound penalty at Herido"), -2),
    ("malherido", gettext_noop("Wound penalty at Malherido"), -2),
    ("tullido", gettext_noop("Wound penalty at Tullido"), -5),
)

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
    *(
        SettingDef(f"wound_penalty_{box}", label, default, minimum=-5, maximum=0)
        for box, label, default in WOUND_PENALTY_DEFAULTS
    ),
)
