import itertools
import json
import math
import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.ndp.odds import (
    arcane_odds,
    bench_specs,
    damage_odds,
    divine_odds,
    divine_tier_odds,
    odds,
    p_attacker_wins,
    p_progress,
)
from mechanics.rules.ndp.reference import (
    reference_divine_odds,
    reference_odds,
    reference_p_progress,
)
from mechanics.rules.ndp.rolls import (
    ArcaneSpec,
    DamageSpec,
    DivineSpec,
    NdpSpec,
    roll_check,
    roll_divine,
    roll_opposed,
)

specs = st.builds(
    NdpSpec,
    level=st.integers(0, 20),
    dice=st.sampled_from([2, 3, 4]),
    gracias=st.integers(0, 6),
    desgracias=st.integers(0, 6),
    adversity=st.none() | st.integers(0, 60),
    bonus=st.integers(-5, 5),
)


def _close(a: dict, b: dict, tolerance: float) -> bool:
    return all(abs(a.get(k, 0.0) - b.get(k, 0.0)) <= tolerance for k in set(a) | set(b))


@given(specs)
def test_odds_sum_to_one(spec):
    result = odds(spec)
    assert math.isclose(sum(result.distribution.values()), 1.0, abs_tol=1e-12)
    assert 0.0 <= result.p_success <= 1.0


@given(specs)
def test_the_system_has_no_exceptional_success_or_dramatic_failure(spec):
    result = odds(spec)
    assert result.p_exceptional == 0.0
    assert result.p_dramatic_failure == 0.0


@given(specs.filter(lambda s: s.adversity is not None and s.level < 20))
def test_p_success_never_decreases_with_the_level(spec):
    assert odds(replace(spec, level=spec.level + 1)).p_success >= odds(spec).p_success - 1e-12


@given(specs.filter(lambda s: s.adversity is not None))
def test_one_more_gracia_never_lowers_p_success(spec):
    assert odds(replace(spec, gracias=spec.gracias + 1)).p_success >= odds(spec).p_success - 1e-12


@given(specs.filter(lambda s: s.adversity is not None))
def test_one_more_desgracia_never_raises_p_success(spec):
    more = odds(replace(spec, desgracias=spec.desgracias + 1)).p_success
    assert more <= odds(spec).p_success + 1e-12


@given(specs.filter(lambda s: s.adversity is not None and s.dice < 4))
def test_ventaja_never_lowers_p_success(spec):
    assert odds(replace(spec, dice=spec.dice + 1)).p_success >= odds(spec).p_success - 1e-12


@given(specs)
def test_odds_json_round_trip_is_the_identity(spec):
    data = odds(spec).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert NdpSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


def test_no_adversity_has_no_success_probability():
    assert odds(NdpSpec(level=4)).p_success == 0.0


def test_fixed_adversity_must_be_exceeded():
    # 3d6 + 0 > 17 only on 18.
    assert odds(NdpSpec(level=0, adversity=17)).p_success == pytest.approx(1 / 216)
    assert odds(NdpSpec(level=0, adversity=2)).p_success == pytest.approx(1.0)


def test_defender_wins_ties_in_the_odds():
    attacker = odds(NdpSpec(level=0, opposed_total=10)).p_success
    defender = odds(NdpSpec(level=0, opposed_total=10, defender=True)).p_success
    assert defender - attacker == pytest.approx(27 / 216)


def test_p_progress_matches_the_dp():
    assert p_progress(NdpSpec(level=0)) == pytest.approx(181 / 216)  # 3d6 >= 8
    assert p_progress(NdpSpec(level=10)) == pytest.approx(1 / 216)  # 3d6 >= 18
    assert p_progress(NdpSpec(level=10, dice=2)) == 0.0
    assert p_progress(NdpSpec(level=4, gracias=3)) == p_progress(NdpSpec(level=4))


def test_odds_are_cached():
    spec = NdpSpec(level=3, gracias=1, adversity=12)
    assert odds(spec) is odds(NdpSpec(level=3, gracias=1, adversity=12))


def test_bench_specs_cover_the_grid():
    grid = list(bench_specs())
    assert len(grid) == 11 * 21 * 4 * 4
    assert {s.dice for s in grid} == {3}
    assert min(s.adversity for s in grid) == 4
    assert max(s.adversity for s in grid) == 24


ICEPOOL_GRID = [
    NdpSpec(level=level, dice=dice, gracias=g, desgracias=d, adversity=adversity)
    for level, dice, g, d, adversity in itertools.product(
        (0, 3, 10), (2, 3, 4), (0, 1, 3), (0, 2), (4, 13, 24)
    )
] + [
    NdpSpec(level=2, opposed_total=14, defender=True, gracias=1),
    NdpSpec(level=5, opposed_total=14, bonus=3),
    NdpSpec(level=7),
]


@pytest.mark.parametrize("spec", ICEPOOL_GRID)
def test_odds_agree_with_icepool(spec):
    exact, reference = odds(spec), reference_odds(spec)
    assert abs(exact.p_success - reference.p_success) < 1e-9
    assert _close(exact.distribution, reference.distribution, 1e-9)
    assert abs(p_progress(spec) - reference_p_progress(spec)) < 1e-9


@pytest.mark.parametrize("faith", [1, 2, 3, 5])
def test_divine_odds_agree_with_icepool(faith):
    spec = DivineSpec(faith=faith, target=15)
    exact, reference = divine_odds(spec), reference_divine_odds(spec)
    assert abs(exact.p_success - reference.p_success) < 1e-9
    assert _close(exact.distribution, reference.distribution, 1e-9)


def test_divine_odds_lose_less_than_the_truncation_bound():
    for faith in (1, 10, 40):
        total = sum(divine_odds(DivineSpec(faith=faith)).distribution.values())
        assert 1 - 1e-11 < total <= 1 + 1e-12


def test_divine_tier_odds_of_one_die():
    tiers = divine_tier_odds(DivineSpec(faith=1))
    assert tiers["none"] == pytest.approx(0.4)
    assert tiers["baja"] == pytest.approx(0.5)
    assert sum(tiers.values()) == pytest.approx(1.0)


def test_damage_odds_of_espada_larga_vs_rd_4():
    tiers = damage_odds(DamageSpec(sides=8, damage_type="cortante", rd=4))
    assert tiers == pytest.approx({"none": 0.5, "leve": 0.375, "grave": 0.125, "letal": 0.0})


def test_arcane_odds_are_a_voluntad_check_against_the_prana():
    spec = ArcaneSpec(level=3, prana=10)
    assert arcane_odds(spec) == odds(NdpSpec(level=3, adversity=10, skill="voluntad"))


def test_p_attacker_wins_matches_the_defender_tie_rule():
    attacker, defender = NdpSpec(level=0), NdpSpec(level=0)
    p_tie = sum(p * p for p in odds(attacker).distribution.values())
    assert p_attacker_wins(attacker, defender) == pytest.approx((1 - p_tie) / 2)


# --- Statistics: 200,000 seeded rolls per spec against the exact odds ---------------

STAT_SPECS = [
    NdpSpec(level=3, adversity=13),
    NdpSpec(level=2, dice=4, gracias=1, desgracias=2, adversity=15),
    NdpSpec(level=6, dice=2, desgracias=1, adversity=11),
    NdpSpec(level=1, gracias=2, adversity=9),
]


@pytest.mark.slow
@pytest.mark.parametrize("spec", STAT_SPECS)
def test_seeded_rolls_agree_with_the_exact_odds(spec):
    n = 200_000
    rng = random.Random(1000 + STAT_SPECS.index(spec))
    successes = progress = 0
    for _ in range(n):
        record = roll_check(spec, rng)
        successes += record.outcome == "success"
        progress += record.details["progress"]
    for observed, p in ((successes, odds(spec).p_success), (progress, p_progress(spec))):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(observed / n - p) <= 4 * se


@pytest.mark.slow
def test_seeded_opposed_and_divine_rolls_agree_with_the_exact_odds():
    n = 50_000
    rng = random.Random(2002)
    attacker, defender = NdpSpec(level=3), NdpSpec(level=2, gracias=1)
    wins = sum(roll_opposed(attacker, defender, rng).winner == "attacker" for _ in range(n))
    p = p_attacker_wins(attacker, defender)
    assert abs(wins / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
    spec = DivineSpec(faith=2, target=15)
    hits = sum(roll_divine(spec, rng).outcome == "success" for _ in range(n))
    p = divine_odds(spec).p_success
    assert abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def test_auxiliar_odds_match_a_hand_count_of_3d6():
    """Auxiliar NdP 2 must exceed 9: 3d6 ≥ 8, all but the 35 of 216 throws summing 3..7
    (1 + 3 + 6 + 10 + 15); against 15, 3d6 ≥ 14: 15 + 10 + 6 + 3 + 1 = 35 throws."""
    assert odds(NdpSpec(level=2, adversity=9, skill="auxiliar")).p_success == pytest.approx(
        181 / 216
    )
    assert odds(NdpSpec(level=2, adversity=15, skill="auxiliar")).p_success == pytest.approx(
        35 / 216
    )
