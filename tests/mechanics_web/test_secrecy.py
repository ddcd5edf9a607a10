"""GM secret rolls never reach anyone but GMs: not in the feed, the log, counts or exports.

A secret roll with a canary label is planted; every page and endpoint a player or an
observer can reach must read exactly as it did before the roll was made.
"""

import re

import pytest
from django.urls import reverse

from mechanics.models import Roll
from tests.factories import make_character
from tests.mechanics_web.rolls import CANARY, make_scene, store_roll

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# The URLs of the sweep a member may not use: the free roller, and for observers rolling.
REFUSED = {
    "player": {"mechanics:free_roll"},
    "observer": {"mechanics:free_roll", "mechanics:roll"},
}


@pytest.fixture
def table(campaign, gm, player):
    """A campaign in play: a player's character, an NPC, an open scene, one public roll."""
    lucia = make_character(campaign, player, name="Lucía")
    npc = make_character(campaign, None, name="El guardia", user=gm)
    scene = make_scene(campaign, "La emboscada")
    scene.participants.add(lucia, npc)
    store_roll(campaign, player, character=lucia, scene=scene, label="Sigilo")
    return {"lucia": lucia, "npc": npc, "scene": scene}


def plant_secret_rolls(client, campaign, gm, table):
    store_roll(
        campaign, gm, character=table["npc"], scene=table["scene"], label=CANARY, secret=True
    )
    client.force_login(gm)
    response = client.post(
        reverse("mechanics:free_roll", args=[campaign.pk]),
        {"expression": "3d10 central", "label": CANARY, "secret": "on"},
    )
    assert response.status_code == 302
    assert Roll.objects.filter(secret=True).count() == 2


def reachable(campaign, table) -> list[tuple[str, str, dict]]:
    """Every page and endpoint that lists, counts or exports rolls."""
    pk = campaign.pk
    names = [
        ("campaigns:detail", [pk], {}),
        ("campaigns:timeline", [pk], {}),
        ("campaigns:scene", [pk, table["scene"].pk], {}),
        ("characters:sheet", [pk, table["lucia"].pk], {}),
        ("characters:sheet", [pk, table["npc"].pk], {}),
        ("mechanics:roll", [pk, table["lucia"].pk], {}),
        ("mechanics:log", [pk], {}),
        ("mechanics:log", [pk], {"query": "?character=%s" % table["npc"].pk}),
        ("mechanics:log", [pk], {"query": "?scene=%s" % table["scene"].pk}),
        ("mechanics:feed", [pk], {"query": "?since=0", "headers": HTMX}),
        ("mechanics:log_export", [pk], {"query": "?format=csv"}),
        ("mechanics:log_export", [pk], {"query": "?format=json"}),
        ("mechanics:free_roll", [pk], {}),
    ]
    # A name that no longer resolves fails here: the sweep never shrinks silently.
    return [
        (name, reverse(name, args=args) + options.get("query", ""), options.get("headers", {}))
        for name, args, options in names
    ]


def read(client, url, headers) -> tuple[int, str]:
    response = client.get(url, **headers)
    if response.streaming:
        body = b"".join(response.streaming_content).decode()
    else:
        body = response.content.decode()
    # What differs between two identical requests: CSRF tokens, CSP nonces, the export's time.
    body = re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": |nonce=)"[^"]+"', r"\1", body)
    body = re.sub(r'"exported_at": "[^"]+"', "", body)
    return response.status_code, body


@pytest.mark.parametrize("member", ["player", "observer"])
def test_a_secret_roll_changes_nothing_a_player_or_observer_can_see(
    client, campaign, gm, member, table, request
):
    reader = request.getfixturevalue(member)
    urls = reachable(campaign, table)
    client.force_login(reader)
    before = {url: read(client, url, headers) for _name, url, headers in urls}
    # Each page answers the reader (refusals only where the role may not act), so the
    # comparison below is never between two error pages.
    for name, url, _headers in urls:
        assert before[url][0] == (403 if name in REFUSED[member] else 200), url
    plant_secret_rolls(client, campaign, gm, table)
    client.force_login(reader)
    for _name, url, headers in urls:
        status, body = read(client, url, headers)
        assert CANARY not in body, url
        assert (status, body) == before[url], url


def test_a_secret_roll_does_not_wake_a_players_feed(client, campaign, gm, player, table):
    """Not even the timing of a secret roll leaks: the player's feed version is unchanged."""
    feed = reverse("mechanics:feed", args=[campaign.pk])
    client.force_login(player)
    first = client.get(f"{feed}?since=0", **HTMX)
    version = re.search(r'data-version="([^"]+)"', first.content.decode()).group(1)
    etag = first["ETag"]
    plant_secret_rolls(client, campaign, gm, table)
    client.force_login(player)
    assert client.get(f"{feed}?since={version}", **HTMX).status_code == 204
    assert client.get(feed, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304


def test_gms_see_secret_rolls_in_the_feed_the_log_and_the_export(client, campaign, gm, table):
    plant_secret_rolls(client, campaign, gm, table)
    client.force_login(gm)
    pk = campaign.pk
    feed = client.get(reverse("mechanics:feed", args=[pk]) + "?since=0", **HTMX)
    log = client.get(reverse("mechanics:log", args=[pk]))
    export = client.get(reverse("mechanics:log_export", args=[pk]))
    feed_list, announcement = feed.content.decode().split('id="roll-feed-status"')
    assert feed_list.count(CANARY) == 2
    assert CANARY in announcement
    assert log.content.decode().count(CANARY) == 2
    assert "3 tiradas" in log.content.decode()
    assert "Secreta" in log.content.decode()
    assert b"".join(export.streaming_content).decode().count(CANARY) == 2


def test_the_players_log_counts_only_what_they_may_see(client, campaign, gm, player, table):
    plant_secret_rolls(client, campaign, gm, table)
    client.force_login(player)
    html = client.get(reverse("mechanics:log", args=[campaign.pk])).content.decode()
    assert "1 tirada" in html
    assert "3 tiradas" not in html
