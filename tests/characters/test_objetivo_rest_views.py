"""Dado objetivo: rest given in pieces heals like rest in one go (RULES section 4), through
the GM's time advance on the sheet."""

import pytest
from django.urls import reverse

from characters.models import Character
from mechanics.models import HealthEvent
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(gm, player):
    campaign = CampaignFactory(system="objetivo", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


def wounded(campaign, gm, player, name):
    character = make_character(campaign, player, name=name, ratings={"resistencia": 8})
    health_services.character_apply_damage(character=character, user=gm, damage=DamageInput(7))
    return character


def time_url(character):
    return reverse("mechanics:health_time", args=[character.campaign_id, character.pk])


def pv(character):
    return Character.objects.get(pk=character.pk).health["pv"]


def test_three_8_hour_rests_heal_like_one_day(client, gm, player, table):
    in_pieces = wounded(table, gm, player, "Carmen")
    in_one_go = wounded(table, gm, player, "Fred")
    client.force_login(gm)
    client.post(time_url(in_pieces), {"time-preset": 8})
    client.post(time_url(in_pieces), {"time-preset": 8})
    assert Character.objects.get(pk=in_pieces.pk).health == {
        "max_pv": 16,
        "pv": 9,
        "rest_hours": 16,
    }
    client.post(time_url(in_pieces), {"time-preset": 8})
    client.post(time_url(in_one_go), {"time-amount": 24, "time-unit": "hours"})
    assert pv(in_pieces) == pv(in_one_go) == 10
    assert Character.objects.get(pk=in_pieces.pk).health == {"max_pv": 16, "pv": 10}


def test_the_owner_and_a_stranger_cannot_advance_time(client, gm, player, table):
    character = wounded(table, gm, player, "Carmen")
    before = HealthEvent.objects.count()
    client.force_login(player)
    assert client.post(time_url(character), {"time-preset": 8}).status_code == 403
    client.force_login(UserFactory(username="eve"))
    assert client.post(time_url(character), {"time-preset": 8}).status_code == 404
    assert pv(character) == 9
    assert "rest_hours" not in Character.objects.get(pk=character.pk).health
    assert HealthEvent.objects.count() == before
