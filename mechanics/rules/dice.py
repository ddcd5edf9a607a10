"""Random sources and thrown dice shared by every system."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Protocol


class RandomSource(Protocol):
    """What the engine needs from a random generator.

    `secrets.SystemRandom()` in production, `random.Random(seed)` in tests.
    """

    def randint(self, a: int, b: int) -> int: ...


def default_rng() -> RandomSource:
    return secrets.SystemRandom()


def roll_die(rng: RandomSource, sides: int) -> int:
    return rng.randint(1, sides)


@dataclass(frozen=True)
class Die:
    """One die as thrown, in throw order.

    `tags` say what the die did: "success", "exploded" (triggered another die),
    "explosion" (was added by an explosion), "reroll" (rote / second chance),
    "kept" (counted in the result), "dropped", "chance", "negative" (subtracts).
    """

    sides: int
    value: int
    tags: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"sides": self.sides, "value": self.value, "tags": list(self.tags)}


@dataclass(frozen=True)
class Effects:
    """What a roll changes on the sheet; the Django side applies it in one transaction."""

    willpower_spent: int = 0
    drama_points_spent: int = 0
    destiny_points_spent: int = 0
    aspects_exhausted: tuple[str, ...] = ()
    specialization_used: bool = False
    pdp_gained: dict[str, int] = field(default_factory=dict)
    prana_spent: int = 0
    damage: int | None = None
    temporary_aspect: str | None = None  # "scene" / "session" duration offered by doubles/triples

    def to_dict(self) -> dict:
        return {
            "willpower_spent": self.willpower_spent,
            "drama_points_spent": self.drama_points_spent,
            "destiny_points_spent": self.destiny_points_spent,
            "aspects_exhausted": list(self.aspects_exhausted),
            "specialization_used": self.specialization_used,
            "pdp_gained": dict(self.pdp_gained),
            "prana_spent": self.prana_spent,
            "damage": self.damage,
            "temporary_aspect": self.temporary_aspect,
        }


@dataclass(frozen=True)
class RollRecord:
    """Everything about one roll: inputs, every die in order, what was kept, the outcome.

    `result` is the number of successes (tinieblas) or the total (other systems).
    `outcome` is a stable key ("failure", "success", "exceptional", "dramatic_failure",
    "tie", ...) that the UI turns into words; `flags` hold extra booleans
    ("critical", "fumble", "exploded", ...). `details` carries system-specific values
    (e.g. m/C/M, progress of an extended roll).
    """

    system: str
    kind: str
    spec: dict
    dice: tuple[Die, ...]
    kept: tuple[int, ...]
    result: int
    outcome: str
    flags: tuple[str, ...] = ()
    effects: Effects = field(default_factory=Effects)
    details: dict = field(default_factory=dict)

    @property
    def succeeded(self) -> bool:
        return self.outcome in {"success", "marginal", "exceptional", "critical"}

    def to_dict(self) -> dict:
        return {
            "system": self.system,
            "kind": self.kind,
            "spec": self.spec,
            "dice": [d.to_dict() for d in self.dice],
            "kept": list(self.kept),
            "result": self.result,
            "outcome": self.outcome,
            "flags": list(self.flags),
            "effects": self.effects.to_dict(),
            "details": self.details,
        }
