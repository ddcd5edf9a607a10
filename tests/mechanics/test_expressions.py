"""The GM's free roller: reading dice expressions and rolling them (pure, no database)."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.expressions import (
    MAX_DICE,
    MAX_EXPLOSIONS,
    ExpressionError,
    parse,
    roll_expression,
)


class Fixed:
    """A random source that returns the given values in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b
        return value


def tags(record):
    return [(die.value, set(die.tags)) for die in record.dice]


# Reading


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("5d10", "5d10 sum"),
        ("2d6+3", "2d6+3"),
        ("2D6 + 3", "2d6+3"),
        ("4d6-1", "4d6-1"),
        ("4d6 − 1", "4d6-1"),
        ("1d4", "1d4"),
        ("d8", "1d8"),
        ("d%", "1d100"),
        ("3d10 central", "3d10 central"),
        ("3d10 mediana", "3d10 central"),
        ("1o3d10", "3d10 central"),
        ("4d6kh3", "4d6kh3"),
        ("4d6 k3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("2d6!", "2d6!"),
        ("2d6 explode", "2d6!"),
        ("3d6+1d4-1d4+2", "3d6+1d4-1d4+2"),
        ("-1d4+3", "-1d4+3"),
        ("3d10 central + 5", "3d10+5 central"),
    ],
)
def test_sums_are_read_and_written_back_the_standard_way(text, written):
    expression = parse(text)
    assert not expression.pool
    assert expression.text() == written


@pytest.mark.parametrize(
    ("text", "written", "again", "rote"),
    [
        ("5d10 9-again", "5d10 9-again", 9, False),
        ("5d10 8 again", "5d10 8-again", 8, False),
        ("5d10 10-again", "5d10 10-again", 10, False),
        ("5d10 no-again", "5d10 no-again", None, False),
        ("8d10 rote", "8d10 rote", 10, True),
        ("6d10 9-again rote", "6d10 9-again rote", 9, True),
        ("5d10 pool", "5d10 10-again", 10, False),
        ("5d10 éxitos", "5d10 10-again", 10, False),
    ],
)
def test_success_pools_are_recognised_by_their_options(text, written, again, rote):
    expression = parse(text)
    assert expression.pool
    assert expression.text() == written
    assert expression.again == again
    assert expression.rote is rote


def test_a_bare_pool_of_d10_is_a_success_pool_only_where_pools_are_the_default():
    assert parse("5d10", pools=True).pool
    assert not parse("5d10", pools=False).pool
    # Anything but a bare group of d10 stays a sum, and "sum" forces the sum.
    assert not parse("5d10+2", pools=True).pool
    assert not parse("3d10 central", pools=True).pool
    assert not parse("5d10 sum", pools=True).pool


def test_the_chance_die_is_written_alone():
    expression = parse("chance")
    assert expression.pool
    assert expression.chance
    assert parse("oportunidad").chance


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Write a dice expression"),
        ("   ", "Write a dice expression"),
        ("5d", "how many sides"),
        ("abc", "I do not understand “abc”"),
        ("2d6 3", "Put + or - before “3”"),
        ("2d6++3", "Two signs in a row"),
        ("2d6 +", "ends with a sign"),
        ("7", "at least one die"),
        ("0d6", "from 1 to 100 dice"),
        ("101d6", "from 1 to 100 dice"),
        ("60d6+60d6", "at most 100 dice"),
        ("3d1", "from 2 to 1000 sides"),
        ("3d1001", "from 2 to 1000 sides"),
        ("9999999d6", "too large"),
        ("4d10 central", "odd number of dice"),
        ("3d10+1d6 central", "exactly one group"),
        ("3d10kh1 central", "either “central” or kh/kl"),
        ("2d6kh3", "Keep from 1 to 2 dice of 2d6"),
        ("3d6!kh2", "only one die"),
        ("5d10 7-again", "10-again, 9-again or 8-again"),
        ("5d10 9-again 8-again", "only one again option"),
        ("5d10+2 rote", "success pool is a number of d10"),
        ("5d6 9-again", "success pool is a number of d10"),
        ("chance 5d10", "chance die is rolled alone"),
        ("5d10 pool sum", "either a success pool or a sum"),
        ("2o3d10", "Only one central die"),
        ("1d6+10001", "at most 10000"),
        ("d" * 201, "at most 200 characters"),
    ],
)
def test_a_bad_expression_gets_a_clear_message(text, message):
    with pytest.raises(ExpressionError, match=re.escape(message)) as caught:
        parse(text)
    # The web side translates the msgid; the English text reads well on its own.
    assert isinstance(caught.value, RuleError)
    assert caught.value.translated(lambda msgid: msgid) == str(caught.value)


@settings(max_examples=400)
@given(st.text(max_size=80))
def test_parsing_any_text_either_reads_it_or_says_why_not(text):
    try:
        expression = parse(text)
    except ExpressionError as error:
        message = str(error)
    else:
        message = ""
        assert 1 <= expression.dice_count <= MAX_DICE or expression.chance
    assert message or expression


_TOKENS = st.sampled_from(
    ["2d6", "d10", "3d10", "5d10", "4d6kh3", "1o3d10", "d%", "2d6!", "+", "-", "3", "10",
     "central", "9-again", "rote", "chance", "explode", "sum", "pool", " ", "kl1", "x"]
)  # fmt: skip


@settings(max_examples=300)
@given(st.lists(_TOKENS, max_size=8).map("".join), st.booleans(), st.integers(0, 2**32))
def test_every_expression_that_reads_also_rolls(text, pools, seed):
    try:
        expression = parse(text, pools=pools)
    except ExpressionError:
        return
    record = roll_expression(expression, random.Random(seed))
    assert record.system == "free"
    assert record.spec["expression"] == expression.text()
    # The standard writing reads back to the same expression, in any campaign.
    assert parse(expression.text(), pools=pools) == expression
    assert parse(expression.text(), pools=not pools) == expression
    if not expression.pool:
        signed = sum(
            -die.value if "negative" in die.tags else die.value
            for die in record.dice
            if "kept" in die.tags
        )
        assert record.result == signed + expression.constant


# Rolling


def test_a_sum_adds_the_dice_and_the_constant():
    record = roll_expression(parse("2d6+3"), Fixed(4, 5))
    assert record.result == 12
    assert record.outcome == "rolled"
    assert record.kind == "sum"
    assert [die.value for die in record.dice] == [4, 5]
    assert all(die.sides == 6 for die in record.dice)


def test_subtracted_dice_are_marked_negative():
    record = roll_expression(parse("3d6-1d4"), Fixed(2, 3, 4, 3))
    assert record.result == 6
    assert tags(record)[-1] == (3, {"kept", "negative"})


def test_central_keeps_the_median_die_as_hitos_and_1o3d10_do():
    record = roll_expression(parse("3d10 central"), Fixed(4, 8, 3))
    assert record.result == 4
    assert tags(record) == [(4, {"kept"}), (8, {"dropped"}), (3, {"dropped"})]


def test_central_with_explosion_throws_again_when_the_target_die_is_a_ten():
    # docs/rules.md#objetivo-examples, example 2: (3,10,10) explodes, then (3,4,7) → 14.
    record = roll_expression(parse("3d10 central explode"), Fixed(3, 10, 10, 3, 4, 7))
    assert record.result == 14
    assert "exploded" in record.flags
    assert [die.value for die in record.dice if "kept" in die.tags] == [10, 4]
    assert all("explosion" in die.tags for die in record.dice[3:])


def test_keep_highest_drops_the_lowest_dice():
    record = roll_expression(parse("4d6kh3"), Fixed(1, 6, 3, 5))
    assert record.result == 14
    assert tags(record)[0] == (1, {"dropped"})


def test_keep_lowest_keeps_the_lowest_die():
    record = roll_expression(parse("2d20kl1"), Fixed(17, 4))
    assert record.result == 4


def test_exploding_dice_add_a_die_for_each_maximum():
    # docs/rules.md#objetivo-examples, example 6: 2d6 rolling 3 and 6, the 6 explodes into 6,
    # then 1 → 16.
    record = roll_expression(parse("2d6!"), Fixed(3, 6, 6, 1))
    assert record.result == 16
    assert tags(record) == [
        (3, {"kept"}),
        (6, {"kept", "exploded"}),
        (6, {"kept", "exploded", "explosion"}),
        (1, {"kept", "explosion"}),
    ]


def test_explosions_stop_after_the_cap():
    record = roll_expression(parse("1d2!"), Fixed(*([2] * (MAX_EXPLOSIONS + 1))))
    assert len(record.dice) == MAX_EXPLOSIONS + 1


def test_a_pool_counts_successes_with_the_again_option():
    record = roll_expression(parse("3d10 9-again"), Fixed(9, 2, 8, 4))
    assert record.kind == "pool"
    assert record.result == 2
    assert record.outcome == "marginal"
    assert tags(record)[0] == (9, {"success", "exploded", "kept"})
    assert tags(record)[-1] == (4, {"explosion", "kept"})


def test_rote_rerolls_the_failed_dice_once():
    record = roll_expression(parse("2d10 rote"), Fixed(3, 8, 9))
    assert record.result == 2
    assert tags(record)[0] == (3, {"dropped"})
    assert tags(record)[2] == (9, {"reroll", "success", "kept"})


def test_the_chance_die_fails_dramatically_on_a_one():
    record = roll_expression(parse("chance"), Fixed(1))
    assert record.outcome == "dramatic_failure"
    assert "chance" in record.dice[0].tags


def test_without_a_random_source_the_roll_uses_the_system_generator():
    record = roll_expression(parse("100d10 sum"))
    assert 100 <= record.result <= 1000
