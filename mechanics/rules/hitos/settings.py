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
)
