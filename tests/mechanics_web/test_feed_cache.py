"""The roll feed on a page (campaign page, sheet) is cached under the campaign's counter of
new rolls and its version (the names the cards read), who may see secret rolls and the
language. A new roll or a renamed character, user or scene shows on the next request; a
GM's list never reaches a player."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.fragments import CACHE
from characters.models import Character
from tests.factories import make_character
from tests.html import parse
from tests.mechanics_web.rolls import store_roll

pytestmark = pytest.mark.django_db


def _feed(client, campaign) -> list[str]:
    """The roll cards of the campaign page's feed, as their text."""
    page = parse(client.get(reverse("campaigns:detail", args=[campaign.pk])).content)
    return [card.text() for card in page.one(id="roll-feed").find_all(data_roll=True)]


def test_a_new_roll_shows_in_a_cached_feed_on_the_next_request(client, campaign, player):
    store_roll(campaign, player, label="Trepar")
    client.force_login(player)
    _feed(client, campaign)
    assert len(_feed(client, campaign)) == 1
    store_roll(campaign, player, label="Nadar")
    cards = _feed(client, campaign)
    assert len(cards) == 2
    assert "Nadar" in cards[0]


def test_a_renamed_character_reads_right_in_a_cached_feed(client, campaign, player):
    lucia = make_character(campaign, player, name="Lucía")
    store_roll(campaign, player, label="Trepar", character=lucia)
    client.force_login(player)
    _feed(client, campaign)
    assert "Lucía" in _feed(client, campaign)[0]
    Character.objects.filter(pk=lucia.pk).update(name="Renombrada")
    assert "Renombrada" in _feed(client, campaign)[0]


def test_a_renamed_user_reads_right_in_a_cached_feed(client, campaign, player):
    store_roll(campaign, player, label="Trepar")
    client.force_login(player)
    _feed(client, campaign)
    get_user_model().objects.filter(pk=player.pk).update(username="renombrado")
    assert _feed(client, campaign)[0].startswith("renombrado")


@pytest.mark.parametrize("first", ["gm", "player"])
def test_a_secret_roll_in_the_gms_cached_feed_never_reaches_a_player(campaign, gm, player, first):
    store_roll(campaign, player, label="A la vista")
    store_roll(campaign, player, label="En secreto", secret=True)
    clients = {}
    for who, user in (("gm", gm), ("player", player)):
        clients[who] = Client()
        clients[who].force_login(user)
    order = ["gm", "player"] if first == "gm" else ["player", "gm"]
    feeds = {who: _feed(clients[who], campaign) for who in order + order}
    assert len(feeds["gm"]) == 2
    assert [("En secreto" in card) for card in feeds["player"]] == [False]


def test_a_cached_feed_reads_no_roll(client, campaign, player):
    store_roll(campaign, player, label="Trepar")
    client.force_login(player)
    _feed(client, campaign)
    with CaptureQueriesContext(connection) as queries:
        _feed(client, campaign)
    assert not any('"mechanics_roll"' in query["sql"] for query in queries)


def test_a_feed_not_cached_reads_its_rolls_in_one_query(client, campaign, player):
    store_roll(campaign, player, label="Trepar")
    store_roll(campaign, player, label="Nadar")
    client.force_login(player)
    caches[CACHE].clear()
    with CaptureQueriesContext(connection) as queries:
        _feed(client, campaign)
    assert len([q for q in queries if 'FROM "mechanics_roll"' in q["sql"]]) == 1
