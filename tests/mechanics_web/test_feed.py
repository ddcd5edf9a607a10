"""The live roll feed: asked again by every open page at each change (or every 2 s while
the live stream is down), so it must be cheap.

A poll carries the version it shows (`since`); unchanged it gets 204 No Content after two
small queries, changed it gets the new list. Standard clients get ETag / 304.
"""

import datetime
import re

import pytest
from django.urls import reverse

from tests.factories import backdated, make_character
from tests.mechanics_web.rolls import store_roll

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def feed_url(campaign, since=None):
    url = reverse("mechanics:feed", args=[campaign.pk])
    return url if since is None else f"{url}?since={since}"


def shown_version(response) -> str:
    return re.search(r'data-version="([^"]+)"', response.content.decode()).group(1)


def shown_rolls(response) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-roll="(\d+)"', response.content.decode())]


@pytest.mark.parametrize("member", ["gm", "player", "observer"])
def test_every_member_polls_the_feed(client, campaign, player, member, request):
    roll = store_roll(campaign, player, label="Pelea")
    client.force_login(request.getfixturevalue(member))
    response = client.get(feed_url(campaign, since="0"), **HTMX)
    assert response.status_code == 200
    assert shown_rolls(response) == [roll.pk]
    html = response.content.decode()
    # The fragment asks again, at the next change, with the version it shows.
    assert 'hx-trigger="sse:change, cronica:poll from:body, cronica:roll from:body"' in html
    assert f'?since={shown_version(response)}"' in html


def test_a_stranger_gets_a_404_from_the_feed(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(feed_url(campaign), **HTMX).status_code == 404


def test_a_plain_request_for_the_feed_goes_to_the_log_page(client, campaign, player):
    client.force_login(player)
    response = client.get(feed_url(campaign))
    assert response.status_code == 302
    assert response["Location"] == reverse("mechanics:log", args=[campaign.pk])


def test_an_unchanged_feed_answers_204_and_htmx_keeps_its_list(client, campaign, player):
    store_roll(campaign, player)
    client.force_login(player)
    version = shown_version(client.get(feed_url(campaign, since="0"), **HTMX))
    response = client.get(feed_url(campaign, since=version), **HTMX)
    assert response.status_code == 204
    assert response.content == b""
    assert "HX-Request" in response["Vary"]
    assert response["ETag"].startswith('W/"rolls-')


def test_a_new_roll_reaches_the_feed_on_the_next_poll_and_is_announced(
    client, campaign, player, paula
):
    first = store_roll(campaign, player)
    client.force_login(paula)
    version = shown_version(client.get(feed_url(campaign, since="0"), **HTMX))
    second = store_roll(campaign, player, label="Disparo")
    response = client.get(feed_url(campaign, since=version), **HTMX)
    assert response.status_code == 200
    assert shown_rolls(response) == [second.pk, first.pk]
    assert shown_version(response) != version
    html = response.content.decode()
    assert 'id="roll-feed-status" hx-swap-oob="innerHTML"' in html
    assert "Nueva tirada: bob · Disparo" in html


def test_the_feeds_list_escapes_what_it_announces_and_polls_from_its_version(
    client, campaign, player, paula
):
    client.force_login(paula)
    empty = client.get(feed_url(campaign, since="x"), **HTMX).content.decode()
    assert "Aún no hay tiradas." in empty
    store_roll(campaign, player, label='<b>"Disparo"</b> & co')
    response = client.get(feed_url(campaign, since="0"), **HTMX)
    html = response.content.decode()
    assert "Nueva tirada: bob · &lt;b&gt;&quot;Disparo&quot;&lt;/b&gt; &amp; co" in html
    assert "<b>" not in html
    version = shown_version(response)
    assert f'hx-get="{feed_url(campaign, since=version)}"' in html


def test_standard_clients_get_304_for_an_unchanged_feed(client, campaign, player):
    store_roll(campaign, player)
    client.force_login(player)
    etag = client.get(feed_url(campaign), **HTMX)["ETag"]
    response = client.get(feed_url(campaign), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert response.status_code == 304
    assert response["ETag"] == etag
    store_roll(campaign, player)
    changed = client.get(feed_url(campaign), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    # Revalidated on every use, and (like every answer to a member) never stored.
    assert changed["Cache-Control"] == "private, no-cache, no-store"


def test_the_etag_differs_for_gms_who_see_secret_rolls_and_by_language(
    client, campaign, gm, player
):
    store_roll(campaign, player)
    client.force_login(player)
    player_etag = client.get(feed_url(campaign), **HTMX)["ETag"]
    client.cookies["django_language"] = "en"
    english = client.get(feed_url(campaign), **HTMX)["ETag"]
    del client.cookies["django_language"]
    client.force_login(gm)
    gm_etag = client.get(feed_url(campaign), **HTMX)["ETag"]
    assert len({player_etag, english, gm_etag}) == 3


def test_a_roll_committed_late_with_an_older_time_still_changes_the_version(
    client, campaign, player
):
    newest = store_roll(campaign, player)
    client.force_login(player)
    version = shown_version(client.get(feed_url(campaign, since="0"), **HTMX))
    with backdated(newest.created_at - datetime.timedelta(seconds=1)):
        late = store_roll(campaign, player)
    response = client.get(feed_url(campaign, since=version), **HTMX)
    assert response.status_code == 200
    assert shown_rolls(response) == [newest.pk, late.pk]


def test_a_secret_roll_wakes_the_gms_feed(client, campaign, gm):
    """A GM's feed follows every new roll (a player's, those they may see: test_secrecy)."""
    client.force_login(gm)
    version = shown_version(client.get(feed_url(campaign, since="0"), **HTMX))
    secret = store_roll(campaign, gm, secret=True)
    response = client.get(feed_url(campaign, since=version), **HTMX)
    assert response.status_code == 200
    assert shown_rolls(response) == [secret.pk]


def test_an_unchanged_poll_reads_no_roll_and_a_changed_one_reads_the_new_one(
    client, campaign, player, django_assert_num_queries
):
    for seed in range(40):
        store_roll(campaign, player, seed=seed)
    client.force_login(player)
    version = shown_version(client.get(feed_url(campaign, since="0"), **HTMX))
    # the session with its user, the membership with the campaign and its counters
    with django_assert_num_queries(2):
        assert client.get(feed_url(campaign, since=version), **HTMX).status_code == 204
    store_roll(campaign, player)
    # ... + the feed's ids with the names their cards show, and the new roll whole, with
    # who rolled, the character and the scene (the other cards are cached)
    with django_assert_num_queries(4):
        response = client.get(feed_url(campaign, since=version), **HTMX)
    assert len(shown_rolls(response)) == 10


def test_a_changed_feed_whose_cards_are_cached_reads_its_newest_roll_to_announce_it(
    client, campaign, player, paula, django_assert_num_queries
):
    first = store_roll(campaign, player)
    second = store_roll(campaign, player, label="Disparo")
    client.force_login(paula)
    client.get(feed_url(campaign, since="0"), **HTMX)
    # the session with its user, the membership, the feed's ids and names, the newest
    # roll whole
    with django_assert_num_queries(4):
        response = client.get(feed_url(campaign, since="stale"), **HTMX)
    assert shown_rolls(response) == [second.pk, first.pk]
    assert "Nueva tirada: bob · Disparo" in response.content.decode()


def test_a_renamed_roller_shows_on_every_card_of_the_next_changed_poll(
    client, campaign, player, paula
):
    store_roll(campaign, player)
    client.force_login(paula)
    version = shown_version(client.get(feed_url(campaign, since="0"), **HTMX))
    player.username = "roberto"
    player.save()
    store_roll(campaign, player, label="Disparo")
    html = client.get(feed_url(campaign, since=version), **HTMX).content.decode()
    assert html.count('roll-who fw-semibold">roberto<') == 2


def test_the_campaign_page_shows_the_feed_without_javascript(
    client, campaign, gm, player, django_assert_max_num_queries
):
    for seed in range(12):
        store_roll(campaign, player, seed=seed, label=f"Tirada {seed}")
    client.force_login(player)
    client.get(reverse("campaigns:detail", args=[campaign.pk]))
    # The page's body is cached; a new roll shows in the feed, cached apart.
    store_roll(campaign, player, seed=12, label="Tirada 12")
    with django_assert_max_num_queries(9):
        response = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    html = response.content.decode()
    assert 'id="roll-feed"' in html
    assert "Tirada 12" in html
    assert len(shown_rolls(response)) == 10
    assert reverse("mechanics:log", args=[campaign.pk]) in html


def test_every_sheet_page_shows_the_feed(client, campaign, gm, player, observer):
    lucia = make_character(campaign, player, name="Lucía")
    roll = store_roll(campaign, gm, label="Emboscada")
    url = reverse("characters:sheet", args=[campaign.pk, lucia.pk])
    for member in (player, observer):
        client.force_login(member)
        response = client.get(url)
        assert 'id="roll-feed"' in response.content.decode()
        assert shown_rolls(response) == [roll.pk]
