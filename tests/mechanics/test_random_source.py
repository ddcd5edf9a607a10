"""The dice in production come from `secrets.SystemRandom`, the operating system's CSPRNG.

A statistical test of that generator would test Python, and fail by chance now and then.
These tests are deterministic instead: a recording stand-in replaces `secrets.SystemRandom`
and every roll made without a seed, in the engine and through the site, must draw each of
its dice from it.
"""

import random
import secrets

import pytest
from django.urls import reverse

from mechanics.models import Roll
from mechanics.rules.dice import default_rng
from mechanics.rules.expressions import parse, roll_expression
from mechanics.rules.hitos.rolls import roll_check as hitos_roll
from mechanics.rules.hitos.rolls import spec_for_bonus
from mechanics.rules.ndp.rolls import NdpSpec
from mechanics.rules.ndp.rolls import roll_check as ndp_roll
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from mechanics.rules.objetivo.rolls import roll_check as objetivo_roll
from mechanics.rules.tinieblas.rolls import PoolSpec, roll_pool


class Recorder:
    """Answers every die with its lowest face (no die explodes) and counts the calls."""

    def __init__(self):
        self.calls: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        self.calls.append((low, high))
        return low


@pytest.fixture
def recorders(monkeypatch) -> list[Recorder]:
    made: list[Recorder] = []

    def system_random() -> Recorder:
        made.append(Recorder())
        return made[-1]

    monkeypatch.setattr(secrets, "SystemRandom", system_random)
    return made


def test_the_default_source_is_the_operating_systems_generator():
    rng = default_rng()
    assert type(rng) is secrets.SystemRandom
    assert isinstance(rng, random.SystemRandom)


UNSEEDED_ROLLS = {
    "free expression": lambda: roll_expression(parse("3d10+2")),
    "tinieblas pool": lambda: roll_pool(PoolSpec(attribute=3, skill=2, skill_category="mental")),
    "hitos check": lambda: hitos_roll(spec_for_bonus(10, 15)),
    "ndp check": lambda: ndp_roll(NdpSpec(level=3, adversity=10)),
    "objetivo check": lambda: objetivo_roll(ObjetivoSpec(bonus=8, difficulty=15)),
}


@pytest.mark.parametrize("roll", UNSEEDED_ROLLS.values(), ids=UNSEEDED_ROLLS.keys())
def test_a_roll_without_a_seed_throws_every_die_with_the_system_source(recorders, roll):
    record = roll()
    calls = [call for recorder in recorders for call in recorder.calls]
    assert [(1, die.sides) for die in record.dice] == calls
    assert all(die.value == 1 for die in record.dice)


@pytest.mark.django_db
def test_a_roll_made_on_the_site_throws_its_dice_with_the_system_source(
    client, campaign, gm, recorders
):
    client.force_login(gm)
    response = client.post(
        reverse("mechanics:free_roll", args=[campaign.pk]), {"expression": "4d6", "label": "x"}
    )
    assert response.status_code == 302
    dice = Roll.objects.get().record["dice"]
    assert [die["value"] for die in dice] == [1, 1, 1, 1]
    assert [call for recorder in recorders for call in recorder.calls] == [(1, 6)] * 4
