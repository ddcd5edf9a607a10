import itertools
import math
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanics.rules.objetivo.catalogue import DamageDice
from mechanics.rules.objetivo.odds import (
    bench_specs,
    damage_distribution,
    odds,
    opposed_odds,
    target_pmf,
)
from mechanics.rules.objetivo.reference import reference_damage_distribution, reference_odds
from mechanics.rules.objetivo.rolls import ObjetivoSpec, attribute_roll_spec, roll_check

specs = st.builds(
    ObjetivoSpec,
    bonus=st.integers(-20, 49),
    difficulty=st.one_of(st.none(), st.integers(1, 100)),
    shift=st.integers(-2, 2),
    attribute_roll=st.booleans(),
    destiny_point=st.booleans(),
    destiny_returned=st.booleans(),
    incapacitated=st.booleans(),
)


def test_target_die_laws_are_the_closed_forms_of_3d10():
    for level in (-1, 0, 1):
        counts = [0] * 10
        for dice in itertools.product(range(1, 11), repeat=3):
            counts[sorted(dice)[level + 1] - 1] += 1
        assert target_pmf(level) == pytest.approx([c / 1000 for c in counts], abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(spec=specs)
def test_odds_sum_to_one(spec):
    result = odds(spec)
    assert sum(result.distribution.values()) == pytest.approx(1.0, abs=1e-9)
    assert 0.0 <= result.p_exceptional <= result.p_success <= 1.0
    assert result.p_dramatic_failure == pytest.approx(0.001)


@settings(max_examples=200, deadline=None)
@given(spec=specs)
def test_p_success_never_drops_with_one_more_point_of_bonus(spec):
    better = replace(spec, bonus=spec.bonus + 1)
    assert odds(better).p_success >= odds(spec).p_success - 1e-12
    assert odds(better).p_exceptional >= odds(spec).p_exceptional - 1e-12


@settings(max_examples=200, deadline=None)
@given(spec=specs.filter(lambda s: s.shift < 2))
def test_p_success_never_drops_one_level_up(spec):
    better = replace(spec, shift=spec.shift + 1)
    assert odds(better).p_success >= odds(spec).p_success - 1e-12


def test_odds_are_cached():
    spec = ObjetivoSpec(bonus=7, difficulty=21, shift=1)
    assert odds(spec) is odds(ObjetivoSpec(bonus=7, difficulty=21, shift=1))


def test_exploding_chains_are_cut_below_the_epsilon():
    # Highest die: p10 = 0.271, so the chain runs ~22 explosions deep.
    distribution = odds(ObjetivoSpec(bonus=0, shift=1)).distribution
    assert max(distribution) > 200
    assert 0 < 1 - sum(distribution.values()) < 1e-12


def test_bench_grid_is_bonus_difficulty_and_shift():
    grid = list(bench_specs())
    assert len(grid) == 21 * 21 * 3
    assert {s.shift for s in grid} == {-1, 0, 1}
    assert {s.bonus for s in grid} == set(range(21))
    assert {s.difficulty for s in grid} == set(range(10, 31))
    assert not any(s.attribute_roll for s in grid)


def _close(a, b):
    keys = set(a.distribution) | set(b.distribution)
    assert max(abs(a.distribution.get(k, 0) - b.distribution.get(k, 0)) for k in keys) < 1e-9
    assert a.p_success == pytest.approx(b.p_success, abs=1e-9)
    assert a.p_exceptional == pytest.approx(b.p_exceptional, abs=1e-9)
    assert a.p_dramatic_failure == pytest.approx(b.p_dramatic_failure, abs=1e-9)


@pytest.mark.parametrize("attribute_roll", [False, True])
@pytest.mark.parametrize("shift", [-1, 0, 1])
def test_odds_agree_with_icepool_on_a_grid(shift, attribute_roll):
    for bonus, difficulty in itertools.product(
        (-5, 0, 4, 9, 13, 20, 29), (None, 1, 10, 15, 20, 25, 30, 35, 47)
    ):
        spec = ObjetivoSpec(
            bonus=bonus, difficulty=difficulty, shift=shift, attribute_roll=attribute_roll
        )
        _close(odds(spec), reference_odds(spec))


def test_odds_agree_with_icepool_with_flags():
    for flags in (
        {"unskilled": True},
        {"incapacitated": True, "destiny_point": True},
        {"specialization": True, "destiny_returned": True},
        {"destiny_returned": True, "incapacitated": True},
    ):
        spec = ObjetivoSpec(bonus=11, difficulty=20, **flags)
        _close(odds(spec), reference_odds(spec))


def _side_law(spec):
    """Reference law of one opposed side: failed rolls at -inf (lose to any success)."""
    ref = reference_odds(spec)
    law = dict(ref.distribution)
    failed = ref.p_dramatic_failure if spec.attribute_roll else target_pmf(spec.level)[0]
    law[spec.bonus + 1] -= failed
    law[-math.inf] = failed
    return law


@pytest.mark.parametrize(
    ("actor", "opponent"),
    [
        (ObjetivoSpec(bonus=10), ObjetivoSpec(bonus=10)),
        (ObjetivoSpec(bonus=10, shift=1), ObjetivoSpec(bonus=13, unskilled=True)),
        (attribute_roll_spec(6), ObjetivoSpec(bonus=12)),
    ],
)
def test_opposed_odds_agree_with_a_pairwise_reference(actor, opponent):
    a, b = _side_law(actor), _side_law(opponent)
    win = sum(pa * pb for ta, pa in a.items() for tb, pb in b.items() if ta > tb)
    tie = sum(pa * pb for ta, pa in a.items() for tb, pb in b.items() if ta == tb)
    loss = sum(pa * pb for ta, pa in a.items() for tb, pb in b.items() if ta < tb)
    result = opposed_odds(actor, opponent)
    assert result.p_actor == pytest.approx(win, abs=1e-9)
    assert result.p_tie == pytest.approx(tie, abs=1e-9)
    assert result.p_opponent == pytest.approx(loss, abs=1e-9)


@pytest.mark.parametrize("damage", [DamageDice(2, 6), DamageDice(1, 6, -2), DamageDice(1, 10)])
@pytest.mark.parametrize("critical", [False, True])
def test_damage_distribution_agrees_with_icepool(damage, critical):
    ours = damage_distribution(damage, critical)
    ref = reference_damage_distribution(damage, critical)
    assert max(abs(ours.get(k, 0) - ref.get(k, 0)) for k in set(ours) | set(ref)) < 1e-9
    assert sum(ours.values()) == pytest.approx(1.0, abs=1e-11)


STAT_SPECS = [
    ObjetivoSpec(bonus=10, difficulty=20),
    ObjetivoSpec(bonus=8, difficulty=25, shift=1),
    ObjetivoSpec(bonus=14, difficulty=15, unskilled=True),
]


@pytest.mark.slow
@pytest.mark.parametrize("spec", STAT_SPECS)
def test_two_hundred_thousand_rolls_agree_with_the_exact_odds(spec):
    n = 200_000
    rng = random.Random(20260003 + spec.bonus)
    successes = criticals = fumbles = 0
    total_sum = 0
    for _ in range(n):
        record = roll_check(spec, rng)
        successes += record.succeeded
        criticals += record.outcome == "critical"
        fumbles += record.outcome == "dramatic_failure"
        total_sum += record.result
    exact = odds(spec)
    for count, p in (
        (successes, exact.p_success),
        (criticals, exact.p_exceptional),
        (fumbles, exact.p_dramatic_failure),
    ):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(count / n - p) <= 4 * se
    mean = sum(t * p for t, p in exact.distribution.items())
    variance = sum((t - mean) ** 2 * p for t, p in exact.distribution.items())
    assert abs(total_sum / n - mean) <= 4 * math.sqrt(variance / n)
