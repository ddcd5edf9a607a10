"""The toy engine, pure like `mechanics/rules/<key>/`: a pool of d6 where each 5 or 6 is a
hit, hit points that heal one per full day, and a scene award of feats."""

from __future__ import annotations

from dataclasses import dataclass

from mechanics.rules.dice import Die, RandomSource, RollRecord, roll_die
from mechanics.rules.errors import RuleError, gettext_noop

SYSTEM = "toy"
HIT = 5


def roll_pool(dice: int, rng: RandomSource) -> RollRecord:
    values = [roll_die(rng, 6) for _ in range(dice)]
    hits = sum(value >= HIT for value in values)
    return RollRecord(
        system=SYSTEM,
        kind="pool",
        spec={"dice": dice},
        dice=tuple(Die(6, value, ("success",) if value >= HIT else ()) for value in values),
        kept=tuple(range(dice)),
        result=hits,
        outcome="success" if hits else "failure",
    )


def chance_of_a_hit(dice: int) -> float:
    return 1 - (4 / 6) ** dice


def hit_points(body: int) -> int:
    return 2 * body + 4


def after_damage(lost: int, amount: int, maximum: int) -> int:
    return min(maximum, lost + amount)


def after_rest(lost: int, hours: int) -> int:
    return max(0, lost - hours // 24)


MAX_FEATS = 3


@dataclass(frozen=True)
class FeatsAward:
    """A scene's award: 0–3 feats, and 1 XP for showing up."""

    feats: int

    def __post_init__(self) -> None:
        if isinstance(self.feats, bool) or not isinstance(self.feats, int):
            raise RuleError(gettext_noop("%(name)s must be a whole number"), name="Hazañas")
        if not 0 <= self.feats <= MAX_FEATS:
            raise RuleError(
                gettext_noop("%(name)s must be between %(low)s and %(high)s"),
                name="Hazañas",
                low=0,
                high=MAX_FEATS,
            )

    @property
    def total(self) -> int:
        return self.feats + 1

    def to_dict(self) -> dict[str, int]:
        return {"feats": self.feats}
