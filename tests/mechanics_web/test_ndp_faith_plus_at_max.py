"""A pool at its maximum (a deity's faith at 4 of 4) draws its "+" disabled; the server
still refuses a point past the maximum."""

import pytest
from django.urls import reverse

from characters.models import Resource
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def sigrid(gm, player):
    campaign = campaign_with("ndp", gm, players=[player])
    sigrid = make_character(campaign, player, name="Sigrid", ratings={"religion": 1, "voluntad": 2})
    sigrid.details = {**sigrid.details, "deities": {"odinn": "Odinn"}}
    sigrid.save()
    Resource.objects.create(character=sigrid, key="fe_odinn", current=4, maximum=4)
    return sigrid


def plus_button(client, character):
    return parse(client.get(character.get_absolute_url()).content).one(id="pool-fe_odinn-plus")


def test_faith_plus_is_disabled_at_the_maximum(client, player, sigrid):
    client.force_login(player)
    assert "disabled" in plus_button(client, sigrid).attrs


def test_faith_plus_is_enabled_below_the_maximum(client, player, sigrid):
    Resource.objects.filter(character=sigrid, key="fe_odinn").update(current=3)
    client.force_login(player)
    assert "disabled" not in plus_button(client, sigrid).attrs


def test_faith_past_the_maximum_is_still_refused_by_the_server(client, gm, sigrid):
    client.force_login(gm)
    url = reverse("characters:pool_adjust", args=[sigrid.campaign_id, sigrid.pk, "fe_odinn"])
    client.post(url, {"delta": "1"}, HTTP_HX_REQUEST="true")
    assert Resource.objects.get(character=sigrid, key="fe_odinn").current == 4
