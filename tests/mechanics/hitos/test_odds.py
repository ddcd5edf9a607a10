import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.hitos.odds import bench_specs, kept_die_counts, odds
from mechanics.rules.hitos.reference import reference_odds
from mechanics.rules.hitos.rolls import HitosSpec, roll_check, spec_for_bonus

specs = st.builds(
    spec_for_bonus,
    bonus=st.integers(0, 40),
    difficulty=st.integers(-20, 60),
    shift=st.integers(-1, 1),
    equal_succeeds=st.booleans(),
)


def test_order_statistics_of_3d10_match_the_known_counts():
    assert kept_die_counts(0) == (28, 76, 112, 136, 148, 148, 136, 112, 76, 28)
    assert kept_die_counts(1) == tuple(k**3 - (k - 1) ** 3 for k in range(1, 11))
    assert kept_die_counts(-1) == tuple(reversed(kept_die_counts(1)))


def test_critico_and_pifia_are_28_in_1000_whatever_die_is_kept():
    for shift in (-1, 0, 1):
        result = odds(spec_for_bonus(10, 15, shift))
        assert result.p_exceptional == pytest.approx(0.028, abs=1e-15)
        assert result.p_dramatic_failure == pytest.approx(0.028, abs=1e-15)


def test_media_difficulty_with_bonus_10_needs_c_of_6_or_more():
    assert odds(spec_for_bonus(10, 15)).p_success == pytest.approx(0.5, abs=1e-15)
    assert odds(spec_for_bonus(10, 15, equal_succeeds=True)).p_success == pytest.approx(
        0.648, abs=1e-15
    )


@given(specs)
def test_odds_sum_to_one(spec):
    assert math.isclose(sum(odds(spec).distribution.values()), 1.0, abs_tol=1e-12)


@given(specs)
def test_p_success_equals_the_distribution_above_the_difficulty(spec):
    result = odds(spec)
    threshold = spec.difficulty if spec.equal_succeeds else spec.difficulty + 1
    assert math.isclose(result.p_success, result.at_least(threshold), abs_tol=1e-12)


@given(
    st.integers(0, 39),
    st.integers(-20, 60),
    st.integers(-1, 1),
    st.booleans(),
)
def test_p_success_never_drops_with_a_higher_bonus(bonus, difficulty, shift, equal):
    lower = odds(spec_for_bonus(bonus, difficulty, shift, equal)).p_success
    higher = odds(spec_for_bonus(bonus + 1, difficulty, shift, equal)).p_success
    assert higher >= lower - 1e-15


@given(st.integers(0, 40), st.integers(-20, 60), st.booleans())
def test_improving_never_lowers_and_hindering_never_raises_p_success(bonus, difficulty, equal):
    hindered, plain, improved = (
        odds(spec_for_bonus(bonus, difficulty, shift, equal)).p_success for shift in (-1, 0, 1)
    )
    assert hindered <= plain + 1e-15
    assert plain <= improved + 1e-15


def test_odds_depend_on_the_total_bonus_only():
    split = HitosSpec(3, 4, 15, modifier=2, wound_penalty=-2)
    assert odds(split) == odds(spec_for_bonus(7, 15))


def test_bench_grid_covers_bonus_difficulty_and_shift():
    grid = list(bench_specs())
    assert len(grid) == 21 * 21 * 3
    assert {spec.shift for spec in grid} == {-1, 0, 1}
    assert {spec.characteristic + spec.skill for spec in grid} == set(range(21))
    assert {spec.difficulty for spec in grid} == set(range(10, 31))


def _agree(a, b) -> None:
    assert abs(a.p_success - b.p_success) < 1e-9
    assert abs(a.p_exceptional - b.p_exceptional) < 1e-9
    assert abs(a.p_dramatic_failure - b.p_dramatic_failure) < 1e-9
    for total in set(a.distribution) | set(b.distribution):
        assert abs(a.distribution.get(total, 0) - b.distribution.get(total, 0)) < 1e-9


def test_exact_odds_agree_with_icepool_on_a_grid():
    grid = [
        spec_for_bonus(bonus, difficulty, shift, equal)
        for bonus in range(0, 21, 2)
        for difficulty in range(5, 32, 3)
        for shift in (-1, 0, 1)
        for equal in (False, True)
    ]
    for spec in grid:
        _agree(odds(spec), reference_odds(spec))


def test_exact_odds_agree_with_icepool_with_modifiers_and_penalties():
    spec = HitosSpec(7, 5, 20, modifier=-3, wound_penalty=-5, improve=True)
    _agree(odds(spec), reference_odds(spec))


STAT_SPECS = (
    spec_for_bonus(10, 15),
    spec_for_bonus(12, 20, 1),
    spec_for_bonus(8, 10, -1),
    spec_for_bonus(5, 15, 0, equal_succeeds=True),
)


SUCCESSFUL = frozenset({"success", "critical"})


def _within_4_se(observed: int, n: int, p: float) -> bool:
    se = math.sqrt(p * (1 - p) / n)
    return abs(observed / n - p) <= 4 * se + 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("spec", STAT_SPECS, ids=lambda s: f"b{s.bonus}-d{s.difficulty}-s{s.shift}")
def test_200000_rolls_agree_with_the_exact_odds(spec):
    n = 200_000
    rng = random.Random(20_010 + spec.bonus * 100 + spec.difficulty + spec.shift)
    exact = odds(spec)
    totals: dict[int, int] = {}
    flags: dict[str, int] = {"critical": 0, "fumble": 0, "success": 0}
    for _ in range(n):
        record = roll_check(spec, rng)
        totals[record.result] = totals.get(record.result, 0) + 1
        for flag in record.flags:
            if flag in flags:
                flags[flag] += 1
        if record.outcome in SUCCESSFUL:
            flags["success"] += 1
    successes, criticals, fumbles = flags["success"], flags["critical"], flags["fumble"]
    assert _within_4_se(successes, n, exact.p_success)
    assert _within_4_se(criticals, n, exact.p_exceptional)
    assert _within_4_se(fumbles, n, exact.p_dramatic_failure)
    assert set(totals) <= set(exact.distribution)
    for total, p in exact.distribution.items():
        assert _within_4_se(totals.get(total, 0), n, p)
