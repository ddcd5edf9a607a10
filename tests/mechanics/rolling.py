"""Helpers for the roll panel tests: fixed dice through the engine's own random source."""

from __future__ import annotations

import re
import secrets

import pytest
from django.urls import reverse


class FixedDice:
    """Stands in for secrets.SystemRandom: hands out the given values in turn, then
    repeats the last one (clamped to the die's range)."""

    instances: list[FixedDice] = []

    def __init__(self, values):
        self.values = list(values)
        self.index = 0
        FixedDice.instances.append(self)

    def randint(self, low: int, high: int) -> int:
        value = self.values[min(self.index, len(self.values) - 1)]
        self.index += 1
        return max(low, min(high, value))


@pytest.fixture
def fixed_dice(monkeypatch):
    """`fixed_dice(6, 6, 1)`: the next rolls on the server throw these values.

    The engine's default source is `secrets.SystemRandom()`; replacing it also proves
    the views roll with it (and never with anything the client sends)."""
    FixedDice.instances = []

    def set_values(*values: int) -> None:
        monkeypatch.setattr(secrets, "SystemRandom", lambda: FixedDice(values))

    return set_values


def odds_values(html: str) -> dict[str, float]:
    """The exact probabilities the odds box shows, by row key."""
    rows = re.findall(r'class="odds-row odds-([\w-]+)">.*?<data value="([^"]+)"', html, flags=re.S)
    return {key: float(value) for key, value in rows}


def dice_values(roll) -> list[int]:
    return [die["value"] for die in roll.record["dice"]]


def roll_url(character) -> str:
    """The roll panel of a character."""
    return reverse("mechanics:roll", args=[character.campaign_id, character.pk])
