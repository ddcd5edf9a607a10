"""The rule systems the site knows, found by key.

Each package under `mechanics/systems/` registers its `GameSystem` when the mechanics app
is ready (`MechanicsConfig.ready`); a test registers a toy system the same way. Generic code
asks `get_system(campaign.system)` and never names a system, so a new system needs no edit
outside its own folders and no migration: a campaign's system is checked against this
registry, not against a fixed list of choices.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from mechanics.systems.base import GameSystem, SceneRubric

_SYSTEMS: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    if not system.key:
        raise ValueError("A rule system needs a key.")
    _SYSTEMS[system.key] = system
    return system


def unregister(key: str) -> None:
    _SYSTEMS.pop(key, None)


def get_system(key: str) -> GameSystem:
    try:
        return _SYSTEMS[key]
    except KeyError:
        raise LookupError(f"No rule system {key!r} is registered.") from None


def all_systems() -> tuple[GameSystem, ...]:
    return tuple(_SYSTEMS.values())


def scene_rubric_for(system: GameSystem) -> SceneRubric | None:
    """The rubric a campaign of `system` grades scenes with when its GM turns rubrics on:
    its own, or, when its seed defines none, the first registered system's that does (a
    GM may grade any campaign with the one rubric the seeds define)."""
    if system.scene_rubric is not None:
        return system.scene_rubric
    return next((s.scene_rubric for s in _SYSTEMS.values() if s.scene_rubric is not None), None)


def system_choices() -> list[tuple[str, str]]:
    """(key, name) of every registered system, for the campaign's system field."""
    return [(system.key, system.name) for system in _SYSTEMS.values()]


def validate_system_key(value: str) -> None:
    if value not in _SYSTEMS:
        raise ValidationError(
            _("Unknown rule system: %(key)s."), code="unknown_system", params={"key": value}
        )
