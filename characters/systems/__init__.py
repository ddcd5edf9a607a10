"""Adapters between the generic sheet tables and each system's pure rules engine.

A `SheetSystem` says which traits and resources a sheet of its system has, with the
engine's catalogue names and ranges, and turns stored values into what the sheet shows
(derived traits, health). Adding a system means adding a module here, no migration.
"""

from __future__ import annotations

from characters.systems.base import (
    DamageInput,
    HealthChange,
    HealthView,
    ResourceSpec,
    SheetSystem,
    TraitSpec,
)
from characters.systems.hitos import HitosSystem
from characters.systems.ndp import NdpSystem
from characters.systems.objetivo import ObjetivoSystem
from characters.systems.tinieblas import TinieblasSystem

SYSTEMS: dict[str, SheetSystem] = {
    system.key: system
    for system in (TinieblasSystem(), HitosSystem(), NdpSystem(), ObjetivoSystem())
}


def get_system(key: str) -> SheetSystem:
    return SYSTEMS[key]


__all__ = [
    "DamageInput",
    "HealthChange",
    "HealthView",
    "ResourceSpec",
    "SheetSystem",
    "TraitSpec",
    "get_system",
]
