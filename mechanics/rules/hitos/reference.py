"""icepool reference for the Hitos odds: used by tests and benchmarks only.

It enumerates the sorted outcomes of 3d10 with icepool and reads off the kept die,
crítico and pifia, independently of the closed form in `odds.py`.
"""

from __future__ import annotations

from functools import cache

import icepool

from mechanics.rules.hitos.rolls import HitosSpec, succeeds
from mechanics.rules.odds import Odds


@cache
def _sorted_throws() -> icepool.Die:
    """A die over the sorted (m, C, M) tuples of 3d10, weighted by how often each occurs."""
    return icepool.d10.pool(3).expand()


def reference_odds(spec: HitosSpec) -> Odds:
    sorted_throws = _sorted_throws()
    denominator = sorted_throws.denominator()
    position = 1 + spec.shift
    distribution: dict[int, float] = {}
    success = critical = fumble = 0
    for outcome, quantity in sorted_throws.items():
        total = outcome[position] + spec.bonus
        distribution[total] = distribution.get(total, 0) + quantity
        if succeeds(total, spec.difficulty, spec.equal_succeeds):
            success += quantity
        if outcome.count(10) >= 2:
            critical += quantity
        if outcome.count(1) >= 2:
            fumble += quantity
    return Odds(
        p_success=success / denominator,
        p_exceptional=critical / denominator,
        p_dramatic_failure=fumble / denominator,
        distribution={total: q / denominator for total, q in sorted(distribution.items())},
    )
