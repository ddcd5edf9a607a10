"""Pools, rolls and their records for Mundo de Tinieblas."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas import health as hp
from mechanics.rules.tinieblas.rolls import (
    CANNOT_ACT,
    LABEL_ATTRIBUTE,
    LABEL_EXTRA_DICE,
    LABEL_MODIFIER,
    LABEL_RETRY,
    LABEL_SKILL,
    LABEL_TEAMWORK,
    LABEL_UNSKILLED_MENTAL,
    LABEL_UNSKILLED_OTHER,
    LABEL_WILLPOWER_DICE,
    LABEL_WILLPOWER_RESISTANCE,
    PoolSpec,
    grade,
    pool_breakdown,
    roll_dice,
    roll_extended,
    roll_opposed,
    roll_pool,
    roll_teamwork,
)


class ScriptedRng:
    """Returns the given d10 faces in order and fails if asked for more."""

    def __init__(self, values):
        self.values = list(values)

    def randint(self, a, b):
        assert (a, b) == (1, 10)
        assert self.values, "the roll asked for more dice than scripted"
        return self.values.pop(0)


def final_pool(spec):
    return pool_breakdown(spec)[0]


# --- Worked examples of seed 000 (docs/rules.md#tinieblas-examples) ----------------------


def test_example_1_sculptor_pool():
    # Destreza 3 + Pericias 2 = 5; +1 chisel, +1 studio, −1 hard stone.
    spec = PoolSpec(attribute=3, skill=2, skill_category="mental", modifiers=(1, 1, -1))
    pool, steps = pool_breakdown(spec)
    assert pool == 6
    assert steps == (
        (LABEL_ATTRIBUTE, 3),
        (LABEL_SKILL, 2),
        (LABEL_MODIFIER, 1),
        (LABEL_MODIFIER, 1),
        (LABEL_MODIFIER, -1),
    )


def test_example_2_bar_fight_punch():
    # Destreza + Pelea = 6, minus the barman's Defensa 2: 4 dice, 2 successes, 2 B.
    spec = PoolSpec(
        attribute=3, attribute_key="destreza", skill=3, skill_category="physical", extra_dice=-2
    )
    assert final_pool(spec) == 4
    record = roll_pool(spec, ScriptedRng([9, 3, 8, 5]))
    assert record.result == 2
    assert record.outcome == "marginal"
    barman = hp.apply(hp.HealthTrack(boxes=9), "B", record.result)
    assert hp.render(barman) == "BB......."
    # Nine boxes: the first two have no name and no penalty ("no supone un problema").
    assert hp.state_name(barman) is None
    assert hp.penalty(barman) == 0


def test_example_3_bar_fight_knife():
    # Fuerza 2 + Armamento 2 − Defensa 2 + 1 knife = 3 dice, +3 Willpower = 6 dice.
    spec = PoolSpec(
        attribute=2,
        attribute_key="fuerza",
        skill=2,
        skill_category="physical",
        modifiers=(1,),
        extra_dice=-2,
        willpower="dice",
        willpower_pool=4,
    )
    pool, steps = pool_breakdown(spec)
    assert pool - 3 == 3
    assert pool == 6
    assert steps[-1] == (LABEL_WILLPOWER_DICE, 3)
    assert (LABEL_EXTRA_DICE, -2) in steps
    record = roll_pool(spec, ScriptedRng([8, 2, 4, 9, 6, 1]))
    assert len(record.dice) == 6
    assert record.result == 2
    assert record.effects.willpower_spent == 1
    barman = hp.apply(hp.HealthTrack(boxes=9, marks="BB"), "L", record.result)
    assert hp.render(barman) == "LLBB....."
    # "Tiene 4 niveles y aun no pasa a estar lesionado."
    assert hp.state_name(barman) == "Lastimado"


def test_example_4_bar_fight_bat():
    # Fuerza 4 + Armamento 3 − Defensa 2 + 1 bat = 6, +3 Willpower = 9 dice.
    spec = PoolSpec(
        attribute=4,
        attribute_key="fuerza",
        skill=3,
        skill_category="physical",
        modifiers=(1,),
        extra_dice=-2,
        willpower="dice",
        willpower_pool=3,
    )
    assert final_pool(spec) == 9
    # Nine dice with two 10s (each rolled again: 9 and 3) and 5 successes in all.
    record = roll_pool(spec, ScriptedRng([10, 4, 10, 2, 8, 9, 1, 6, 7, 9, 3]))
    values = [die.value for die in record.dice]
    assert values.count(10) == 2
    assert len(record.dice) == 11
    assert [die for die in record.dice if "explosion" in die.tags] == list(record.dice[9:])
    assert record.result == 5
    assert record.outcome == "exceptional"
    assert "exploded" in record.flags


# --- Pool building ------------------------------------------------------------------------


def test_unskilled_mental_roll_loses_three_dice():
    spec = PoolSpec(attribute=3, skill=0, skill_category="mental")
    assert pool_breakdown(spec) == (
        0,
        ((LABEL_ATTRIBUTE, 3), (LABEL_SKILL, 0), (LABEL_UNSKILLED_MENTAL, -3)),
    )


def test_unskilled_physical_or_social_roll_loses_one_die():
    for category in ("physical", "social"):
        spec = PoolSpec(attribute=3, skill=0, skill_category=category)
        pool, steps = pool_breakdown(spec)
        assert pool == 2
        assert steps[-1] == (LABEL_UNSKILLED_OTHER, -1)


def test_unskilled_penalty_setting_off_keeps_the_attribute_dice():
    spec = PoolSpec(attribute=3, skill=0, skill_category="mental", unskilled_penalty=False)
    assert final_pool(spec) == 3


def test_roll_without_a_skill_has_no_unskilled_penalty():
    assert final_pool(PoolSpec(attribute=3)) == 3


def test_specialty_adds_one_die_and_needs_a_skill_dot():
    assert final_pool(PoolSpec(attribute=2, skill=1, skill_category="social", specialty=True)) == 4
    with pytest.raises(RuleError, match="specialty"):
        PoolSpec(attribute=2, skill=0, skill_category="social", specialty=True)


@pytest.mark.parametrize("modifier", [6, -6, 10])
def test_modifier_beyond_five_is_refused(modifier):
    with pytest.raises(RuleError, match="modifier out of range ±5"):
        PoolSpec(attribute=2, modifiers=(modifier,))


def test_modifiers_of_five_either_way_are_accepted():
    assert final_pool(PoolSpec(attribute=2, modifiers=(5, -5, -3))) == -1


def test_willpower_for_dice_adds_three_and_is_spent():
    spec = PoolSpec(attribute=2, willpower="dice", willpower_pool=1)
    assert final_pool(spec) == 5
    assert roll_pool(spec, random.Random(1)).effects.willpower_spent == 1


def test_willpower_is_refused_with_an_empty_pool():
    with pytest.raises(RuleError, match="no willpower left"):
        PoolSpec(attribute=2, willpower="dice", willpower_pool=0)


def test_willpower_on_a_resistance_attribute_adds_two():
    spec = PoolSpec(
        attribute=3, attribute_key="compostura", willpower="resistance", willpower_pool=2
    )
    pool, steps = pool_breakdown(spec)
    assert pool == 5
    assert steps[1] == (LABEL_WILLPOWER_RESISTANCE, 2)


def test_willpower_resistance_bonus_is_refused_on_other_attributes():
    with pytest.raises(RuleError, match="Aplomo, Resistencia or Compostura"):
        PoolSpec(attribute=3, attribute_key="fuerza", willpower="resistance", willpower_pool=2)


def test_unknown_willpower_use_is_refused():
    with pytest.raises(RuleError):
        PoolSpec(attribute=3, willpower="both", willpower_pool=2)


def test_each_earlier_failed_attempt_removes_a_die_after_modifiers():
    spec = PoolSpec(attribute=3, skill=2, skill_category="physical", modifiers=(2,), attempts=2)
    pool, steps = pool_breakdown(spec)
    assert pool == 5
    assert steps[-1] == (LABEL_RETRY, -2)


def test_wound_penalty_lowers_the_pool():
    assert (
        final_pool(PoolSpec(attribute=3, skill=2, skill_category="social", wound_penalty=-2)) == 3
    )


def test_incapacitated_character_cannot_roll():
    with pytest.raises(RuleError, match="cannot act"):
        PoolSpec(attribute=3, wound_penalty=CANNOT_ACT)


def test_track_penalty_feeds_the_spec():
    track = hp.apply(hp.HealthTrack(), "L", 4)
    spec = PoolSpec(
        attribute=3, skill=2, skill_category="mental", wound_penalty=hp.pool_wound_penalty(track)
    )
    assert final_pool(spec) == 3


@pytest.mark.parametrize("again", [7, 11, 0, True])
def test_again_must_be_ten_nine_eight_or_none(again):
    with pytest.raises(RuleError, match="again"):
        PoolSpec(attribute=2, again=again)


# --- Throwing -----------------------------------------------------------------------------


def test_grades_follow_the_seed():
    assert [grade(n) for n in range(7)] == [
        "failure",
        "marginal",
        "marginal",
        "success",
        "success",
        "exceptional",
        "exceptional",
    ]
    assert grade(0, dramatic_failure=True) == "dramatic_failure"


def test_eight_nine_and_ten_succeed():
    record = roll_dice(5, again=None, rng=ScriptedRng([7, 8, 9, 10, 1]))
    assert record.result == 3
    assert [("success" in die.tags) for die in record.dice] == [False, True, True, True, False]


def test_ten_again_chains_while_tens_keep_coming():
    record = roll_dice(2, rng=ScriptedRng([10, 3, 10, 10, 4]))
    assert [die.value for die in record.dice] == [10, 3, 10, 10, 4]
    assert record.result == 3
    assert [die.tags[0] for die in record.dice[2:]] == ["explosion"] * 3


def test_eight_again_explodes_on_eight_and_nine_too():
    record = roll_dice(3, again=8, rng=ScriptedRng([8, 9, 2, 1, 3]))
    assert record.result == 2
    assert len(record.dice) == 5


def test_no_again_never_adds_dice():
    record = roll_dice(3, again=None, rng=ScriptedRng([10, 10, 10]))
    assert record.result == 3
    assert "exploded" not in record.flags


def test_rote_rerolls_each_failed_die_of_the_first_throw_once():
    # First throw 3, 10, 5; rerolls: 3 -> 9; 10 explodes -> 2 (not rerolled); 5 -> 4.
    record = roll_dice(3, rote=True, rng=ScriptedRng([3, 10, 5, 9, 2, 4]))
    assert [die.value for die in record.dice] == [3, 10, 5, 9, 2, 4]
    assert [die.tags for die in record.dice] == [
        ("dropped",),
        ("success", "exploded", "kept"),
        ("dropped",),
        ("reroll", "success", "kept"),
        ("explosion", "kept"),
        ("reroll", "kept"),
    ]
    assert record.kept == (1, 3, 4, 5)
    assert record.result == 2


def test_rote_reroll_can_trigger_the_again():
    record = roll_dice(1, rote=True, rng=ScriptedRng([2, 10, 8]))
    assert record.result == 2
    assert [die.value for die in record.dice] == [2, 10, 8]


def test_chance_die_one_is_a_dramatic_failure():
    record = roll_pool(PoolSpec(attribute=1, modifiers=(-2,)), ScriptedRng([1]))
    assert record.outcome == "dramatic_failure"
    assert record.result == 0
    assert record.details["chance_die"] is True
    assert "chance_die" in record.flags
    assert record.dice[0].tags[0] == "chance"


def test_chance_die_succeeds_on_eight_to_ten_with_ten_again():
    assert roll_dice(0, rng=ScriptedRng([8])).outcome == "marginal"
    record = roll_dice(-3, again=8, rng=ScriptedRng([10, 9]))
    assert record.result == 2
    # The chance die only explodes on 10, whatever the spec's again option.
    assert roll_dice(0, again=8, rng=ScriptedRng([9])).result == 1
    assert roll_dice(0, rng=ScriptedRng([5])).outcome == "failure"


def test_record_lists_every_die_and_is_json():
    spec = PoolSpec(attribute=3, skill=2, skill_category="physical", rote=True, again=8)
    record = roll_pool(spec, random.Random(7))
    data = json.loads(json.dumps(record.to_dict()))
    assert data["system"] == "tinieblas"
    assert data["kind"] == "pool"
    assert data["spec"] == spec.to_dict()
    assert data["details"]["pool"] == 5
    assert data["details"]["breakdown"][0] == {"label": "Attribute", "delta": 3}
    successes = sum(1 for i in record.kept if record.dice[i].value >= 8)
    assert successes == record.result


def test_default_random_source_is_used_without_an_rng():
    record = roll_pool(PoolSpec(attribute=3))
    assert record.details["pool"] == 3
    assert len(record.dice) >= 3


def test_roll_dice_refuses_absurd_pools():
    with pytest.raises(RuleError):
        roll_dice(1000)


# --- Extended, opposed, teamwork ----------------------------------------------------------


def test_extended_roll_accumulates_progress_toward_the_target():
    spec = PoolSpec(attribute=3)
    first = roll_extended(spec, target=5, progress=0, rolls_made=0, rng=ScriptedRng([8, 9, 2]))
    assert first.kind == "extended"
    assert first.details["progress"] == 2
    assert first.details["rolls_made"] == 1
    assert first.details["done"] is False
    second = roll_extended(spec, target=5, progress=2, rolls_made=1, rng=ScriptedRng([10, 9, 8, 3]))
    assert second.details["progress"] == 5
    assert second.details["reached"] is True
    assert second.details["done"] is True
    assert "reached" in second.flags


def test_extended_roll_stops_at_the_cap():
    spec = PoolSpec(attribute=2)
    record = roll_extended(
        spec, target=7, progress=3, rolls_made=4, max_rolls=5, rng=ScriptedRng([8, 1])
    )
    assert record.details["progress"] == 4
    assert record.details["reached"] is False
    assert record.details["done"] is True
    with pytest.raises(RuleError, match="no rolls left"):
        roll_extended(spec, target=7, progress=4, rolls_made=5, max_rolls=5)


def test_extended_roll_ends_on_a_dramatic_failure():
    spec = PoolSpec(attribute=1, modifiers=(-1,))
    record = roll_extended(spec, target=5, progress=3, rolls_made=2, rng=ScriptedRng([1]))
    assert record.outcome == "dramatic_failure"
    assert record.details["progress"] == 3
    assert record.details["done"] is True


def test_extended_roll_refuses_a_finished_action():
    with pytest.raises(RuleError, match="already complete"):
        roll_extended(PoolSpec(attribute=2), target=5, progress=5, rolls_made=3)


def test_opposed_roll_more_successes_wins_and_equal_ties():
    a = PoolSpec(attribute=2)
    b = PoolSpec(attribute=2)
    win = roll_opposed(a, b, ScriptedRng([8, 9, 8, 1]))
    assert win.outcome == "a_wins"
    assert (win.details["successes_a"], win.details["successes_b"]) == (2, 1)
    assert win.details["split"] == 2
    assert len(win.dice) == 4
    assert roll_opposed(a, b, ScriptedRng([8, 1, 2, 9])).outcome == "tie"
    assert roll_opposed(a, b, ScriptedRng([1, 1, 2, 9])).outcome == "b_wins"


def test_teamwork_adds_one_die_per_helper_success():
    main = PoolSpec(attribute=2)
    helpers = [PoolSpec(attribute=2), PoolSpec(attribute=1)]
    # Helpers: 8, 9 (2 successes) and 10 -> 3 (1 success); main rolls 2 + 3 = 5 dice.
    record = roll_teamwork(main, helpers, ScriptedRng([8, 9, 10, 3, 8, 1, 1, 1, 1]))
    assert record.details["helper_successes"] == [2, 1]
    assert record.details["bonus"] == 3
    assert record.details["pool"] == 5
    assert record.details["breakdown"][-1] == {"label": LABEL_TEAMWORK, "delta": 3}
    assert record.result == 1
    assert record.details["split"] == 4
    assert record.kept == (4, 5, 6, 7, 8)


def test_teamwork_can_lift_a_chance_die_into_a_pool():
    main = PoolSpec(attribute=1, modifiers=(-2,))
    record = roll_teamwork(main, [PoolSpec(attribute=1)], ScriptedRng([9, 8]))
    assert record.details["pool"] == 0
    assert record.details["chance_die"] is True
    record = roll_teamwork(main, [PoolSpec(attribute=2)], ScriptedRng([9, 8, 8, 8]))
    assert record.details["pool"] == 1
    assert record.result == 1


# --- Properties ---------------------------------------------------------------------------

specs = st.builds(
    PoolSpec,
    attribute=st.integers(0, 10),
    skill=st.integers(1, 10),
    skill_category=st.sampled_from(["mental", "physical", "social"]),
    attribute_key=st.sampled_from([None, "fuerza", "compostura"]),
    specialty=st.booleans(),
    modifiers=st.lists(st.integers(-5, 5).filter(bool), max_size=4).map(tuple),
    extra_dice=st.integers(-5, 5),
    again=st.sampled_from([10, 9, 8, None]),
    rote=st.booleans(),
    attempts=st.integers(0, 3),
    wound_penalty=st.sampled_from([0, -1, -2, -5]),
)


@given(specs)
def test_spec_json_round_trip_is_identity(spec):
    assert PoolSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


@given(specs, st.integers(0, 2**32))
def test_roll_counts_successes_among_kept_dice(spec, seed):
    record = roll_pool(spec, random.Random(seed))
    counted = sum(1 for i in record.kept if record.dice[i].value >= 8)
    assert counted == record.result
    pool = pool_breakdown(spec)[0]
    first_throw = [d for d in record.dice if not {"explosion", "reroll"} & set(d.tags)]
    assert len(first_throw) == max(pool, 1)


def test_modifiers_adding_up_beyond_five_are_held_to_five_either_way():
    assert final_pool(PoolSpec(attribute=3, modifiers=(4, 3))) == 8
    assert final_pool(PoolSpec(attribute=3, modifiers=(-4, -3, -2))) == -2
    assert final_pool(PoolSpec(attribute=3, modifiers=(5, 2, -1))) == 8
