import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas.catalogue import ATTRIBUTES
from mechanics.rules.tinieblas.traits import (
    MORALIDAD_START,
    TAMANO_DEFAULT,
    defensa,
    derived,
    health_boxes,
    iniciativa,
    starting_willpower,
    velocidad,
)

SHEET = {
    "inteligencia": 2,
    "astucia": 3,
    "aplomo": 2,
    "fuerza": 4,
    "destreza": 2,
    "resistencia": 4,
    "presencia": 2,
    "manipulacion": 1,
    "compostura": 3,
}


def test_defensa_is_the_lower_of_astucia_and_destreza():
    assert defensa(3, 2) == 2
    assert defensa(1, 4) == 1


def test_iniciativa_is_destreza_plus_compostura():
    assert iniciativa(2, 3) == 5


def test_velocidad_is_fuerza_plus_destreza_plus_five():
    assert velocidad(4, 2) == 11


def test_starting_willpower_is_aplomo_plus_compostura():
    assert starting_willpower(2, 3) == 5


def test_health_is_seven_boxes_by_default():
    assert health_boxes(4) == 7
    assert health_boxes(1, 3) == 7
    assert health_boxes(5, 6) == 7


def test_health_from_stamina_is_resistencia_plus_tamano():
    # The seed's barman: Resistencia 4 and 9 health levels.
    assert health_boxes(4, 5, health_from_stamina=True) == 9
    assert health_boxes(3, 6, health_from_stamina=True) == 9


def test_health_from_stamina_may_give_fewer_than_seven_boxes():
    assert health_boxes(1, 5, health_from_stamina=True) == 6


def test_derived_returns_every_derived_trait():
    assert derived(SHEET) == {
        "defensa": 2,
        "iniciativa": 5,
        "velocidad": 11,
        "tamano": TAMANO_DEFAULT,
        "fuerza_de_voluntad": 5,
        "moralidad": MORALIDAD_START,
        "salud": 7,
    }
    assert MORALIDAD_START == 7
    assert TAMANO_DEFAULT == 5


def test_derived_uses_the_characters_tamano_and_the_health_setting():
    values = derived(SHEET, tamano=6, health_from_stamina=True)
    assert values["tamano"] == 6
    assert values["salud"] == 10


def test_derived_counts_a_missing_attribute_as_its_free_dot():
    assert derived({})["defensa"] == 1
    assert derived({})["fuerza_de_voluntad"] == 2


@pytest.mark.parametrize(
    ("attributes", "tamano"),
    [
        ({"suerte": 3}, 5),
        ({"fuerza": 0}, 5),
        ({"fuerza": 6}, 5),
        ({"fuerza": "3"}, 5),
        ({}, 0),
    ],
)
def test_derived_refuses_invalid_input(attributes, tamano):
    with pytest.raises(RuleError):
        derived(attributes, tamano)


@given(st.fixed_dictionaries({item.key: st.integers(1, 5) for item in ATTRIBUTES}))
def test_derived_traits_stay_in_their_ranges(attributes):
    values = derived(attributes)
    assert 1 <= values["defensa"] <= 5
    assert 2 <= values["iniciativa"] <= 10
    assert 7 <= values["velocidad"] <= 15
    assert 2 <= values["fuerza_de_voluntad"] <= 10
