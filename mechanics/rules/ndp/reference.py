"""icepool reference odds, for tests and the benchmark only (never production code)."""

from __future__ import annotations

import icepool

from mechanics.rules.ndp.rolls import DivineSpec, NdpSpec
from mechanics.rules.odds import Odds


def _to_float(die: icepool.Die) -> dict[int, float]:
    denominator = die.denominator()
    return {int(outcome): quantity / denominator for outcome, quantity in die.items()}


def reference_odds(spec: NdpSpec) -> Odds:
    total = (
        (spec.dice @ icepool.d6)
        + (spec.gracias @ icepool.d4)
        - (spec.desgracias @ icepool.d4)
        + (spec.level + spec.bonus)
    )
    distribution = _to_float(total)
    threshold = spec.threshold
    p_success = 0.0
    if threshold is not None:
        p_success = _to_float(total >= threshold).get(1, 0.0)
    return Odds(
        p_success=p_success,
        p_exceptional=0.0,
        p_dramatic_failure=0.0,
        distribution=distribution,
    )


def reference_p_progress(spec: NdpSpec) -> float:
    dp = min(8 + spec.level, 18)
    return _to_float((spec.dice @ icepool.d6) >= dp).get(1, 0.0)


def reference_divine_odds(spec: DivineSpec, depth: int = 13) -> Odds:
    total = spec.faith @ icepool.d10.explode(depth=depth)
    distribution = _to_float(total)
    p_success = _to_float(total >= spec.threshold).get(1, 0.0)
    return Odds(
        p_success=p_success,
        p_exceptional=0.0,
        p_dramatic_failure=0.0,
        distribution=distribution,
    )
