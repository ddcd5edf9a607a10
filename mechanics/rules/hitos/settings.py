"""House-rule settings of this system, with their defaults (docs/rules.md)."""

from __future__ import annotations

from mechanics.rules.errors import gettext_noop
from mechanics.rules.settings import SettingDef

SETTINGS: tuple[SettingDef, ...] = (
    SettingDef(
        "equal_succeeds",
        gettext_noop("A result equal to the difficulty succeeds"),
        False,
    ),
    SettingDef(
        "starting_drama_points",
        gettext_noop("Starting drama points"),
        3,
        minimum=0,
        maximum=10,
    ),
    # One Resistencia point heals per period of the state (docs/rules.md#hitos-healing-periods).
    SettingDef("healing_days_sano", gettext_noop("Healing period while Sano (days)"), 1, 1, 365),
    SettingDef(
        "healing_days_herido", gettext_noop("Healing period while Herido (days)"), 7, 1, 365
    ),
    SettingDef(
        "healing_days_incapacitado",
        gettext_noop("Healing period while Incapacitado (days)"),
        30,
        1,
        365,
    ),
    SettingDef(
        "healing_days_moribundo",
        gettext_noop("Healing period while Moribundo (days)"),
        30,
        1,
        365,
    ),
)
