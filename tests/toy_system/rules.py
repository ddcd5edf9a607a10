"""The toy engine, pure like `mechanics/rules/<key>/`: a pool of d6 where each 5 or 6 is a
hit, and hit points that heal one per full day."""

from __future__ import annotations

from mechanics.rules.dice import Die, RandomSource, RollRecord, roll_die

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
