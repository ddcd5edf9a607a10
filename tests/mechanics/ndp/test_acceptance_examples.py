"""The worked examples of seed 002 (docs/rules.md#ndp-examples), one test per example."""

from mechanics.rules.ndp.catalogue import CRAFTING_ITEMS, crafting_adversity, shield_bonus
from mechanics.rules.ndp.equipment import (
    ArmourPiece,
    Shield,
    Weapon,
    load_desgracias,
    load_state,
    max_load,
    max_prana,
)
from mechanics.rules.ndp.rolls import (
    CraftingSpec,
    DamageSpec,
    damage_result,
    dp,
    effective_rd,
    roll_damage,
)


class Scripted:
    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b
        return value


def test_example_fortitud_3_max_load_35():
    assert max_load(3) == 35
    assert load_state(35, 3).overloaded is False


def test_example_carrying_41_kg_half_speed_one_desgracia():
    load = load_state(41, 3)
    assert load.overloaded
    assert load.speed_factor == 0.5
    assert load.athletic_desgracias == 1
    assert load_desgracias(load, "correr") == 1
    assert load_desgracias(load, "percibir") == 0
    assert not load.immobile


def test_example_dp_thresholds():
    assert dp(4) == 12
    assert dp(10) == 18
    assert dp(12) == 18


def test_example_rd_5_against_contundente_is_2():
    assert effective_rd(5, "contundente") == 2
    assert ArmourPiece("Cota", "torso", rd=5, integrity=3).rd_against("contundente") == 2
    assert effective_rd(5, "cortante") == 5


def test_example_espada_larga_vs_rd_4():
    espada = Weapon("Espada larga", sides=8, damage_type="cortante", integrity=5)
    casco = ArmourPiece("Casco acolchado con anillas", "cabeza", rd=4, integrity=3)
    spec = espada.damage_spec(casco)

    four = damage_result(4, 4, "cortante")
    assert four.net == 0
    assert four.tier is None
    assert four.weapon_integrity_loss == 1
    assert four.armour_integrity_loss == 0
    record = roll_damage(spec, Scripted(4))
    assert record.outcome == "none"
    assert record.result == 0
    assert espada.worn(record.details["weapon_integrity_loss"]).integrity == 4

    eight = roll_damage(spec, Scripted(8))
    assert eight.result == 4
    assert eight.outcome == "grave"
    assert eight.details["armour_integrity_loss"] == 1
    assert eight.details["weapon_integrity_loss"] == 0
    assert eight.effects.damage == 4
    assert spec == DamageSpec(sides=8, damage_type="cortante", rd=4, armour_integrity=3)


def test_example_gdc_7_gives_plus_4():
    assert shield_bonus(7) == 4
    assert Shield("Escudo", gdc=7, integrity=5).interceptar_bonus == 4


def test_example_vitalidad_3_prana_14():
    assert max_prana(3) == 14


def test_example_crafting_adversities():
    assert [item.adversity for item in CRAFTING_ITEMS] == [11, 13, 16]
    assert [crafting_adversity(cost) for cost in (1, 3, 6)] == [11, 13, 16]
    assert [CraftingSpec(level=2, prana_cost=c).check().adversity for c in (1, 3, 6)] == [
        11,
        13,
        16,
    ]
