"""Fixtures for the Hitos engine tests (pure: no database)."""

from __future__ import annotations

import pytest


class FixedDice:
    """A random source that returns the given dice in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b
        return value


@pytest.fixture
def fixed_dice():
    """`fixed_dice(3, 6, 7)` is a random source throwing 3, 6, 7."""
    return FixedDice
