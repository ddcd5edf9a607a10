"""icepool reference for the tinieblas odds: used by tests and the benchmark only.

Each die is built with icepool's `Again`: a failure is 0, a success below the again
threshold is 1, a face at or over the threshold is 1 + Again. Rote rerolls a 0 once
(a die scores 0 only when its first face failed). The chain depth keeps the cut-off mass
of every die below 1e-15.
"""

from __future__ import annotations

import math

import icepool

from mechanics.rules.odds import Odds
from mechanics.rules.tinieblas.rolls import (
    CHANCE_DIE_AGAIN,
    EXCEPTIONAL_SUCCESSES,
    SIDES,
    SUCCESS_MIN,
    PoolSpec,
    pool_breakdown,
)

DRAMATIC = -1  # outcome marking a chance die that shows 1


def _depth(again: int | None) -> int:
    if again is None:
        return 0
    q = (SIDES + 1 - again) / SIDES
    return math.ceil(math.log(1e-15) / math.log(q))


def _face(value: int, again: int | None):
    if value < SUCCESS_MIN:
        return 0
    if again is not None and value >= again:
        return 1 + icepool.Again
    return 1


def _die(again: int | None) -> icepool.Die:
    faces = [_face(value, again) for value in range(1, SIDES + 1)]
    if again is None:
        return icepool.Die(faces)
    return icepool.Die(faces, again_depth=_depth(again))


def _chance_die() -> icepool.Die:
    # Only the chance die itself can be a dramatic failure; the dice it adds are normal.
    chain = _die(CHANCE_DIE_AGAIN)
    faces: list = [DRAMATIC]
    for value in range(2, SIDES + 1):
        face = _face(value, CHANCE_DIE_AGAIN)
        faces.append(1 + chain if isinstance(face, icepool.AgainExpression) else face)
    return icepool.Die(faces)


def _to_odds(die: icepool.Die) -> Odds:
    total = die.denominator()
    dist: dict[int, float] = {}
    dramatic = 0.0
    for outcome, quantity in die.items():
        p = quantity / total
        if outcome == DRAMATIC:
            dramatic = p
            outcome = 0
        dist[outcome] = dist.get(outcome, 0.0) + p
    below = sum(p for s, p in dist.items() if s < EXCEPTIONAL_SUCCESSES)
    return Odds(
        p_success=1.0 - dist.get(0, 0.0),
        p_exceptional=1.0 - below,
        p_dramatic_failure=dramatic,
        distribution=dist,
    )


def reference_odds_for_pool(n: int, again: int | None = 10, rote: bool = False) -> Odds:
    if n <= 0:
        return _to_odds(_chance_die())
    die = _die(again)
    if rote:
        die = die.reroll([0], depth=1)
    return _to_odds(n @ die)


def reference_odds(spec: PoolSpec) -> Odds:
    pool, _ = pool_breakdown(spec)
    return reference_odds_for_pool(pool, spec.again, spec.rote)
