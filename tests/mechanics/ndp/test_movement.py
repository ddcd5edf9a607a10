"""3d6 + NdP movement in a turn: 1 m free, 6 m without attacking, 18 m with a Correr roll,
at half the distances when overloaded and none at twice the maximum load."""

import pytest

from mechanics.rules.errors import RuleError
from mechanics.rules.ndp.combat import (
    MOVE_FREE,
    MOVE_NO_ATTACK,
    MOVE_RUN,
    movement,
    reach_after_failed_run,
)


@pytest.mark.parametrize(
    ("metres", "kind"),
    [
        (0, MOVE_FREE),
        (1, MOVE_FREE),
        (2, MOVE_NO_ATTACK),
        (6, MOVE_NO_ATTACK),
        (7, MOVE_RUN),
        (18, MOVE_RUN),
    ],
)
def test_seed_movement_1_6_18_metres(metres, kind):
    assert movement(metres) == kind


def test_more_than_18_metres_in_a_turn_is_refused():
    with pytest.raises(RuleError, match="at most"):
        movement(19)


def test_an_overloaded_character_moves_half_as_far():
    assert movement(1, 0.5) == MOVE_NO_ATTACK
    assert movement(3, 0.5) == MOVE_NO_ATTACK
    assert movement(4, 0.5) == MOVE_RUN
    assert movement(9, 0.5) == MOVE_RUN
    with pytest.raises(RuleError):
        movement(10, 0.5)


def test_at_twice_the_maximum_load_the_character_cannot_move():
    assert movement(0, 0.0) == MOVE_FREE
    with pytest.raises(RuleError, match="cannot move"):
        movement(1, 0.0)


def test_a_failed_correr_roll_still_covers_a_move_without_attacking():
    assert reach_after_failed_run(1.0) == 6
    assert reach_after_failed_run(0.5) == 3


@pytest.mark.parametrize("metres", [-1, 1.5, True, "3"])
def test_bad_distances_are_refused(metres):
    with pytest.raises(RuleError):
        movement(metres)
