"""Damage typed as text, one parser for 3d6 + NdP and Dado objetivo (mechanics/forms/damage.py,
docs/rules.md#damage-text): each good form read, each fault with its own message, the
limits the system's engine sets named in it (docs/rules.md#ndp-damage-limits,
docs/rules.md#objetivo-damage)."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from mechanics.forms.damage import parse_damage
from mechanics.rules.errors import RuleError
from mechanics.rules.ndp import rolls as ndp
from mechanics.systems.objetivo.combat_forms import _check_damage as objetivo_check

SYNTAX = "Write the damage as dice and a bonus, like 1d8, 2d6+1 or 3."
DICE_ONLY = "A weapon's damage is rolled with dice: write, for example, 1d10 or 2d6+1."


def message(text, check=None, **kwargs) -> str:
    with translation.override("en"):
        with pytest.raises(ValidationError) as caught:
            parse_damage(text, check, **kwargs)
        [text] = caught.value.messages
    return text


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("2d6+1", (2, 6, 1)),
        ("1d8", (1, 8, 0)),
        ("3", (0, 0, 3)),
        ("+3", (0, 0, 3)),
        ("1d6 - 1", (1, 6, -1)),
        ("1d6−1", (1, 6, -1)),
        (" 2D6 ", (2, 6, 0)),
        ("2 d 6 + 10", (2, 6, 10)),
        ("20d100+200", (20, 100, 200)),
    ],
)
def test_good_forms_are_read(text, read):
    assert parse_damage(text) == read


@pytest.mark.parametrize(
    "text", ["", "   ", "tres", "d6", "1d", "1d6+", "2d6+1d4", "1.5d6", "1d6x2"]
)
def test_what_is_not_dice_and_a_bonus_says_how_to_write_it(text):
    assert message(text) == SYNTAX
    assert message(text, dice_required=True) == DICE_ONLY


@pytest.mark.parametrize("text", ["0", "+0", "00"])
def test_no_damage_at_all_says_how_to_write_it(text):
    """Not the engine's lowercase fault: a sentence under the field, as for any text."""
    assert message(text, ndp.check_damage) == (
        "Write the damage as dice and a bonus, like 1d8, 2d6+1 or 3."
    )


def test_digits_of_other_scripts_are_no_damage():
    assert message("١d٦") == SYNTAX


def test_overlong_text_is_no_damage_and_no_error():
    assert message("9" * 5000 + "d6") == SYNTAX


@pytest.mark.parametrize("text", ["1d6 2", "2D6  10", "1 d 6 2"])
def test_dice_and_a_bonus_without_a_sign_are_refused_not_guessed(text):
    # 1d6+2? 1d6−2? 1d62? The user writes the sign (docs/rules.md#damage-text).
    assert message(text).startswith("Put a + or − between the dice and the bonus, like ")
    assert message(text, ndp.check_damage) == message(text)
    assert message(text, objetivo_check, dice_required=True) == message(text)


def test_the_sign_message_shows_the_dice_and_bonus_typed():
    assert message("2D6  10") == "Put a + or − between the dice and the bonus, like 2d6+10."


def test_a_number_alone_is_refused_where_dice_are_required():
    assert message("3", dice_required=True) == DICE_ONLY
    assert message("+3", objetivo_check, dice_required=True) == DICE_ONLY


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0d6", "Roll at least one damage die."),
        ("0d6+2", "Roll at least one damage die."),
        ("1d0", "A die of 0 sides rolls nothing: write its sides, like 1d6."),
        ("00d00", "Roll at least one damage die."),
    ],
)
def test_dice_that_are_no_dice_say_which_number_is_zero(text, expected):
    assert message(text) == expected
    assert message(text, ndp.check_damage) == expected
    assert message(text, objetivo_check, dice_required=True) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("21d6", "At most 20 damage dice."),
        ("999d6", "At most 20 damage dice."),
        ("999d999", "At most 20 damage dice."),
        ("1d101", "Damage dice have at most 100 sides."),
        ("1d6+201", "The damage bonus is at most +200."),
        ("1d6-1", "The damage bonus cannot be negative."),
        ("-3", "The damage bonus cannot be negative."),
    ],
)
def test_ndp_names_the_limit_its_engine_sets(text, expected):
    assert message(text, ndp.check_damage) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("999d6", "Como mucho 20 dados de daño."),
        ("1d6 2", "Pon + o − entre los dados y el bono, por ejemplo 1d6+2."),
        ("1d0", "Un dado de 0 caras no tira nada: escribe sus caras, por ejemplo 1d6."),
    ],
)
def test_ndp_messages_are_in_spanish_for_a_spanish_page(text, expected):
    with translation.override("es"):
        with pytest.raises(ValidationError) as caught:
            parse_damage(text, ndp.check_damage)
        assert caught.value.messages == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("999d6", "«999d6» is too large: a weapon's damage is at most 20 dice."),
        ("1d101", "«1d101» is too large: a weapon's damage dice have at most 100 sides."),
        (
            "21d101",
            "«21d101» is too large: a weapon's damage is at most 20 dice of up to 100 sides.",
        ),
        ("1d6-21", "The damage bonus or penalty is too large: at most ±20."),
        (
            "2d1",
            "«2d1» is not a valid roll of dice: roll at least one die of 2 sides or more, like "
            "1d10 or 2d6+1.",
        ),
    ],
)
def test_objetivo_names_the_limit_its_engine_sets(text, expected):
    assert message(text, objetivo_check, dice_required=True) == expected


def test_the_limits_are_the_engines_own():
    assert parse_damage("20d100+200", ndp.check_damage) == (20, 100, 200)
    assert parse_damage("20d100-20", objetivo_check, dice_required=True) == (20, 100, -20)
    assert (ndp.MAX_DAMAGE_DICE, ndp.MAX_DAMAGE_SIDES, ndp.MAX_DAMAGE_FIXED) == (20, 100, 200)


def test_the_ndp_engine_refuses_what_its_check_refuses():
    with pytest.raises(RuleError, match="At most 20 damage dice"):
        ndp.DamageSpec(sides=6, count=21, damage_type="cortante")
    with pytest.raises(RuleError, match="at most 100 sides"):
        ndp.DamageSpec(sides=101, damage_type="cortante")
    with pytest.raises(RuleError, match="cannot be negative"):
        ndp.DamageSpec(sides=6, fixed=-1, damage_type="cortante")
    with pytest.raises(RuleError, match="whole number"):
        ndp.check_damage(1.5, 6, 0)
    with pytest.raises(RuleError, match="between 1 and 20"):
        ndp.check_damage(0, 6, 0)
    # A fixed damage alone (the Poder gesture): no die, whatever the count.
    assert ndp.DamageSpec(sides=0, fixed=3, damage_type="contundente").count == 1
