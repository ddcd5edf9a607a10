"""Exact odds of a Mundo de Tinieblas pool, in closed form.

One die with k-again succeeds with probability 0.3 and triggers another die with
probability q = (11 − k) / 10 (0 without again). Its number of successes X is 0 with
probability a = 0.7 and k ≥ 1 with probability c·q^(k−1), c = 0.3·(1 − q). With rote a
failed first die is rolled once more, which gives the same shape with a = 0.49 and
c = 1.7 · 0.3 · (1 − q). So the generating function of one die is a + c·z / (1 − q·z) and
that of n dice its n-th power, whose coefficients are

    P(S = 0) = a^n
    P(S = s) = Σ_{j=1..min(n, s)} C(n, j) · C(s − 1, j − 1) · a^(n−j) · c^j · q^(s−j)

(j = number of dice with at least one success). All terms are positive, so the sum is
numerically stable; the series is cut once the probability not yet accounted for is
below EPSILON (1e-12).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from mechanics.rules.odds import EPSILON, Odds, convolve
from mechanics.rules.tinieblas.rolls import (
    CHANCE_DIE_AGAIN,
    EXCEPTIONAL_SUCCESSES,
    SIDES,
    SUCCESS_MIN,
    PoolSpec,
    check_again,
    pool_breakdown,
)

P_SUCCESS_FACE = (SIDES - SUCCESS_MIN + 1) / SIDES  # 0.3
P_FAIL_FACE = 1.0 - P_SUCCESS_FACE  # 0.7
P_DRAMATIC_FACE = 1 / SIDES  # a chance die showing 1
# Safety stop for the series; never reached for pools the engine accepts.
MAX_SUCCESSES = 10_000


def explode_probability(again: int | None) -> float:
    return 0.0 if again is None else (SIDES + 1 - again) / SIDES


def _die_shape(again: int | None, rote: bool) -> tuple[float, float, float]:
    """(a, c, q): P(0), the factor of P(k ≥ 1) = c·q^(k−1), and the again probability."""
    q = explode_probability(again)
    a = P_FAIL_FACE
    c = P_SUCCESS_FACE * (1.0 - q)
    if rote:
        c *= 1.0 + a
        a *= a
    return a, c, q


def _distribution(n: int, a: float, c: float, q: float) -> dict[int, float]:
    p0 = a**n
    dist = {0: p0}
    total = p0
    if q == 0.0:
        # No again: a plain binomial over n dice.
        term = p0
        for s in range(1, n + 1):
            term *= (n - s + 1) / s * c / a
            dist[s] = term
        return dist
    ratio = c / (a * q)
    base = n * a ** (n - 1) * c  # j = 1 term without its q^(s−1)
    q_power = 1.0  # q^(s−1)
    s = 0
    # A hundredfold margin keeps the tail error under EPSILON after float rounding too.
    while 1.0 - total >= EPSILON / 100 and s < MAX_SUCCESSES:
        s += 1
        term = base * q_power
        p = term
        for j in range(1, min(n, s)):
            term *= (n - j) * (s - j) / ((j + 1) * j) * ratio
            p += term
        dist[s] = p
        total += p
        q_power *= q
    return dist


def _chance_die_odds() -> Odds:
    # P(0) includes the dramatic failure (a 1 is also 0 successes).
    a, c, q = _die_shape(CHANCE_DIE_AGAIN, False)
    dist = _distribution(1, a, c, q)
    return _odds_from(dist, p_dramatic_failure=P_DRAMATIC_FACE)


def _odds_from(dist: dict[int, float], p_dramatic_failure: float) -> Odds:
    below_exceptional = sum(p for s, p in dist.items() if s < EXCEPTIONAL_SUCCESSES)
    return Odds(
        p_success=1.0 - dist[0],
        p_exceptional=max(0.0, 1.0 - below_exceptional),
        p_dramatic_failure=p_dramatic_failure,
        distribution=dist,
    )


@lru_cache(maxsize=4096)
def odds_for_pool(n: int, again: int | None = 10, rote: bool = False) -> Odds:
    """Exact odds of n dice; n ≤ 0 is a chance die (10-again, no rote, 1 = dramatic).

    The returned object is shared by the cache: do not mutate its distribution.
    """
    check_again(again)
    if n <= 0:
        return _chance_die_odds_cached()
    a, c, q = _die_shape(again, bool(rote))
    return _odds_from(_distribution(n, a, c, q), p_dramatic_failure=0.0)


@lru_cache(maxsize=1)
def _chance_die_odds_cached() -> Odds:
    return _chance_die_odds()


@lru_cache(maxsize=4096)
def odds(spec: PoolSpec) -> Odds:
    """Exact odds of a roll spec (its final pool, again option and rote)."""
    pool, _ = pool_breakdown(spec)
    return odds_for_pool(pool, spec.again, spec.rote)


def teamwork_odds(main: PoolSpec, helpers: tuple[PoolSpec, ...] | list[PoolSpec]) -> Odds:
    """Exact odds of a teamwork roll (`rolls.roll_teamwork`): the main pool gains one die
    per success of the helpers, who roll first. The helpers' successes S are the
    convolution of their distributions (a dramatic failure scores 0); the main roll is
    then n + S dice, a chance die when that is 0 or less. Values of S past the last
    EPSILON / 100 of probability are left out, like any explosion chain."""
    pool, _ = pool_breakdown(main)
    bonus: dict[int, float] = {0: 1.0}
    for helper in helpers:
        bonus = convolve(bonus, odds(helper).distribution)
    p_success = p_exceptional = p_dramatic = 0.0
    dist: dict[int, float] = {}
    seen = 0.0
    for s, p_s in sorted(bonus.items()):
        if 1.0 - seen < EPSILON / 100:
            break
        seen += p_s
        result = odds_for_pool(pool + s, main.again, main.rote)
        p_success += p_s * result.p_success
        p_exceptional += p_s * result.p_exceptional
        p_dramatic += p_s * result.p_dramatic_failure
        for k, p_k in result.distribution.items():
            dist[k] = dist.get(k, 0.0) + p_s * p_k
    return Odds(
        p_success=p_success,
        p_exceptional=p_exceptional,
        p_dramatic_failure=p_dramatic,
        distribution=dist,
    )


# Past this many (successes needed × rolls left) the chance of completing an extended
# action is not worked out: the sum grows with both, and no table plays such actions.
COMPLETION_LIMIT = 20_000


@lru_cache(maxsize=1024)
def extended_completion(spec: PoolSpec, needed: int, rolls: int) -> float | None:
    """P(an extended action gets `needed` more successes within `rolls` rolls of `spec`):
    each roll adds its successes, and a dramatic failure (a chance die's 1) ends it. None
    past COMPLETION_LIMIT."""
    if needed * rolls > COMPLETION_LIMIT:
        return None
    result = odds(spec)
    # Successes still needed → the probability of being there, the action still going.
    going = {needed: 1.0}
    reached = 0.0
    for _roll in range(rolls):
        after: dict[int, float] = {}
        for need, p in going.items():
            for successes, p_s in result.distribution.items():
                if successes >= need:
                    reached += p * p_s
                    continue
                if successes == 0:
                    p_s -= result.p_dramatic_failure  # a 1 on a chance die ends it
                after[need - successes] = after.get(need - successes, 0.0) + p * p_s
        going = after
    return reached


def clear_caches() -> None:
    extended_completion.cache_clear()
    odds.cache_clear()
    odds_for_pool.cache_clear()
    _chance_die_odds_cached.cache_clear()
    pool_breakdown.cache_clear()


def spec_for_pool(n: int, again: int | None = 10, rote: bool = False) -> PoolSpec:
    """A plain spec whose final pool is n (1 ≤ n ≤ 50): attribute, skill, extra dice."""
    attribute = min(n, 5)
    skill = min(max(n - attribute, 0), 5)
    return PoolSpec(
        attribute=attribute,
        skill=skill,
        skill_category="physical" if skill else None,
        extra_dice=n - attribute - skill,
        again=again,
        rote=rote,
    )


def bench_specs() -> Iterator[PoolSpec]:
    """The benchmark grid: pools 1–30, each again option, rote off and on."""
    for n in range(1, 31):
        for again in (10, 9, 8, None):
            for rote in (False, True):
                yield spec_for_pool(n, again, rote)
