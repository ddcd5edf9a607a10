"""Roll effects are applied with the roll, in one transaction: all or nothing."""

import uuid

import pytest
from django.core.exceptions import ValidationError

from characters.models import Aspect, Resource, SheetChange
from mechanics.models import Roll
from mechanics.rules.dice import Effects, RollRecord
from mechanics.services.rolls import RollSide, roll_perform
from tests.factories import CampaignFactory, MembershipFactory, make_character

pytestmark = pytest.mark.django_db


def record(system: str, **effects) -> RollRecord:
    return RollRecord(
        system=system,
        kind="check",
        spec={},
        dice=(),
        kept=(),
        result=0,
        outcome="failure",
        effects=Effects(**effects),
    )


def test_an_empty_pool_refuses_the_whole_roll(campaign, gm, player):
    lucia = make_character(campaign, player)
    Resource.objects.filter(character=lucia, key="willpower").update(current=0)
    with pytest.raises(ValidationError):
        roll_perform(
            campaign=campaign,
            user=player,
            sides=[RollSide(record=record("tinieblas", willpower_spent=1), character=lucia)],
        )
    assert not Roll.objects.exists()
    assert not SheetChange.objects.filter(field__startswith="resource:").exists()


def test_a_failed_effect_undoes_the_ones_before_it(gm, player):
    campaign = CampaignFactory(created_by=gm, system="hitos")
    MembershipFactory(campaign=campaign, user=player, role="player")
    pepa = make_character(campaign, player)
    Aspect.objects.create(character=pepa, kind="hito", text="Terca", exhausted=True)
    effects = {"drama_points_spent": 1, "aspects_exhausted": ("Terca",)}
    with pytest.raises(ValidationError):
        roll_perform(
            campaign=campaign,
            user=player,
            sides=[RollSide(record=record("hitos", **effects), character=pepa)],
        )
    assert Resource.objects.get(character=pepa, key="drama_points").current == 3
    assert not Roll.objects.exists()


def test_both_sides_of_a_roll_are_stored_with_one_group(campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    bruto = make_character(campaign, None, name="Bruto")
    rolls = roll_perform(
        campaign=campaign,
        user=gm,
        sides=[
            RollSide(record=record("tinieblas"), character=lucia),
            RollSide(record=record("tinieblas"), character=bruto),
        ],
        group=uuid.uuid4(),
        secret=True,
    )
    assert len({roll.group for roll in rolls}) == 1
    assert all(roll.secret for roll in rolls)
