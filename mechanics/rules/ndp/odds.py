"""Exact odds for 3d6 + NdP.

A check's total is (sum of 2–4 d6) + (sum of the Gracia d4) − (sum of the Desgracia d4)
+ NdP + bonus. The dice part depends only on (dice, gracias, desgracias); it is built
once with integer counts (exact) and cached, then shifted by NdP + bonus.

The system has no exceptional success and no dramatic failure: `p_exceptional` and
`p_dramatic_failure` are always 0. With no adversity (nothing to exceed) `p_success`
is 0 and only the distribution means anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from math import comb

from mechanics.rules.ndp.catalogue import DIVINE_TIERS, wound_tier
from mechanics.rules.ndp.rolls import (
    DP_BASE,
    DP_CAP,
    ArcaneSpec,
    CraftingSpec,
    DamageSpec,
    DispelSpec,
    DivineSpec,
    NdpSpec,
    effective_rd,
)
from mechanics.rules.odds import EPSILON, Distribution, Odds

Counts = dict[int, int]


def _convolve_counts(a: Counts, b: Counts) -> Counts:
    out: Counts = {}
    for x, cx in a.items():
        for y, cy in b.items():
            out[x + y] = out.get(x + y, 0) + cx * cy
    return out


def _dice_counts(n: int, sides: int, sign: int = 1) -> Counts:
    """Number of ways each sum of n dice (negated when sign is −1) comes up."""
    out: Counts = {0: 1}
    face = {sign * v: 1 for v in range(1, sides + 1)}
    for _ in range(n):
        out = _convolve_counts(out, face)
    return out


@lru_cache(maxsize=512)
def _core(dice: int, gracias: int, desgracias: int) -> tuple[tuple[int, float], ...]:
    """Distribution of the dice part of a check, sorted by total."""
    counts = _convolve_counts(
        _dice_counts(dice, 6),
        _convolve_counts(_dice_counts(gracias, 4), _dice_counts(desgracias, 4, -1)),
    )
    denominator = 6**dice * 4 ** (gracias + desgracias)
    return tuple((total, count / denominator) for total, count in sorted(counts.items()))


@lru_cache(maxsize=8)
def _d6_tail(dice: int) -> dict[int, float]:
    """P(sum of the d6 ≥ k) for every k that matters."""
    counts = _dice_counts(dice, 6)
    denominator = 6**dice
    return {k: sum(c for s, c in counts.items() if s >= k) / denominator for k in range(0, 25)}


@lru_cache(maxsize=65_536)
def odds(spec: NdpSpec) -> Odds:
    """Exact odds of a check: the distribution of its total and P(success)."""
    offset = spec.level + spec.bonus
    core = _core(spec.dice, spec.gracias, spec.desgracias)
    distribution: Distribution = {t + offset: p for t, p in core}
    threshold = spec.threshold
    p_success = 0.0
    if threshold is not None:
        p_success = sum(p for total, p in distribution.items() if total >= threshold)
        p_success = min(p_success, 1.0)
    return Odds(
        p_success=p_success,
        p_exceptional=0.0,
        p_dramatic_failure=0.0,
        distribution=distribution,
    )


def p_progress(spec: NdpSpec) -> float:
    """Probability that the d6 alone reach the DP, i.e. the skill gains 1 PdP."""
    return _d6_tail(spec.dice)[min(DP_BASE + spec.level, DP_CAP)]


def p_attacker_wins(attacker: NdpSpec, defender: NdpSpec) -> float:
    """Probability that the attacker's total exceeds the defender's (ties: defender)."""
    a = odds(_bare(attacker)).distribution
    d = sorted(odds(_bare(defender)).distribution.items())
    total = 0.0
    for x, px in a.items():
        total += px * sum(pd for y, pd in d if y < x)
    return total


def _bare(spec: NdpSpec) -> NdpSpec:
    return NdpSpec(
        level=spec.level,
        dice=spec.dice,
        gracias=spec.gracias,
        desgracias=spec.desgracias,
        bonus=spec.bonus,
    )


def arcane_odds(spec: ArcaneSpec | DispelSpec | CraftingSpec) -> Odds:
    """Odds of a cast, a dispel or a crafting roll: a Voluntad check."""
    return odds(spec.check())


# --- Damage -------------------------------------------------------------------------


@lru_cache(maxsize=4_096)
def damage_distribution(spec: DamageSpec) -> tuple[tuple[int, float], ...]:
    """Distribution of the raw damage (dice + fixed), sorted."""
    if spec.sides == 0:
        return ((spec.fixed, 1.0),)
    counts = _dice_counts(spec.count, spec.sides)
    denominator = spec.sides**spec.count
    return tuple((raw + spec.fixed, c / denominator) for raw, c in sorted(counts.items()))


def damage_odds(spec: DamageSpec) -> dict[str, float]:
    """Probability of each wound tier ("none" when the RD is not exceeded)."""
    rd = effective_rd(spec.rd, spec.damage_type, spec.armour_integrity)
    out = {"none": 0.0, "leve": 0.0, "grave": 0.0, "letal": 0.0}
    for raw, p in damage_distribution(spec):
        out[wound_tier(raw - rd) or "none"] += p
    return out


# --- Divine -------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _divine_distribution(faith: int) -> tuple[tuple[int, float], ...]:
    """Sum of `faith` exploding d10.

    Each die shows 10·k + r: k tens (explosions) then a final face r in 1–9. So the
    total is 10·T + S, with T the tens over all dice (negative binomial: n = faith,
    P(ten) = 1/10) and S the sum of `faith` uniform 1–9 faces, independent of T. T is
    cut once P(more tens) < EPSILON.
    """
    faces = _dice_counts(faith, 9)
    denominator = 9**faith
    s_dist = [(s, c / denominator) for s, c in sorted(faces.items())]
    out: dict[int, float] = {}
    tens = 0
    remaining = 1.0
    while remaining >= EPSILON:
        p_tens = comb(faith + tens - 1, tens) * 0.1**tens * 0.9**faith
        remaining -= p_tens
        for s, ps in s_dist:
            out[10 * tens + s] = out.get(10 * tens + s, 0.0) + p_tens * ps
        tens += 1
    return tuple(sorted(out.items()))


@lru_cache(maxsize=1_024)
def divine_odds(spec: DivineSpec) -> Odds:
    """Distribution of a divine total; p_success reaches the target (Baja by default)."""
    distribution = dict(_divine_distribution(spec.faith))
    p_success = sum(p for total, p in distribution.items() if total >= spec.threshold)
    return Odds(
        p_success=min(p_success, 1.0),
        p_exceptional=0.0,
        p_dramatic_failure=0.0,
        distribution=distribution,
    )


def divine_tier_odds(spec: DivineSpec) -> dict[str, float]:
    """Probability of ending in each tier ("none" below Baja)."""
    out = {"none": 0.0, **{tier.key: 0.0 for tier in DIVINE_TIERS}}
    for total, p in _divine_distribution(spec.faith):
        key = "none"
        for tier in DIVINE_TIERS:
            if total >= tier.threshold:
                key = tier.key
        out[key] += p
    return out


# --- Benchmark ----------------------------------------------------------------------


def bench_specs() -> Iterator[NdpSpec]:
    """NdP 0–10 × adversity 4–24 × Gracias 0–3 × Desgracias 0–3, with 3d6."""
    for level in range(11):
        for adversity in range(4, 25):
            for gracias in range(4):
                for desgracias in range(4):
                    yield NdpSpec(
                        level=level,
                        dice=3,
                        gracias=gracias,
                        desgracias=desgracias,
                        adversity=adversity,
                    )
