"""House-rule settings per system, with their defaults (docs/rules.md#house-rule-settings).

A campaign stores the values it changes; everything else takes the default here.
Labels are English msgids (translated on the Django side).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from mechanics.rules.errors import RuleError, gettext_noop


@dataclass(frozen=True)
class SettingDef:
    key: str
    label: str
    default: bool | int
    minimum: int | None = None
    maximum: int | None = None

    @property
    def is_bool(self) -> bool:
        return isinstance(self.default, bool)


def system_settings(system: str) -> tuple[SettingDef, ...]:
    """The settings of one system: `mechanics/rules/<system>/settings.py`."""
    return import_module(f"mechanics.rules.{system}.settings").SETTINGS


def resolve_settings(system: str, values: dict | None) -> dict[str, bool | int]:
    """Defaults overlaid with a campaign's stored values, validated."""
    return resolve_values(system_settings(system), values)


def resolve_values(defs: tuple[SettingDef, ...], values: dict | None) -> dict[str, bool | int]:
    """The settings `defs` with their defaults overlaid by `values`, validated."""
    values = values or {}
    resolved: dict[str, bool | int] = {}
    for setting in defs:
        value = values.get(setting.key, setting.default)
        if setting.is_bool:
            value = bool(value)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(
                    gettext_noop("%(setting)s must be a whole number"), setting=setting.key
                )
            low, high = setting.minimum, setting.maximum
            if (low is not None and value < low) or (high is not None and value > high):
                raise RuleError(
                    gettext_noop("%(setting)s must be between %(low)s and %(high)s"),
                    setting=setting.key,
                    low=low,
                    high=high,
                )
        resolved[setting.key] = value
    return resolved
