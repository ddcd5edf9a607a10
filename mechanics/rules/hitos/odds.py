"""Exact odds of a Hitos check from the order statistics of 3d10, in closed form.

For three independent d10, with F(k) = k/10:
  P(M ≤ k) = F³,  P(m ≥ k) = (1 − F(k − 1))³,  P(C ≤ k) = 3F²(1 − F) + F³,
all multiples of 1/1000, so every probability is an integer count over 1000.
Crítico (two or three 10s) is exactly C = 10 and pifia exactly C = 1, whichever die
is kept, so both are 28/1000 for every spec.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from mechanics.rules.hitos.rolls import HitosSpec, spec_for_bonus, succeeds
from mechanics.rules.odds import Odds

FACES = range(1, 11)


def _count_at_most(position: int, k: int) -> int:
    """Out of 1000 throws, how many have the sorted die `position` (0 m, 1 C, 2 M) ≤ k."""
    if position == 0:
        return 1000 - (10 - k) ** 3
    if position == 1:
        return 3 * k * k * (10 - k) + k**3
    return k**3


def kept_die_counts(shift: int) -> tuple[int, ...]:
    """Counts out of 1000 of the kept die being 1..10 (shift −1 m, 0 C, +1 M)."""
    position = 1 + shift
    return tuple(_count_at_most(position, k) - _count_at_most(position, k - 1) for k in FACES)


CRITICAL_COUNT = kept_die_counts(0)[9]  # 28: C = 10
FUMBLE_COUNT = kept_die_counts(0)[0]  # 28: C = 1


@lru_cache(maxsize=4096)
def _odds(bonus: int, difficulty: int, shift: int, equal_succeeds: bool) -> Odds:
    counts = kept_die_counts(shift)
    distribution = {face + bonus: count / 1000 for face, count in zip(FACES, counts, strict=True)}
    wins = sum(
        count
        for face, count in zip(FACES, counts, strict=True)
        if succeeds(face + bonus, difficulty, equal_succeeds)
    )
    return Odds(
        p_success=wins / 1000,
        p_exceptional=CRITICAL_COUNT / 1000,
        p_dramatic_failure=FUMBLE_COUNT / 1000,
        distribution=distribution,
    )


def odds(spec: HitosSpec) -> Odds:
    """Exact odds over the result total. p_exceptional is the chance of a crítico and
    p_dramatic_failure of a pifia (flags, independent of success). Cached: do not
    mutate the returned distribution."""
    return _odds(spec.bonus, spec.difficulty, spec.shift, spec.equal_succeeds)


def odds_key(spec: HitosSpec) -> tuple[int, int, int, bool]:
    """What the odds depend on: specs with the same key have the same odds."""
    return spec.bonus, spec.difficulty, spec.shift, spec.equal_succeeds


def bench_specs() -> Iterator[HitosSpec]:
    """Benchmark grid: bonus (characteristic + skill) 0–20 × difficulty 10–30 × shift
    −1 (hinder, m), 0 (C), +1 (improve, M)."""
    for bonus in range(21):
        for difficulty in range(10, 31):
            for shift in (-1, 0, 1):
                yield spec_for_bonus(bonus, difficulty, shift)
