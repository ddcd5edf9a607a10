"""The main menu offers the admin only to those who may use it."""

import pytest
from django.urls import reverse

from tests.factories import CampaignFactory, MembershipFactory

ADMIN = reverse("admin:index")


@pytest.mark.parametrize(("who", "offered"), [("gm", True), ("player", False), ("observer", False)])
def test_the_menu_offers_administration_only_to_gms(client, campaign, who, offered, request):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("campaigns:list"))
    assert response.status_code == 200
    assert (f'href="{ADMIN}"' in response.text) is offered


def test_a_user_in_no_campaign_is_not_offered_administration(client, stranger):
    client.force_login(stranger)
    assert f'href="{ADMIN}"' not in client.get(reverse("campaigns:list")).text


def test_a_superuser_is_offered_administration(client, stranger):
    stranger.is_superuser = True
    stranger.save()
    client.force_login(stranger)
    assert f'href="{ADMIN}"' in client.get(reverse("campaigns:list")).text


@pytest.mark.parametrize(("who", "offered"), [("gm", True), ("player", False), ("observer", False)])
def test_a_campaign_page_offers_administration_only_to_its_gms(
    client, campaign, who, offered, request
):
    client.force_login(request.getfixturevalue(who))
    assert (f'href="{ADMIN}"' in client.get(campaign.get_absolute_url()).text) is offered


def test_a_player_here_who_runs_another_campaign_is_offered_administration(
    client, campaign, player
):
    MembershipFactory(campaign=CampaignFactory(), user=player, role="gm")
    client.force_login(player)
    assert f'href="{ADMIN}"' in client.get(campaign.get_absolute_url()).text
