"""A first look with faces: the dashboard links straight to your own characters, and the
demo comes with portraits and campaign images drawn by seed_demo itself."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image

from campaigns.models import Campaign
from characters.models import Character
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


def _cards(client):
    page = parse(client.get(reverse("campaigns:list")).content)
    return page.find_all("div", class_="campaign-card")


def _links(card) -> dict[str, str]:
    return {
        link.text(): link.attrs["href"]
        for link in card.find_all("a", class_="campaign-card-character")
    }


def test_a_player_sees_links_to_their_own_characters_only(client, campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    make_character(campaign, None, name="Matón", user=gm)
    client.force_login(player)
    [card] = _cards(client)
    assert _links(card) == {"Lucía": lucia.get_absolute_url()}
    assert card.one("a", class_="stretched-link").attrs["href"] == campaign.get_absolute_url()


def test_the_gm_without_characters_gets_no_list_and_a_stranger_no_card(
    client, campaign, gm, player, stranger
):
    make_character(campaign, player, name="Lucía")
    client.force_login(gm)
    [card] = _cards(client)
    assert _links(card) == {}
    client.force_login(stranger)
    assert _cards(client) == []


def test_the_dashboard_reads_the_characters_in_one_query(client, campaign, player):
    make_character(campaign, player, name="Lucía")
    client.force_login(player)
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("campaigns:list"))
    other = CampaignFactory(system="hitos")
    MembershipFactory(campaign=other, user=player, role="player")
    make_character(other, player, name="Irene")
    make_character(campaign, player, name="Mateo")
    with CaptureQueriesContext(connection) as three:
        client.get(reverse("campaigns:list"))
    assert len(three) == len(one)


def test_seed_demo_draws_a_portrait_for_every_character_and_an_image_per_campaign():
    call_command("seed_demo", stdout=StringIO())
    characters = list(Character.objects.all())
    assert characters
    assert all(character.portrait for character in characters)
    assert all(campaign.image for campaign in Campaign.objects.all())
    with characters[0].portrait_thumb.open() as thumb:
        picture = Image.open(thumb)
        assert (picture.format, picture.size) == ("WEBP", (160, 160))
    names = {character.pk: character.portrait.name for character in characters}
    call_command("seed_demo", stdout=StringIO())
    assert {c.pk: c.portrait.name for c in Character.objects.all()} == names
