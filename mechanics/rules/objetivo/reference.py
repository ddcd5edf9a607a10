"""icepool reference for Dado objetivo odds: used by tests and the benchmark only.

Built independently of odds.py: the target die is icepool's lowest/middle/highest of a
3d10 pool and the explosion is icepool's `explode` (deep enough that the mass it keeps
differently, p10^(depth+1), is below 1e-15).
"""

from __future__ import annotations

from functools import lru_cache

import icepool

from mechanics.rules.objetivo.catalogue import CRITICAL_TOTAL, DamageDice
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from mechanics.rules.odds import Odds

EXPLODE_DEPTH = 30


@lru_cache(maxsize=8)
def _target(level: int) -> icepool.Die:
    pool = icepool.d10.pool(3)
    kept = {-1: pool.lowest(1), 0: pool.middle(1), 1: pool.highest(1)}[level]
    return kept.sum()


@lru_cache(maxsize=8)
def _laws(level: int, explodes: bool) -> tuple[dict[int, float], float, float]:
    """Law of the dice sum, P(first target die is 1), P(three 1s)."""
    first = _target(level)
    law = first.explode([10], depth=EXPLODE_DEPTH) if explodes else first
    dist = {int(x): float(p) for x, p in zip(law.outcomes(), law.probabilities(), strict=True)}
    fumble = icepool.d10.pool(3).highest(1).sum().probability(1)
    return dist, float(first.probability(1)), float(fumble)


def reference_odds(spec: ObjetivoSpec) -> Odds:
    dist, p_first_one, p_fumble = _laws(spec.level, spec.explodes)
    distribution = {x + spec.bonus: p for x, p in dist.items()}
    # A failed roll (natural 1 of a skill roll, pifia) always sits at total bonus + 1.
    p_failed = p_fumble if spec.attribute_roll else p_first_one
    need = spec.difficulty if spec.difficulty is not None else -(10**9)
    failed_total = 1 + spec.bonus

    def ok_at_least(k: int) -> float:
        mass = sum(p for t, p in distribution.items() if t >= k)
        return mass - (p_failed if failed_total >= k else 0.0)

    return Odds(
        p_success=ok_at_least(need),
        p_exceptional=ok_at_least(max(need, CRITICAL_TOTAL)),
        p_dramatic_failure=p_fumble,
        distribution=distribution,
    )


def reference_damage_distribution(damage: DamageDice, critical: bool = False) -> dict[int, float]:
    die = icepool.Die(range(1, damage.sides + 1)).explode(depth=EXPLODE_DEPTH)
    total = (damage.count @ die) + damage.modifier
    dealt = total.map(lambda x: max(0, x) * (2 if critical else 1))
    return {int(x): float(p) for x, p in zip(dealt.outcomes(), dealt.probabilities(), strict=True)}
