"""A deity added by mistake is not kept for good: the owner or the GM removes it from the
sheet's Magia section, its faith pool with it, and the slot under Religión NdP is free again;
no one else may (docs/rules.md#ndp-deity-limit)."""

import pytest
from django.urls import reverse

from characters.models import Character, Resource
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def sigrid(gm, player, stranger):
    campaign = campaign_with("ndp", gm, players=[player, UserFactory(username="dora")])
    sigrid = make_character(campaign, player, name="Sigrid", ratings={"religion": 1})
    sigrid.details = {**sigrid.details, "deities": {"odinn": "Odinn"}}
    sigrid.save()
    Resource.objects.create(character=sigrid, key="fe_odinn", current=2, maximum=4)
    return sigrid


def remove_url(character, key="odinn") -> str:
    return reverse("ndp:deity_remove", args=[character.campaign_id, character.pk, key])


def deities(character) -> dict:
    return Character.objects.get(pk=character.pk).details.get("deities", {})


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_owner_or_the_gm_removes_a_deity_and_its_faith_and_frees_the_slot(
    client, sigrid, who, request
):
    client.force_login(request.getfixturevalue(who))
    sheet = client.get(sigrid.get_absolute_url()).text
    assert remove_url(sigrid) in sheet
    response = client.post(remove_url(sigrid), HTTP_HX_REQUEST="true")
    assert "Odinn quitada." in response.text
    assert deities(sigrid) == {}
    assert not Resource.objects.filter(character=sigrid, key="fe_odinn").exists()
    add = reverse("ndp:deity_add", args=[sigrid.campaign_id, sigrid.pk])
    client.post(add, {"name": "Odín"}, HTTP_HX_REQUEST="true")
    assert deities(sigrid) == {"odin": "Odín"}


def test_removing_a_deity_the_character_does_not_worship_is_refused(client, player, sigrid):
    client.force_login(player)
    response = client.post(remove_url(sigrid, "thor"), HTTP_HX_REQUEST="true")
    assert "Sigrid no adora esa divinidad." in response.text
    assert deities(sigrid) == {"odinn": "Odinn"}


def test_another_player_can_neither_remove_a_deity_nor_see_the_button(client, sigrid):
    client.force_login(UserFactory._meta.model.objects.get(username="dora"))
    assert client.post(remove_url(sigrid)).status_code == 403
    assert remove_url(sigrid) not in client.get(sigrid.get_absolute_url()).text
    assert deities(sigrid) == {"odinn": "Odinn"}


def test_a_stranger_gets_404_removing_a_deity(client, stranger, sigrid):
    client.force_login(stranger)
    assert client.post(remove_url(sigrid)).status_code == 404
    assert deities(sigrid) == {"odinn": "Odinn"}
