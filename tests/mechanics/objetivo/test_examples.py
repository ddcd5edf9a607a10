"""The worked examples of seed 003 (docs/rules.md#objetivo-examples), one test each."""

import pytest

from mechanics.rules.errors import RuleError
from mechanics.rules.objetivo.catalogue import WEAPON_BY_KEY
from mechanics.rules.objetivo.health import ObjetivoHealth, status
from mechanics.rules.objetivo.odds import odds, target_pmf
from mechanics.rules.objetivo.rolls import (
    ObjetivoSpec,
    attribute_roll_spec,
    roll_attack,
    roll_check,
    roll_damage,
    target_die,
)
from mechanics.rules.objetivo.traits import attack_bonus, ranged_bonus, ranged_difficulty


def test_example_1_target_die_shifts(scripted):
    assert target_die((4, 8, 3), 0) == 4
    assert target_die((4, 8, 3), 1) == 8
    assert target_die((4, 8, 3), -1) == 3
    # Shifts add up and clamp to the highest / lowest die.
    assert target_die((4, 8, 3), 2) == 8
    assert target_die((4, 8, 3), -3) == 3
    assert roll_check(ObjetivoSpec(bonus=0), scripted(4, 8, 3)).kept == (4,)
    assert roll_check(ObjetivoSpec(bonus=0, specialization=True), scripted(4, 8, 3)).kept == (8,)
    assert roll_check(ObjetivoSpec(bonus=0, unskilled=True), scripted(4, 8, 3)).kept == (3,)


def test_example_2_explosion_then_14(scripted):
    rng = scripted(3, 10, 10, 3, 4, 7)
    record = roll_check(ObjetivoSpec(bonus=0), rng)
    assert rng.exhausted
    assert record.result == 14
    assert record.kept == (10, 4)
    assert "exploded" in record.flags
    assert [d.value for d in record.dice] == [3, 10, 10, 3, 4, 7]
    assert [d.tags for d in record.dice] == [
        ("dropped",),
        ("kept", "exploded"),
        ("dropped",),
        ("dropped", "explosion"),
        ("kept", "explosion"),
        ("dropped", "explosion"),
    ]
    assert record.details["throws"] == [[3, 10, 10], [3, 4, 7]]


def test_example_3_fuerza_8_attribute_roll_vs_25_needs_9(scripted):
    spec = attribute_roll_spec(8, difficulty=25)
    assert spec.bonus == 16
    for die in range(2, 11):
        record = roll_check(spec, scripted(die, die, die))
        assert record.succeeded == (die >= 9), die
        assert record.result == 16 + die  # attribute rolls do not explode
    pmf = target_pmf(0)
    assert odds(spec).p_success == pytest.approx(pmf[8] + pmf[9], abs=1e-15)


def test_example_4_critical_hit_doubles_sword_damage(scripted):
    sword = WEAPON_BY_KEY["espada"]
    rng = scripted(7, 10, 10, 6, 6, 8, 6)
    record = roll_attack(ObjetivoSpec(bonus=19), 24, sword.damage, rng)
    assert rng.exhausted
    assert record.result == 35
    assert record.outcome == "critical"
    assert record.details["hit"] is True
    assert "critical" in record.flags
    assert record.details["damage_roll"]["raw"] == 6
    assert record.effects.damage == 12
    assert record.dice[-1].tags == ("damage",)


def test_example_5_fred_bonuses(scripted):
    axe, revolver = WEAPON_BY_KEY["hacha"], WEAPON_BY_KEY["revolver"]
    assert axe.precision == -1
    assert attack_bonus(5, 6, axe.precision) == 10
    assert revolver.precision == 0
    bonus = ranged_bonus(8, 4, revolver.precision)
    assert bonus == 12
    medium = ranged_difficulty(50, revolver.ranges)
    assert medium == 20
    # 12 + die vs 20: an 8 hits, a 7 misses.
    hit = roll_attack(ObjetivoSpec(bonus=bonus), medium, revolver.damage, scripted(8, 8, 8, 3))
    assert hit.details["hit"]
    assert hit.effects.damage == 3
    miss = roll_attack(ObjetivoSpec(bonus=bonus), medium, revolver.damage, scripted(7, 7, 7))
    assert not miss.details["hit"]
    assert miss.effects.damage is None


def test_example_6_mandoble_exploding_damage(scripted):
    mandoble = WEAPON_BY_KEY["mandoble"]
    assert str(mandoble.damage) == "2d6"
    rng = scripted(3, 6, 6, 1)
    record = roll_damage(mandoble.damage.count, mandoble.damage.sides, 0, rng)
    assert rng.exhausted
    assert record.result == 16
    assert record.effects.damage == 16
    assert [d.value for d in record.dice] == [3, 6, 6, 1]
    assert [d.tags for d in record.dice] == [
        ("damage",),
        ("exploded", "damage"),
        ("exploded", "damage", "explosion"),
        ("damage", "explosion"),
    ]


def test_example_7_destiny_point_raises_target_die(scripted):
    wounded = status(ObjetivoHealth(max_pv=16, pv=7))
    assert wounded.name == "Incapacitado"
    assert wounded.level_shift == -1
    base = ObjetivoSpec(bonus=0, incapacitated=wounded.incapacitated, destiny_points=2)
    assert roll_check(base, scripted(3, 5, 6)).kept == (3,)
    spent = ObjetivoSpec(
        bonus=0, incapacitated=wounded.incapacitated, destiny_point=True, destiny_points=2
    )
    record = roll_check(spent, scripted(3, 5, 6))
    assert record.kept == (5,)
    assert record.effects.destiny_points_spent == 1
    # Ruiseñor's own example: a destiny point on (3,4,8) keeps the 8.
    assert roll_check(ObjetivoSpec(bonus=0, destiny_point=True), scripted(3, 4, 8)).kept == (8,)


def test_example_7_describes_a_wounded_player_an_unhurt_one_keeps_the_middle_die(scripted):
    # "Un jugador es herido y le quedan 7": the level down needs the wound (RULES section 4).
    unhurt = status(ObjetivoHealth(max_pv=7, pv=7))
    assert unhurt.name == "Sano"
    spec = ObjetivoSpec(bonus=0, incapacitated=unhurt.incapacitated)
    assert roll_check(spec, scripted(3, 5, 6)).kept == (5,)


def test_example_8_destiny_point_handed_back_lowers_target_die(scripted):
    rng = scripted(4, 10, 10)
    record = roll_check(ObjetivoSpec(bonus=0, destiny_returned=True), rng)
    assert rng.exhausted  # the kept 4 does not explode
    assert record.kept == (4,)
    assert record.result == 4
    assert record.details["destiny_penalty_consumed"] is True


def test_example_9_revolver_ranges():
    ranges = WEAPON_BY_KEY["revolver"].ranges
    assert ranges == (35, 60, 120)
    assert ranged_difficulty(30, ranges) == 15
    assert ranged_difficulty(50, ranges) == 20
    assert ranged_difficulty(100, ranges) == 25
    with pytest.raises(RuleError, match="beyond long range"):
        ranged_difficulty(130, ranges)
