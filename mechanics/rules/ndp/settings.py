"""House-rule settings of this system, with their defaults (docs/rules.md)."""

from __future__ import annotations

from mechanics.rules.settings import SettingDef

SETTINGS: tuple[SettingDef, ...] = ()
