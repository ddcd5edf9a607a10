"""Helpers for the roll log tests: stored rolls and a second player."""

import random

from campaigns.models import Scene
from mechanics.rules.hitos.rolls import HitosSpec, roll_check
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store

# A label that must never reach anyone but a GM.
CANARY = "CANARIO-SECRETO-7731"


def store_roll(campaign, user, *, label="", secret=False, character=None, scene=None, seed=1,
               dice=5, record=None):  # fmt: skip
    """A stored Tinieblas roll, as the roll endpoint would store it."""
    record = record or roll_dice(dice, rng=random.Random(seed))
    return roll_store(
        campaign=campaign,
        user=user,
        record=record,
        character=character,
        scene=scene,
        label=label,
        secret=secret,
    )


def hitos_record(seed=3):
    return roll_check(HitosSpec(characteristic=3, skill=2, difficulty=15), random.Random(seed))


def make_scene(campaign, title="La cripta", **kwargs):
    return Scene.objects.create(campaign=campaign, title=title, **kwargs)
