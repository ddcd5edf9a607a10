"""Exact odds for Dado objetivo, by closed form (no enumeration beyond one 3d10).

The target die's law at each level is a closed form over 3d10. A skill roll's die sum
is X = D if D < 10 else 10 + X' (X' an independent copy), so P(X = 10j + d) =
p10^j · p_d for d in 1..9; the chain is cut once the mass left, p10^(j+1), is below
EPSILON. Totals are bonus + X.

- p_success: P(total ≥ difficulty and the roll did not fail on its own: a natural 1 on
  the first target die of a skill roll, or a pifia). Without a difficulty: P(not failed).
- p_exceptional: P(crítico) = P(success and total ≥ 30).
- p_dramatic_failure: P(pifia) = P(three 1s on the first throw) = 1/1000.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from mechanics.rules.objetivo.catalogue import CRITICAL_TOTAL, DamageDice
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from mechanics.rules.odds import EPSILON, Distribution, Odds, convolve

P_FUMBLE = 1 / 1000


def target_pmf(level: int) -> tuple[float, ...]:
    """P(target die = k) for k = 1..10 (index k − 1) at level −1, 0 or +1."""
    return _TARGET_PMF[max(-1, min(1, level))]


def _pmf_counts(level: int, k: int) -> int:
    """Out of 1000 throws of 3d10, how many keep k at this level."""
    if level < 0:  # lowest die is k
        return (11 - k) ** 3 - (10 - k) ** 3
    if level > 0:  # highest die is k
        return k**3 - (k - 1) ** 3
    # median is k: all three k; two k and another; one below, k, one above
    return 1 + 3 * 9 + 6 * (k - 1) * (10 - k)


_TARGET_PMF = {
    level: tuple(_pmf_counts(level, k) / 1000 for k in range(1, 11)) for level in (-1, 0, 1)
}


@lru_cache(maxsize=16)
def _die_sum(level: int, explodes: bool) -> tuple[tuple[tuple[int, float], ...], float]:
    """Law of the dice sum X of rolls that did not fail on their own, and the failed mass.

    Failed rolls all have X = 1 (natural 1 for a skill roll, pifia for an attribute roll).
    """
    pmf = target_pmf(level)
    if not explodes:
        ok = [(1, pmf[0] - P_FUMBLE), *((d, pmf[d - 1]) for d in range(2, 11))]
        return tuple((x, p) for x, p in ok if p > 0), P_FUMBLE
    p10 = pmf[9]
    ok: list[tuple[int, float]] = [(d, pmf[d - 1]) for d in range(2, 10)]
    weight = p10
    j = 1
    while weight >= EPSILON:
        ok.extend((10 * j + d, weight * pmf[d - 1]) for d in range(1, 10))
        weight *= p10
        j += 1
    return tuple(ok), pmf[0]


@lru_cache(maxsize=8192)
def odds(spec: ObjetivoSpec) -> Odds:
    """Exact odds of a check (skill or attribute roll) as `spec` sets it up."""
    ok, failed = _die_sum(spec.level, spec.explodes)
    bonus = spec.bonus
    distribution: Distribution = {1 + bonus: failed}
    for x, p in ok:
        distribution[x + bonus] = distribution.get(x + bonus, 0.0) + p
    need = spec.difficulty if spec.difficulty is not None else -(10**9)
    critical_need = max(need, CRITICAL_TOTAL)
    p_success = sum(p for x, p in ok if x + bonus >= need)
    p_exceptional = sum(p for x, p in ok if x + bonus >= critical_need)
    return Odds(
        p_success=p_success,
        p_exceptional=p_exceptional,
        p_dramatic_failure=P_FUMBLE,
        distribution=dict(sorted(distribution.items())),
    )


@dataclass(frozen=True)
class OpposedOdds:
    p_actor: float
    p_tie: float
    p_opponent: float

    def to_dict(self) -> dict:
        return {"p_actor": self.p_actor, "p_tie": self.p_tie, "p_opponent": self.p_opponent}


def _totals(spec: ObjetivoSpec) -> tuple[list[tuple[int, float]], float, float]:
    """Sorted (total, p) of rolls that did not fail on their own, their mass, failed mass."""
    ok, failed = _die_sum(spec.level, spec.explodes)
    totals: dict[int, float] = {}
    for x, p in ok:
        totals[x + spec.bonus] = totals.get(x + spec.bonus, 0.0) + p
    return sorted(totals.items()), sum(p for _, p in ok), failed


def _greater(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> tuple[float, float]:
    """P(A > B) and P(A = B) for independent sorted laws (mass outside them counts as 0)."""
    greater = equal = below = 0.0
    i = 0
    for t, p in a:
        while i < len(b) and b[i][0] < t:
            below += b[i][1]
            i += 1
        greater += p * below
        if i < len(b) and b[i][0] == t:
            equal += p * b[i][1]
    return greater, equal


@lru_cache(maxsize=4096)
def opposed_odds(actor: ObjetivoSpec, opponent: ObjetivoSpec) -> OpposedOdds:
    """Who wins an opposed roll (rules as in `rolls.roll_opposed`)."""
    a, a_ok, a_failed = _totals(actor)
    b, b_ok, b_failed = _totals(opponent)
    a_wins, tie = _greater(a, b)
    b_wins, _ = _greater(b, a)
    return OpposedOdds(
        p_actor=a_wins + a_ok * b_failed,
        p_tie=tie + a_failed * b_failed,
        p_opponent=b_wins + b_ok * a_failed,
    )


@lru_cache(maxsize=256)
def damage_distribution(damage: DamageDice, critical: bool = False) -> Distribution:
    """Exact law of the damage dealt: exploding dice + modifier, minimum 0, ×2 on crítico."""
    sides = damage.sides
    # Per-die mass cut, so that all dice together leave less than EPSILON.
    cut = EPSILON / damage.count
    one: Distribution = {}
    left = 1.0  # P(the die showed its maximum j times so far)
    j = 0
    while left >= cut:
        for r in range(1, sides):
            one[sides * j + r] = left / sides
        left /= sides
        j += 1
    total: Distribution = {0: 1.0}
    for _ in range(damage.count):
        total = convolve(total, one)
    out: Distribution = {}
    for x, p in total.items():
        dealt = max(0, x + damage.modifier) * (2 if critical else 1)
        out[dealt] = out.get(dealt, 0.0) + p
    return dict(sorted(out.items()))


def bench_specs() -> Iterator[ObjetivoSpec]:
    """Benchmark grid: skill rolls, bonus 0–20 × difficulty 10–30 × shift −1, 0, +1."""
    for shift in (-1, 0, 1):
        for bonus in range(21):
            for difficulty in range(10, 31):
                yield ObjetivoSpec(bonus=bonus, difficulty=difficulty, shift=shift)
