import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.ndp.equipment import (
    ArmourPiece,
    Item,
    LoadState,
    Shield,
    Weapon,
    check_faith,
    extra_prana,
    leash_wounds,
    load_desgracias,
    load_state,
    max_deities,
    max_faith_per_deity,
    max_gestures,
    max_load,
    max_prana,
    max_summons,
    regenerate_prana,
    total_weight,
)
from mechanics.rules.ndp.rolls import roll_damage


class Scripted:
    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def test_load_within_the_maximum_has_no_penalty():
    load = load_state(20, 0)
    assert (load.overloaded, load.speed_factor, load.athletic_desgracias) == (False, 1.0, 0)


def test_just_over_the_maximum_halves_speed_without_desgracia():
    load = load_state(39.5, 3)
    assert load.overloaded
    assert load.speed_factor == 0.5
    assert load.athletic_desgracias == 0


def test_one_desgracia_per_full_5_kg_over():
    assert [load_state(w, 3).athletic_desgracias for w in (40, 44.9, 45, 50, 69)] == [1, 1, 2, 3, 6]
    assert load_state(40.1 + 4.9, 3).athletic_desgracias == 2


def test_twice_the_maximum_cannot_move_and_hurts_the_legs():
    load = load_state(70, 3)
    assert load.immobile
    assert load.speed_factor == 0.0
    assert load.leg_wounds_per_turn == ("pierna_izquierda", "pierna_derecha")
    assert load.athletic_desgracias == 7
    assert not load_state(69.9, 3).immobile


def test_load_only_burdens_athletic_skills():
    load = load_state(50, 0)
    assert load_desgracias(load, "nadar") == 6
    assert load_desgracias(load, "voluntad") == 0
    with pytest.raises(RuleError):
        load_desgracias(load, "volar")


def test_invalid_weights_are_refused():
    with pytest.raises(RuleError):
        load_state(-1, 3)
    with pytest.raises(RuleError):
        load_state(float("nan"), 3)
    with pytest.raises(RuleError):
        max_load(-1)


def test_total_weight_sums_every_piece():
    items = [
        Item("Cuerda", 2.5),
        Weapon("Espada larga", sides=8, damage_type="cortante", integrity=5, weight_kg=1.5),
        ArmourPiece("Casco", "cabeza", rd=4, integrity=3, weight_kg=2),
        Shield("Escudo", gdc=3, integrity=4, weight_kg=4),
    ]
    assert total_weight(items) == 10


def test_armour_at_zero_integrity_keeps_rd_1():
    casco = ArmourPiece("Casco", "cabeza", rd=4, integrity=1).worn()
    assert casco.integrity == 0
    assert casco.current_rd == 1
    assert casco.rd_against("cortante") == 1
    assert casco.rd_against("contundente") == 0
    assert casco.worn().integrity == 0


def test_weapon_damage_against_broken_armour():
    maza = Weapon("Maza", sides=6, damage_type="contundente", integrity=4)
    casco = ArmourPiece("Casco", "cabeza", rd=4, integrity=0)
    record = roll_damage(maza.damage_spec(casco), Scripted(3))
    assert record.result == 3
    assert record.outcome == "leve"


def test_pelea_weapon_spec_marks_pelea():
    puño = Weapon("Puño", sides=4, damage_type="contundente", integrity=1, skill="pelea")
    assert puño.damage_spec().pelea


def test_weapon_caption_and_validation():
    ariete = Weapon("Ariete portátil", sides=4, count=3, damage_type="contundente", integrity=3)
    assert ariete.damage_caption == "3d4"
    assert Weapon("Daga", sides=4, fixed=1, damage_type="cortante", integrity=2).damage_caption == (
        "1d4+1"
    )
    with pytest.raises(RuleError):
        Weapon("Lanza", sides=8, damage_type="perforante", integrity=3)
    with pytest.raises(RuleError):
        Weapon("Lanza", sides=8, damage_type="cortante", integrity=3, skill="bailar")


def test_shield_gdc_range():
    assert Shield("Rodela", gdc=1, integrity=2).interceptar_bonus == 1
    with pytest.raises(RuleError):
        Shield("Muro", gdc=11, integrity=2)


@pytest.mark.parametrize(
    "thing",
    [
        Item("Antorcha", 0.5),
        ArmourPiece("Casco acolchado con anillas", "cabeza", rd=4, integrity=3, weight_kg=2.0),
        Weapon("Rifle arcano", sides=4, count=3, damage_type="cortante", integrity=6),
        Shield("Pavés", gdc=9, integrity=8, weight_kg=7.5),
        load_state(52.5, 4),
    ],
)
def test_equipment_json_round_trip_is_the_identity(thing):
    assert type(thing).from_dict(json.loads(json.dumps(thing.to_dict()))) == thing


@given(st.floats(0, 500, allow_nan=False), st.integers(0, 20))
def test_load_state_round_trips_and_is_consistent(weight, fortitud):
    load = load_state(weight, fortitud)
    assert LoadState.from_dict(json.loads(json.dumps(load.to_dict()))) == load
    assert load.max_kg == 20 + 5 * fortitud
    assert load.immobile <= load.overloaded
    assert (load.athletic_desgracias > 0) <= load.overloaded


def test_prana_regenerates_one_per_hour_up_to_the_maximum():
    assert max_prana(0) == 8
    assert regenerate_prana(3, 14, 4) == 7
    assert regenerate_prana(12, 14, 10) == 14
    assert regenerate_prana(15, 14, 1) == 15


def test_extra_prana_sources():
    assert extra_prana(leve_wounds=2, object_integrity=5) == 4


def test_faith_and_deity_limits():
    assert max_faith_per_deity(3) == 6
    assert max_deities(2) == 2
    check_faith({"Sol": 6, "Luna": 2}, voluntad=3, religion=2)
    with pytest.raises(RuleError, match="at most 6 faith points"):
        check_faith({"Sol": 7}, voluntad=3, religion=2)
    with pytest.raises(RuleError, match="deities"):
        check_faith({"Sol": 1, "Luna": 1, "Mar": 1}, voluntad=3, religion=2)


def test_gestures_and_summons_limits():
    assert max_gestures(4) == 4
    assert max_summons(3) == 6


def test_a_creature_beyond_50_m_from_its_anchor_takes_a_leve_wound_each_turn():
    assert leash_wounds(0) == 0
    assert leash_wounds(50) == 0
    assert leash_wounds(51) == 1
    with pytest.raises(RuleError):
        leash_wounds(-1)
