"""Raising a Hitos skill by sacrificing a drama point (the campaign setting's rule)."""

import pytest

from mechanics.rules.errors import RuleError
from mechanics.rules.hitos.advancement import DRAMA_SACRIFICE_COST, drama_sacrifice_cost


@pytest.mark.parametrize("current", [0, 1, 5, 9])
def test_a_skill_rises_one_level_for_one_drama_point(current):
    assert drama_sacrifice_cost("skill", current) == DRAMA_SACRIFICE_COST == 1


def test_a_skill_at_its_maximum_cannot_rise():
    with pytest.raises(RuleError, match="maximum"):
        drama_sacrifice_cost("skill", 10)


def test_a_custom_maximum_is_respected():
    with pytest.raises(RuleError, match="maximum"):
        drama_sacrifice_cost("skill", 6, maximum=6)


def test_characteristics_cannot_be_raised_with_drama_points():
    with pytest.raises(RuleError, match="Only skills"):
        drama_sacrifice_cost("characteristic", 3)


@pytest.mark.parametrize("current", [-1, 11, "3", 2.0, True])
def test_a_rating_outside_the_range_or_not_a_whole_number_is_refused(current):
    with pytest.raises(RuleError):
        drama_sacrifice_cost("skill", current)
