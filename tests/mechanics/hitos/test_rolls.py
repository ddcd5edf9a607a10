import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.hitos.odds import odds
from mechanics.rules.hitos.rolls import (
    AspectActivation,
    HitosSpec,
    attack_damage,
    declare_fact,
    parse_weapon,
    roll_attack,
    roll_check,
    roll_initiative,
    roll_test,
    shift_category,
    sort_dice,
    spec_for_bonus,
)


def test_example_1_dice_sorting_critico_and_pifia(fixed_dice):
    assert sort_dice(3, 6, 7) == (3, 6, 7)
    assert sort_dice(7, 3, 6) == (3, 6, 7)
    assert sort_dice(2, 5, 5)[1] == 5
    spec = HitosSpec(characteristic=5, skill=3, difficulty=15)

    plain = roll_check(spec, fixed_dice(3, 6, 7))
    assert (plain.details["m"], plain.details["C"], plain.details["M"]) == (3, 6, 7)
    assert plain.kept == (6,)
    assert plain.result == 14

    assert roll_check(spec, fixed_dice(5, 2, 5)).kept == (5,)

    critico = roll_check(spec, fixed_dice(10, 10, 4))
    assert "critical" in critico.flags
    assert critico.outcome == "critical"
    assert critico.effects.temporary_aspect == "scene"

    pifia = roll_check(spec, fixed_dice(1, 1, 9))
    assert "fumble" in pifia.flags
    assert pifia.outcome == "dramatic_failure"
    assert pifia.effects.temporary_aspect == "scene"


def test_triple_ten_offers_a_temporary_aspect_for_the_session(fixed_dice):
    record = roll_check(HitosSpec(1, 0, 30), fixed_dice(10, 10, 10))
    assert record.flags[:2] == ("critical", "triple")
    assert record.effects.temporary_aspect == "session"
    # Crítico does not change success: 10 + 1 is not greater than 30.
    assert record.outcome == "failure"


def test_triple_one_is_a_session_long_pifia(fixed_dice):
    record = roll_check(HitosSpec(5, 5, 15), fixed_dice(1, 1, 1))
    assert record.outcome == "dramatic_failure"
    assert record.effects.temporary_aspect == "session"


def test_pifia_with_an_improved_roll_can_still_succeed(fixed_dice):
    record = roll_check(HitosSpec(5, 5, 15, improve=True), fixed_dice(1, 9, 1))
    assert record.kept == (9,)
    assert record.outcome == "success"
    assert "fumble" in record.flags


def test_success_needs_more_than_the_difficulty_unless_equal_succeeds(fixed_dice):
    assert roll_check(HitosSpec(5, 4, 15), fixed_dice(2, 6, 8)).outcome == "failure"
    equal = HitosSpec(5, 4, 15, equal_succeeds=True)
    assert roll_check(equal, fixed_dice(2, 6, 8)).outcome == "success"
    assert roll_check(HitosSpec(5, 4, 15), fixed_dice(2, 7, 8)).outcome == "success"


def test_improve_keeps_the_highest_and_hinder_the_lowest_die(fixed_dice):
    improved = roll_check(HitosSpec(4, 2, 15, improve=True), fixed_dice(8, 3, 5))
    assert improved.kept == (8,)
    assert improved.details["kept_die"] == "M"
    hindered = roll_check(HitosSpec(4, 2, 15, hinder=True), fixed_dice(8, 3, 5))
    assert hindered.kept == (3,)
    both = roll_check(HitosSpec(4, 2, 15, improve=True, hinder=True), fixed_dice(8, 3, 5))
    assert both.kept == (5,)


def test_the_kept_die_is_tagged_in_throw_order(fixed_dice):
    record = roll_check(HitosSpec(4, 2, 15), fixed_dice(8, 3, 5))
    assert [die.value for die in record.dice] == [8, 3, 5]
    assert [die.tags for die in record.dice] == [("dropped",), ("dropped",), ("kept",)]


def test_modifier_and_wound_penalty_add_to_the_result(fixed_dice):
    record = roll_check(HitosSpec(4, 2, 15, modifier=3, wound_penalty=-2), fixed_dice(5, 5, 5))
    assert record.result == 5 + 4 + 2 + 3 - 2


def test_activating_an_aspect_with_a_drama_point_spends_it(fixed_dice):
    activation = AspectActivation("Espadachín", drama_points=2)
    spec = HitosSpec(4, 2, 15, improve=True, activation=activation)
    record = roll_check(spec, fixed_dice(8, 3, 5))
    assert record.effects.drama_points_spent == 1
    assert record.effects.aspects_exhausted == ()
    assert record.details["drama_point_to_owner"] is False


def test_exhausting_an_own_aspect_costs_no_drama_point(fixed_dice):
    activation = AspectActivation("Espadachín", pay="exhaust")
    record = roll_check(
        HitosSpec(4, 2, 15, improve=True, activation=activation), fixed_dice(8, 3, 5)
    )
    assert record.effects.drama_points_spent == 0
    assert record.effects.aspects_exhausted == ("Espadachín",)


def test_using_another_characters_aspect_hands_them_the_drama_point():
    activation = AspectActivation("Cobarde", aspect_type="ajeno", drama_points=1)
    assert activation.hands_drama_point
    assert declare_fact(activation).drama_points_spent == 1


def test_activating_with_a_drama_point_needs_one_left():
    with pytest.raises(RuleError, match="no drama points left"):
        AspectActivation("Espadachín", drama_points=0)


def test_an_implicito_aspect_can_never_be_exhausted():
    with pytest.raises(RuleError, match="implícito"):
        AspectActivation("Humano", aspect_type="implicito", pay="exhaust")


def test_an_exhausted_aspect_cannot_be_exhausted_again():
    with pytest.raises(RuleError, match="already exhausted"):
        AspectActivation("Espadachín", pay="exhaust", exhausted=True)


def test_only_own_aspects_can_be_exhausted():
    with pytest.raises(RuleError, match="own"):
        AspectActivation("Noche cerrada", aspect_type="de_situacion", pay="exhaust")


def test_another_characters_exhausted_aspect_can_still_be_activated_against_them():
    activation = AspectActivation("Cobarde", aspect_type="ajeno", drama_points=1, exhausted=True)
    assert activation.effects().drama_points_spent == 1


def test_an_activation_on_a_roll_must_improve_it():
    with pytest.raises(RuleError, match="improve"):
        HitosSpec(4, 2, 15, activation=AspectActivation("Espadachín", drama_points=1))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"characteristic": 21}, "characteristic"),
        ({"skill": -1}, "skill"),
        ({"difficulty": 61}, "difficulty"),
        ({"modifier": 11}, "modifier out of range"),
        ({"wound_penalty": -6}, "wound penalty"),
        ({"wound_penalty": 2}, "wound penalty"),
    ],
)
def test_invalid_specs_are_refused_with_a_readable_message(kwargs, message):
    values = {"characteristic": 5, "skill": 3, "difficulty": 15, **kwargs}
    with pytest.raises(RuleError, match=message):
        HitosSpec(**values)


def test_spec_dict_round_trip():
    spec = HitosSpec(
        5, 3, 15, improve=True, activation=AspectActivation("Espadachín", drama_points=3)
    )
    assert HitosSpec.from_dict(spec.to_dict()) == spec
    assert hash(spec) == hash(HitosSpec.from_dict(spec.to_dict()))


def test_weapon_notation_parses_category_and_constant():
    category, constant = parse_weapon("C+1")
    assert (category.name, constant) == ("C", 1)
    category, constant = parse_weapon("m + C + M")
    assert (category.name, constant) == ("m+C+M", 0)
    assert parse_weapon("C+M-2")[0].name == "C+M"
    assert parse_weapon("menor_central")[0].name == "m+C"
    with pytest.raises(RuleError, match="unknown weapon"):
        parse_weapon("m+M")
    with pytest.raises(RuleError, match="unknown weapon"):
        parse_weapon("C+C")


def test_an_aspect_shifts_the_damage_category_one_step_and_stops_at_the_ends():
    category, _ = parse_weapon("M")
    assert shift_category(category, 1).name == "m+C"
    assert shift_category(category, -1).name == "C"
    assert shift_category(parse_weapon("m")[0], -1).name == "m"
    assert shift_category(parse_weapon("m+C+M")[0], 1).name == "m+C+M"


def test_damage_uses_the_highest_single_rd_and_is_never_negative():
    damage, _ = attack_damage((2, 5, 9), "C+1", damage_bonus=2, target_rd=[3, 2])
    assert damage == 5 + 1 + 2 - 3
    assert attack_damage((1, 1, 2), "m", target_rd=5)[0] == 0


def test_attack_damage_comes_from_the_same_dice(fixed_dice):
    # Reflejos 6 + Combate 4 vs Defensa 15; dice 7, 3, 9: C 7 → 17 hits.
    spec = HitosSpec(6, 4, 15)
    record = roll_attack(spec, "m+C", 1, damage_bonus=2, target_rd=(1, 3), rng=fixed_dice(7, 3, 9))
    assert record.kind == "attack"
    assert record.outcome == "success"
    assert record.effects.damage == 3 + 7 + 1 + 2 - 3
    assert record.details["damage_category"] == "m+C"


def test_an_aspect_on_the_damage_moves_the_attack_category(fixed_dice):
    spec = HitosSpec(6, 4, 15)
    record = roll_attack(spec, "C", damage_shift=1, rng=fixed_dice(7, 3, 9))
    assert record.details["damage_category"] == "M"
    assert record.effects.damage == 9


def test_an_aspect_activated_for_the_damage_raises_it_one_step_and_costs_its_price(fixed_dice):
    spec = HitosSpec(6, 4, 15)
    paid = AspectActivation("Brazo de hierro", pay="drama_point", drama_points=2)
    record = roll_attack(spec, "C", rng=fixed_dice(7, 3, 9), damage_activation=paid)
    assert record.details["damage_category"] == "M"
    assert record.effects.damage == 9
    assert record.effects.drama_points_spent == 1
    assert record.details["damage_activation"]["aspect"] == "Brazo de hierro"
    # The target's aspect against the damage takes the step back.
    record = roll_attack(
        spec, "C", damage_shift=-1, rng=fixed_dice(7, 3, 9), damage_activation=paid
    )
    assert record.details["damage_category"] == "C"
    exhausted = AspectActivation("Brazo de hierro", pay="exhaust")
    record = roll_attack(spec, "C", rng=fixed_dice(7, 3, 9), damage_activation=exhausted)
    assert record.effects.aspects_exhausted == ("Brazo de hierro",)
    assert record.effects.drama_points_spent == 0
    # Another character's aspect used against them hands them the point.
    theirs = AspectActivation("Cojo", aspect_type="ajeno", drama_points=1)
    record = roll_attack(spec, "C", rng=fixed_dice(7, 3, 9), damage_activation=theirs)
    assert record.details["drama_point_to_owner"]


def test_the_attacker_activates_one_aspect_for_the_roll_or_the_damage(fixed_dice):
    paid = AspectActivation("Brazo de hierro", drama_points=2)
    spec = HitosSpec(6, 4, 15, improve=True, activation=paid)
    with pytest.raises(RuleError):
        roll_attack(spec, "C", rng=fixed_dice(7, 3, 9), damage_activation=paid)


def test_a_missed_attack_records_no_damage(fixed_dice):
    record = roll_attack(HitosSpec(2, 1, 15), "m+C+M", rng=fixed_dice(7, 3, 9))
    assert record.outcome == "failure"
    assert record.effects.damage is None


def test_a_critical_hit_gives_the_target_a_secuela(fixed_dice):
    record = roll_attack(HitosSpec(6, 4, 15), "C", rng=fixed_dice(10, 10, 10))
    assert record.details["secuela"] == "session"
    assert record.effects.damage == 10


def test_initiative_adds_c_to_reflejos_and_half_intelecto(fixed_dice):
    record = roll_initiative(6, 5, rng=fixed_dice(2, 8, 4))
    assert record.result == 6 + 2 + 4
    assert record.kind == "initiative"
    assert roll_initiative(6, 5, -2, rng=fixed_dice(2, 8, 4)).result == 10


def test_roll_test_is_base_plus_kept_die(fixed_dice):
    record = roll_test("massive_damage", 5, 12, fixed_dice(8, 7, 1))
    assert record.result == 12
    assert record.outcome == "failure"


@given(
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(-20, 60),
    st.integers(-1, 1),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_a_roll_result_is_always_in_the_support_of_the_exact_odds(
    characteristic, skill, difficulty, shift, equal, seed
):
    import random

    spec = HitosSpec(
        characteristic,
        skill,
        difficulty,
        improve=shift == 1,
        hinder=shift == -1,
        equal_succeeds=equal,
    )
    record = roll_check(spec, random.Random(seed))
    assert record.result in odds(spec).distribution
    assert record.result == record.kept[0] + characteristic + skill
    assert record.succeeded == (
        record.result > difficulty or (equal and record.result == difficulty)
    )


def test_spec_for_bonus_splits_the_bonus():
    spec = spec_for_bonus(14, 20, 1)
    assert (spec.characteristic, spec.skill, spec.improve) == (10, 4, True)
    with pytest.raises(RuleError, match="shift"):
        spec_for_bonus(4, 15, 2)
