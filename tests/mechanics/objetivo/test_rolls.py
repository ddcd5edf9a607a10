import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanics.rules.catalogue import slug
from mechanics.rules.dice import RollRecord
from mechanics.rules.errors import RuleError
from mechanics.rules.objetivo.catalogue import DamageDice
from mechanics.rules.objetivo.odds import odds
from mechanics.rules.objetivo.rolls import (
    ObjetivoSpec,
    attribute_roll_spec,
    check_damage,
    roll_attack,
    roll_check,
    roll_damage,
    roll_initiative,
    roll_opposed,
    target_die,
)


def test_natural_one_always_fails_a_skill_roll(scripted):
    record = roll_check(ObjetivoSpec(bonus=30, difficulty=10), scripted(1, 1, 9))
    assert record.result == 31
    assert record.outcome == "failure"
    assert "natural_one" in record.flags
    assert "critical" not in record.flags


def test_natural_one_does_not_fail_an_attribute_roll(scripted):
    record = roll_check(attribute_roll_spec(8, difficulty=15), scripted(1, 1, 9))
    assert record.outcome == "success"
    assert "natural_one" not in record.flags


def test_three_ones_are_a_pifia_even_on_an_attribute_roll(scripted):
    record = roll_check(attribute_roll_spec(10, difficulty=15), scripted(1, 1, 1))
    assert record.result == 21
    assert record.outcome == "dramatic_failure"
    assert "fumble" in record.flags
    skill = roll_check(ObjetivoSpec(bonus=5, difficulty=5, shift=1), scripted(1, 1, 1))
    assert skill.outcome == "dramatic_failure"


def test_attribute_rolls_do_not_explode(scripted):
    rng = scripted(10, 10, 2)
    record = roll_check(attribute_roll_spec(5), rng)
    assert rng.exhausted
    assert record.result == 20
    assert "exploded" not in record.flags


def test_explosion_keeps_the_same_shifts_and_may_chain(scripted):
    rng = scripted(1, 2, 10, 3, 10, 4, 9, 5, 1)
    record = roll_check(ObjetivoSpec(bonus=2, shift=1), rng)
    assert rng.exhausted
    assert record.kept == (10, 10, 9)
    assert record.result == 31
    assert record.outcome == "critical"


def test_a_one_after_an_explosion_is_not_a_natural_one(scripted):
    record = roll_check(ObjetivoSpec(bonus=0, difficulty=10), scripted(10, 10, 10, 1, 1, 2))
    assert record.result == 11
    assert record.outcome == "success"
    assert "natural_one" not in record.flags


def test_equal_to_the_difficulty_succeeds_and_thirty_is_a_critico(scripted):
    assert roll_check(ObjetivoSpec(bonus=10, difficulty=15), scripted(5, 5, 5)).outcome == "success"
    assert roll_check(ObjetivoSpec(bonus=10, difficulty=16), scripted(5, 5, 5)).outcome == "failure"
    crit = roll_check(ObjetivoSpec(bonus=21, difficulty=25), scripted(9, 9, 9))
    assert crit.outcome == "critical"
    assert crit.succeeded


def test_a_total_of_thirty_below_a_higher_difficulty_is_no_critico(scripted):
    record = roll_check(ObjetivoSpec(bonus=21, difficulty=35), scripted(9, 9, 9))
    assert record.outcome == "failure"


def test_open_roll_without_difficulty_is_rolled(scripted):
    assert roll_check(ObjetivoSpec(bonus=3), scripted(2, 5, 7)).outcome == "rolled"


def test_specialization_keeps_the_highest_and_is_spent(scripted):
    record = roll_check(ObjetivoSpec(bonus=0, specialization=True), scripted(2, 5, 7))
    assert record.kept == (7,)
    assert record.effects.specialization_used is True


def test_specialization_already_used_this_scene_is_refused():
    with pytest.raises(RuleError, match="specialization already used this scene"):
        ObjetivoSpec(bonus=5, specialization=True, specialization_used_this_scene=True)


def test_spending_a_destiny_point_at_zero_is_refused():
    with pytest.raises(RuleError, match="no destiny points left"):
        ObjetivoSpec(bonus=5, destiny_point=True, destiny_points=0)


def test_shifts_add_up_and_clamp():
    spec = ObjetivoSpec(bonus=0, unskilled=True, incapacitated=True, destiny_point=True)
    assert spec.level == -1
    assert ObjetivoSpec(bonus=0, unskilled=True, incapacitated=True).level == -1
    assert ObjetivoSpec(bonus=0, specialization=True, destiny_point=True).level == 1
    assert ObjetivoSpec(bonus=0, destiny_point=True, destiny_returned=True).level == 0
    assert ObjetivoSpec(bonus=0, shift=2, unskilled=True).level == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bonus": 51}, "bonus out of range"),
        ({"bonus": 5, "difficulty": 0}, "difficulty out of range"),
        ({"bonus": 5, "shift": 3}, "level shift out of range"),
        ({"bonus": 5, "attribute_roll": True, "unskilled": True}, "uses no skill"),
        ({"bonus": 5, "attribute_roll": True, "specialization": True}, "specialization"),
        ({"bonus": 5, "attribute": 4}, "attribute rating"),
        ({"bonus": 5, "destiny_points": -1}, "cannot be negative"),
        ({"bonus": True}, "bonus out of range"),
    ],
)
def test_invalid_specs_raise_rule_errors(kwargs, message):
    with pytest.raises(RuleError, match=message):
        ObjetivoSpec(**kwargs)


def test_target_die_refuses_a_throw_that_is_not_three_d10():
    with pytest.raises(RuleError):
        target_die((1, 2))
    with pytest.raises(RuleError):
        target_die((1, 2, 11))


def test_opposed_higher_total_wins_and_equal_is_a_tie(scripted):
    poker = ObjetivoSpec(bonus=10)
    win = roll_opposed(poker, ObjetivoSpec(bonus=9), scripted(5, 5, 5, 5, 5, 5))
    assert win.outcome == "success"
    assert win.result == 1
    assert [d.tags[-1] for d in win.dice[3:]] == ["opponent"] * 3
    tie = roll_opposed(poker, ObjetivoSpec(bonus=10), scripted(5, 5, 5, 5, 5, 5))
    assert tie.outcome == "tie"
    loss = roll_opposed(poker, ObjetivoSpec(bonus=12), scripted(5, 5, 5, 5, 5, 5))
    assert loss.outcome == "failure"
    assert loss.details["opponent"]["total"] == 17


def test_opposed_natural_one_loses_whatever_the_totals(scripted):
    record = roll_opposed(ObjetivoSpec(bonus=20), ObjetivoSpec(bonus=0), scripted(1, 1, 5, 3, 3, 3))
    assert record.result == 18
    assert record.outcome == "failure"
    both = roll_opposed(ObjetivoSpec(bonus=20), ObjetivoSpec(bonus=0), scripted(1, 1, 5, 1, 1, 2))
    assert both.outcome == "tie"


def test_opposed_rolls_explode(scripted):
    rng = scripted(10, 10, 10, 2, 3, 4, 9, 9, 9)
    record = roll_opposed(ObjetivoSpec(bonus=5), ObjetivoSpec(bonus=8), rng)
    assert rng.exhausted
    assert record.details["actor"]["total"] == 18
    assert record.outcome == "success"


def test_opposed_rolls_have_no_fixed_difficulty():
    with pytest.raises(RuleError, match="no fixed difficulty"):
        roll_opposed(ObjetivoSpec(bonus=5, difficulty=10), ObjetivoSpec(bonus=5))


def test_attack_misses_on_a_natural_one_and_rolls_no_damage(scripted):
    rng = scripted(1, 1, 10)
    record = roll_attack(ObjetivoSpec(bonus=40), 10, DamageDice(1, 10), rng)
    assert rng.exhausted
    assert record.outcome == "failure"
    assert record.effects.damage is None


def test_pelea_damage_is_never_negative(scripted):
    record = roll_damage(1, 6, -2, scripted(1))
    assert record.result == 0
    assert record.effects.damage == 0
    crit = roll_attack(ObjetivoSpec(bonus=25), 10, DamageDice(1, 6, -2), scripted(5, 5, 5, 4))
    assert crit.outcome == "critical"
    assert crit.effects.damage == 4


def test_attack_refuses_an_attribute_roll_or_a_conflicting_difficulty():
    with pytest.raises(RuleError):
        roll_attack(attribute_roll_spec(5), 15, DamageDice(1, 10))
    with pytest.raises(RuleError, match="Defensa"):
        roll_attack(ObjetivoSpec(bonus=5, difficulty=12), 15, DamageDice(1, 10))


@pytest.mark.parametrize(("count", "sides", "modifier"), [(0, 6, 0), (1, 1, 0), (1, 6, 21)])
def test_invalid_damage_dice_are_refused(count, sides, modifier):
    with pytest.raises(RuleError):
        roll_damage(count, sides, modifier)


@pytest.mark.parametrize(
    ("damage", "wrong"),
    [
        (DamageDice(999, 999), "«999d999» is too large"),
        (DamageDice(21, 6), "«21d6» is too large"),
        (DamageDice(1, 101, 3), "«1d101» is too large"),
        (DamageDice(1, 0), "«1d0» is not a valid roll of dice"),
        (DamageDice(0, 6), "«0d6» is not a valid roll of dice"),
        (DamageDice(1, 6, -21), "damage bonus or penalty is too large"),
    ],
)
def test_damage_dice_say_whether_they_are_too_large_or_no_dice(damage, wrong):
    with pytest.raises(RuleError, match=wrong):
        check_damage(damage)
    with pytest.raises(RuleError, match=wrong):
        roll_damage(damage.count, damage.sides, damage.modifier)


def test_the_largest_damage_dice_are_rolled():
    check_damage(DamageDice(20, 100, -20))
    assert roll_damage(20, 100, 20, random.Random(1)).effects.damage > 20


def test_initiative_adds_the_target_die_and_explodes(scripted):
    rng = scripted(10, 10, 4, 2, 3, 8)
    record = roll_initiative(ObjetivoSpec(bonus=12), rng)
    assert record.result == 25
    assert record.outcome == "rolled"
    with pytest.raises(RuleError):
        roll_initiative(ObjetivoSpec(bonus=12, difficulty=10))


def test_rolls_work_with_the_default_cryptographic_source():
    record = roll_check(ObjetivoSpec(bonus=5, difficulty=15))
    assert isinstance(record, RollRecord)
    assert record.result >= 6


def test_record_serialises_to_plain_json_types():
    import json

    record = roll_attack(ObjetivoSpec(bonus=15), 15, DamageDice(2, 6), random.Random(4))
    assert json.loads(json.dumps(record.to_dict()))["system"] == "objetivo"


def test_slugs_are_the_catalogue_keys():
    assert slug("Juegos de azar") == "juegos_de_azar"


spec_strategy = st.builds(
    ObjetivoSpec,
    bonus=st.integers(-20, 50),
    difficulty=st.one_of(st.none(), st.integers(1, 100)),
    shift=st.integers(-2, 2),
    attribute_roll=st.booleans(),
    destiny_point=st.booleans(),
    destiny_returned=st.booleans(),
    incapacitated=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(spec=spec_strategy, seed=st.integers(0, 2**32))
def test_every_rolled_total_is_possible_and_graded_consistently(spec, seed):
    record = roll_check(spec, random.Random(seed))
    assert odds(spec).distribution.get(record.result, 0.0) > 0
    assert record.result == spec.bonus + sum(record.kept)
    if spec.difficulty is not None and record.result < spec.difficulty:
        assert not record.succeeded
    if record.outcome == "critical":
        assert record.result >= 30
    kept = [d for d in record.dice if "kept" in d.tags]
    assert tuple(d.value for d in kept) == record.kept
    assert len(record.dice) == 3 * len(record.kept)
