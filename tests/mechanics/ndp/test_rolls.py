import json
import random

import pytest

from mechanics.rules.errors import RuleError
from mechanics.rules.ndp.rolls import (
    ArcaneSpec,
    CraftingSpec,
    DamageResult,
    DamageSpec,
    DispelSpec,
    DivineSpec,
    NdpSpec,
    add_pdp,
    attack_desgracias,
    damage_result,
    defence_desgracias,
    dp,
    failed_spell_cost,
    roll_arcane,
    roll_check,
    roll_crafting,
    roll_damage,
    roll_dispel,
    roll_divine,
    roll_opposed,
)


class Scripted:
    """A random source that returns the given values, checking each range."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.ranges: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        self.ranges.append((a, b))
        assert a <= value <= b, (value, a, b)
        return value


def test_check_sums_three_d6_and_the_level():
    record = roll_check(NdpSpec(level=4, adversity=12), Scripted(3, 4, 5))
    assert record.result == 16
    assert record.outcome == "success"
    assert [d.sides for d in record.dice] == [6, 6, 6]
    assert record.kept == (3, 4, 5)
    assert record.details["adversity_name"] == "Intermedia"


def test_a_check_against_an_adversity_below_4_names_no_band():
    # An Auxiliar at 3, a 3-Prana spell: Fácil is 4-8 (docs/rules.md#ndp-low-adversity).
    record = roll_check(NdpSpec(level=0, adversity=3), Scripted(1, 1, 1))
    assert record.details["threshold"] == 4
    assert "adversity_name" not in record.details
    assert (
        roll_check(NdpSpec(level=0, adversity=4), Scripted(1, 1, 1)).details["adversity_name"]
        == "Fácil"
    )


def test_equal_to_a_fixed_adversity_is_not_enough():
    record = roll_check(NdpSpec(level=2, adversity=12), Scripted(3, 3, 4))
    assert record.result == 12
    assert record.outcome == "failure"
    assert not record.succeeded


def test_ventaja_sums_all_four_dice_and_desventaja_two():
    assert roll_check(NdpSpec(level=0, dice=4), Scripted(6, 6, 6, 6)).result == 24
    assert roll_check(NdpSpec(level=0, dice=2), Scripted(1, 2)).result == 3


def test_gracias_and_desgracias_stack_without_cancelling():
    rng = Scripted(2, 2, 2, 4, 1, 3, 3)
    record = roll_check(NdpSpec(level=1, gracias=2, desgracias=2), rng)
    assert rng.ranges == [(1, 6)] * 3 + [(1, 4)] * 4
    assert record.result == 6 + 1 + 4 + 1 - 3 - 3
    assert record.kept == (2, 2, 2, 4, 1, -3, -3)
    assert sum(record.kept) + 1 == record.result
    assert [d.tags for d in record.dice][-1] == ("desgracia", "negative", "kept")
    assert record.outcome == "rolled"


def test_bonus_adds_to_the_total_but_not_to_the_progression_difficulty():
    record = roll_check(NdpSpec(level=2, bonus=4, adversity=10), Scripted(3, 3, 4))
    assert record.result == 16
    assert record.details["dp"] == 10
    assert "progress" in record.flags


def test_progression_counts_only_the_d6_and_reaching_dp_is_enough():
    spec = NdpSpec(level=4, gracias=3, adversity=30, skill="percibir")
    reached = roll_check(spec, Scripted(4, 4, 4, 4, 4, 4))
    assert reached.details["d6_sum"] == 12
    assert reached.details["dp"] == 12
    assert reached.outcome == "failure"
    assert reached.effects.pdp_gained == {"percibir": 1}
    assert "progress" in reached.flags
    missed = roll_check(spec, Scripted(4, 4, 3, 4, 4, 4))
    assert missed.effects.pdp_gained == {}
    assert missed.details["progress"] is False


def test_progression_difficulty_caps_at_18():
    assert [dp(n) for n in (0, 1, 9, 10, 20)] == [8, 9, 17, 18, 18]
    record = roll_check(NdpSpec(level=15, skill="pelea"), Scripted(6, 6, 6))
    assert record.effects.pdp_gained == {"pelea": 1}


def test_six_pdp_become_one_ndp():
    assert add_pdp(3, 5, 1) == (4, 0)
    assert add_pdp(3, 4, 1) == (3, 5)
    assert add_pdp(3, 0, 0) == (3, 0)


def test_extra_pdp_carry_over_after_the_conversion():
    assert add_pdp(3, 5, 2) == (4, 1)
    assert add_pdp(0, 0, 13) == (2, 1)


def test_pdp_stop_at_the_level_cap():
    assert add_pdp(20, 5, 1) == (20, 5)
    assert add_pdp(19, 5, 1) == (20, 0)
    assert add_pdp(19, 5, 7) == (20, 5)


def test_invalid_pdp_is_refused():
    with pytest.raises(RuleError):
        add_pdp(3, 6, 1)
    with pytest.raises(RuleError):
        add_pdp(3, 0, -1)


def test_opposed_tie_goes_to_the_defender():
    result = roll_opposed(NdpSpec(level=3), NdpSpec(level=0), Scripted(3, 3, 3, 4, 4, 4))
    assert result.attacker.result == result.defender.result == 12
    assert result.winner == "defender"
    assert result.attacker.outcome == "failure"
    assert result.defender.outcome == "success"
    assert result.defender.spec["defender"] is True
    assert result.attacker.spec["opposed_total"] == 12


def test_opposed_attacker_wins_by_exceeding():
    result = roll_opposed(NdpSpec(level=4), NdpSpec(level=0), Scripted(3, 3, 3, 4, 4, 4))
    assert (result.attacker.result, result.defender.result) == (13, 12)
    assert result.winner == "attacker"
    assert json.loads(json.dumps(result.to_dict()))["winner"] == "attacker"


def test_opposed_spec_with_the_defender_flag_wins_ties():
    assert roll_check(NdpSpec(level=0, opposed_total=9, defender=True), Scripted(3, 3, 3)).succeeded
    assert not roll_check(NdpSpec(level=0, opposed_total=9), Scripted(3, 3, 3)).succeeded


def test_opposed_sides_cannot_carry_their_own_adversity():
    with pytest.raises(RuleError):
        roll_opposed(NdpSpec(level=1, adversity=5), NdpSpec(level=1), random.Random(1))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"level": -1},
        {"level": 21},
        {"level": 3, "dice": 5},
        {"level": 3, "dice": True},
        {"level": 3, "dice": 3.0},
        {"level": 3, "gracias": -1},
        {"level": 3, "desgracias": 21},
        {"level": 3, "adversity": -1},
        {"level": 3, "adversity": 10, "opposed_total": 12},
        {"level": 3, "defender": True},
        {"level": 3, "skill": "telepatia"},
        {"level": "3"},
    ],
)
def test_invalid_specs_are_refused_with_a_readable_message(kwargs):
    with pytest.raises(RuleError) as error:
        NdpSpec(**kwargs)
    assert str(error.value)


def test_spec_round_trips_through_json():
    spec = NdpSpec(level=5, dice=4, gracias=1, desgracias=2, adversity=14, skill="nadar")
    assert NdpSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


def test_spec_from_dict_refuses_unknown_fields():
    with pytest.raises(RuleError, match="unknown spec fields"):
        NdpSpec.from_dict({"level": 1, "luck": 3})


def test_record_is_json_serialisable():
    record = roll_check(NdpSpec(level=3, gracias=1, adversity=9, skill="correr"), random.Random(5))
    assert json.loads(json.dumps(record.to_dict()))["system"] == "ndp"


def test_second_attack_takes_a_desgracia_and_there_is_no_third():
    assert attack_desgracias(1) == 0
    assert attack_desgracias(2) == 1
    with pytest.raises(RuleError, match="at most 2 attacks"):
        attack_desgracias(3)


def test_each_extra_defence_adds_a_desgracia():
    assert [defence_desgracias(n) for n in (1, 2, 3)] == [0, 1, 2]


# --- Damage -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "rd", "tier"),
    [(5, 4, "leve"), (7, 4, "leve"), (8, 4, "grave"), (11, 4, "grave"), (12, 4, "letal")],
)
def test_net_damage_gives_the_wound_tier(raw, rd, tier):
    assert damage_result(raw, rd, "cortante").tier == tier


def test_pelea_blow_that_does_not_exceed_rd_wounds_the_attacker():
    result = damage_result(2, 3, "contundente", pelea=True)
    assert result.effective_rd == 1
    assert result.tier == "leve"
    blocked = damage_result(1, 3, "contundente", pelea=True)
    assert blocked.attacker_wound == "leve"
    assert blocked.weapon_integrity_loss == 0


def test_broken_armour_keeps_at_most_rd_1():
    result = damage_result(3, 6, "cortante", armour_integrity=0)
    assert result.effective_rd == 1
    assert result.net == 2
    assert damage_result(3, 6, "contundente", armour_integrity=0).effective_rd == 0


def test_no_armour_means_no_armour_integrity_loss():
    result = damage_result(3, 0, "cortante")
    assert result.tier == "leve"
    assert result.armour_integrity_loss == 0


def test_damage_result_round_trips():
    result = damage_result(9, 4, "contundente")
    assert DamageResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_multi_die_and_fixed_damage():
    ariete = DamageSpec(sides=4, count=3, damage_type="contundente", rd=2)
    record = roll_damage(ariete, Scripted(4, 4, 3))
    assert record.details["raw"] == 11
    assert record.result == 10
    assert record.outcome == "letal"
    poder = DamageSpec(sides=0, fixed=5, damage_type="cortante")
    assert roll_damage(poder, Scripted()).outcome == "grave"


def test_damage_spec_validation():
    with pytest.raises(RuleError):
        DamageSpec(sides=8, damage_type="fuego")
    with pytest.raises(RuleError):
        DamageSpec(sides=0, damage_type="cortante")
    spec = DamageSpec(sides=6, damage_type="cortante", rd=3)
    assert DamageSpec.from_dict(spec.to_dict()) == spec


# --- Magic --------------------------------------------------------------------------


def test_divine_roll_sums_one_d10_per_faith_point():
    record = roll_divine(DivineSpec(faith=3), Scripted(4, 7, 2))
    assert record.result == 13
    assert record.details["tier"] == "media"
    assert record.outcome == "success"
    assert record.details["faith_spent"] == 3


def test_divine_ten_explodes_again_and_again():
    record = roll_divine(DivineSpec(faith=2, target=30), Scripted(10, 10, 3, 5))
    assert record.result == 28
    assert [d.tags for d in record.dice] == [
        ("exploded", "kept"),
        ("exploded", "explosion", "kept"),
        ("explosion", "kept"),
        ("kept",),
    ]
    assert "critical" in record.flags
    assert record.outcome == "failure"
    assert record.details["tier_name"] == "Alta"


def test_divine_needs_at_least_one_faith_point():
    with pytest.raises(RuleError, match="at least 1 faith point"):
        DivineSpec(faith=0)


def test_divine_below_baja_has_no_tier():
    record = roll_divine(DivineSpec(faith=1), Scripted(4))
    assert record.details["tier"] is None
    assert record.outcome == "failure"


def test_arcane_success_spends_all_the_prana():
    record = roll_arcane(ArcaneSpec(level=3, prana=5), Scripted(1, 1, 1))
    assert record.result == 6
    assert record.outcome == "success"
    assert record.effects.prana_spent == 5
    assert record.kind == "arcane"


def test_arcane_failure_spends_half_rounded_up():
    record = roll_arcane(ArcaneSpec(level=0, prana=7), Scripted(1, 1, 1))
    assert record.outcome == "failure"
    assert record.effects.prana_spent == 4
    assert [failed_spell_cost(n) for n in (1, 2, 3, 6)] == [1, 1, 2, 3]


def test_arcane_refuses_more_prana_than_available():
    with pytest.raises(RuleError, match="not enough Prana"):
        ArcaneSpec(level=3, prana=9, available_prana=8)
    with pytest.raises(RuleError):
        ArcaneSpec(level=3, prana=0)


def test_arcane_roll_gains_voluntad_pdp():
    record = roll_arcane(ArcaneSpec(level=2, prana=4), Scripted(4, 3, 3))
    assert record.effects.pdp_gained == {"voluntad": 1}


def test_dispel_success_recovers_one_prana():
    record = roll_dispel(DispelSpec(level=4, original_adversity=10), Scripted(3, 3, 3))
    assert record.outcome == "success"
    assert record.effects.prana_spent == -1
    failed = roll_dispel(DispelSpec(level=0, original_adversity=10), Scripted(3, 3, 3))
    assert failed.effects.prana_spent == 0


def test_crafting_spends_the_cost_or_half_of_it():
    rifle = CraftingSpec(level=4, prana_cost=6)
    assert rifle.adversity == 16
    made = roll_crafting(rifle, Scripted(5, 4, 4))
    assert made.result == 17
    assert made.outcome == "success"
    assert made.effects.prana_spent == 6
    spoilt = roll_crafting(rifle, Scripted(4, 4, 4))
    assert spoilt.result == 16
    assert spoilt.outcome == "failure"
    assert spoilt.effects.prana_spent == 3


@pytest.mark.parametrize(
    "spec",
    [
        ArcaneSpec(level=3, prana=4, gracias=1),
        DispelSpec(level=2, original_adversity=9),
        CraftingSpec(level=1, prana_cost=3),
        DivineSpec(faith=2, target=10),
    ],
)
def test_magic_specs_round_trip(spec):
    assert type(spec).from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


def test_rolls_use_only_the_injected_generator():
    spec = NdpSpec(level=3, gracias=1, desgracias=1, adversity=12)
    first = [roll_check(spec, random.Random(42)).to_dict() for _ in range(3)]
    assert first[0] == first[1] == first[2]


def test_default_generator_is_used_without_rng():
    assert roll_check(NdpSpec(level=1)).system == "ndp"
