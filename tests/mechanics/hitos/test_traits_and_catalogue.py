import pytest

from mechanics.rules.catalogue import slug
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import catalogue
from mechanics.rules.hitos.traits import (
    aguante,
    defensa,
    initiative_base,
    melee_damage_bonus,
    ranged_damage_bonus,
    resistencia_max,
)


def test_the_four_characteristics_and_the_generic_skills_are_listed_in_the_seeds_words():
    assert [c.name for c in catalogue.CHARACTERISTICS] == [
        "Fortaleza",
        "Reflejos",
        "Voluntad",
        "Intelecto",
    ]
    assert [s.name for s in catalogue.SKILLS] == [
        "Forma física",
        "Combate",
        "Percepción",
        "Subterfugio",
        "Interacción",
        "Cultura",
        "Profesión",
    ]
    assert all(c.minimum == 1 and c.maximum == 10 for c in catalogue.CHARACTERISTICS)
    assert all(s.minimum == 0 and s.maximum == 10 for s in catalogue.SKILLS)


def test_every_catalogue_key_is_the_slug_of_its_name():
    for items in (
        catalogue.CHARACTERISTICS,
        catalogue.SKILLS,
        catalogue.ASPECT_KINDS,
        catalogue.ASPECT_TYPES,
        catalogue.DIFFICULTIES,
        catalogue.HEALTH_STATES,
    ):
        for item in items:
            assert item.key == slug(item.name)
            assert item.key.isascii()
    for category in catalogue.DAMAGE_CATEGORIES:
        assert category.key == slug(category.label)


def test_custom_skills_share_the_generic_range():
    skill = catalogue.custom_skill("Pilotar naves")
    assert (skill.key, skill.maximum) == ("pilotar_naves", 10)
    with pytest.raises(RuleError):
        catalogue.custom_skill("  ")


def test_aspect_kinds_and_types():
    kinds = {kind.key: kind.slots for kind in catalogue.ASPECT_KINDS}
    assert kinds == {
        "concepto": 1,
        "cita": 1,
        "hito": 4,
        "complicacion": 1,
        "libre": None,
        "temporal": None,
        "secuela": None,
    }
    assert [t.name for t in catalogue.ASPECT_TYPES] == [
        "Propio",
        "Ajeno",
        "De situación",
        "Implícito",
    ]
    assert [t.key for t in catalogue.ASPECT_TYPES if t.can_exhaust] == ["propio"]


def test_difficulties_and_damage_categories_in_order():
    assert [(d.name, d.value) for d in catalogue.DIFFICULTIES] == [
        ("Fácil", 10),
        ("Media", 15),
        ("Difícil", 20),
        ("Muy difícil", 25),
        ("Extrema", 30),
    ]
    assert [c.name for c in catalogue.DAMAGE_CATEGORIES] == [
        "m",
        "C",
        "M",
        "m+C",
        "C+M",
        "m+C+M",
    ]
    assert catalogue.damage_category("C + M").dice == (1, 2)
    with pytest.raises(RuleError):
        catalogue.damage_category("X")


def test_health_states_and_drug_kinds():
    assert [(s.name, s.penalty) for s in catalogue.HEALTH_STATES] == [
        ("Sano", 0),
        ("Herido", -2),
        ("Incapacitado", -5),
        ("Moribundo", -5),
    ]
    drugs = {d.key: (d.cancels, d.aspect) for d in catalogue.DRUG_KINDS}
    assert drugs == {"suave": (2, None), "fuerte": (5, "Bajo el efecto de las drogas")}


def test_derived_values():
    assert aguante(4, 5) == 6
    assert resistencia_max(6) == 18
    assert initiative_base(6, 5) == 8
    assert melee_damage_bonus(5, 6) == 2
    assert ranged_damage_bonus(7) == 1


def test_defensa_with_penalty_and_situations():
    assert defensa(6, 4) == 15
    assert defensa(6, 4, -2) == 13
    assert defensa(6, 4, unaware=True) == 13
    assert defensa(6, 4, total_defence=True) == 19
    assert defensa(6, 4, -5, defenceless=True) == 5
    with pytest.raises(RuleError, match="wound penalty"):
        defensa(6, 4, 2)
