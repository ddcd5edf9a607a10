"""House-rule settings per system, with their defaults (docs/rules.md#house-rule-settings).

A campaign stores the values it changes; everything else takes the default here.
Labels are English msgids (translated on the Django side).
"""

from __future__ import annotations

from dataclasses import dataclass

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


SYSTEM_SETTINGS: dict[str, tuple[SettingDef, ...]] = {
    "tinieblas": (
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
    ),
    "hitos": (
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
    ),
    "ndp": (),
    "objetivo": (
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
    ),
}


def resolve_settings(system: str, values: dict | None) -> dict[str, bool | int]:
    """Defaults overlaid with a campaign's stored values, validated."""
    return resolve_values(SYSTEM_SETTINGS[system], values)


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
