"""The scene list's page (its scenes, their counts and casts, the reader's diary buttons)
is cached under the campaign's change sequence, the reader, the story and the page asked
for (`campaigns.views.chronicle.timeline`), the stories under the campaign's version: a
write shows on the next request, and one reader's counts never reach another."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.models import Story
from characters.models import Character
from tests.campaigns.test_chronicle import draft, store_roll
from tests.campaigns.test_timeline_cache import logged_in
from tests.html import parse

pytestmark = pytest.mark.django_db


def _list(client, campaign, **query):
    url = reverse("campaigns:timeline", args=[campaign.pk])
    response = client.get(url, query)
    assert response.status_code == 200
    return parse(response.text)


def _card(client, scene, **query) -> str:
    return _list(client, scene.campaign, **query).one("li", id=f"scene-{scene.pk}").text()


def test_a_warm_list_reads_no_scene(client, gm, scene):
    client.force_login(gm)
    _list(client, scene.campaign)
    with CaptureQueriesContext(connection) as queries:
        _list(client, scene.campaign)
    assert [q["sql"] for q in queries if "campaigns_scene" in q["sql"]] == []


def test_a_new_scene_a_renamed_one_and_a_renamed_character_show_on_the_next_request(
    gm, player, campaign, scene, lucia
):
    cases = [(gm,), (player,)]
    for (client,) in logged_in(cases, forward=True):
        assert "Lucía" in _card(client, scene)
    other = services.scene_create(campaign=campaign, title="El muelle", participants=[lucia])
    # Written past the services: only the key can notice.
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Vidal")
    for (client,) in logged_in(cases, forward=False):
        assert "Lucía Vidal" in _card(client, scene)
        assert "El muelle" in _card(client, other)


@pytest.mark.parametrize("gm_first", [True, False])
def test_a_secret_roll_and_a_draft_count_for_their_readers_alone(
    gm, player, campaign, scene, lucia, gm_first
):
    cases = [(gm, "1 tirada", "0 entradas"), (player, "0 tiradas", "1 entrada")]
    clients = logged_in(cases, forward=gm_first)
    for client, *_counts in clients:
        assert "0 tiradas" in _card(client, scene)
    store_roll(campaign, scene, lucia, gm, secret=True)
    draft(scene, lucia, player, "Borrador")
    for client, rolls, diaries in clients:
        card = _card(client, scene)
        assert rolls in card
        assert diaries in card


def test_stories_and_pages_are_cached_apart(client, gm, campaign, scene, lucia, monkeypatch):
    story = services.story_create(campaign=campaign, title="Ecos")
    told = services.scene_create(
        campaign=campaign, title="El pozo", story=story, participants=[lucia]
    )
    client.force_login(gm)
    everything = _list(client, campaign).text()
    assert "El archivo" in everything
    assert "El pozo" in everything
    only_story = _list(client, campaign, story=story.pk).text()
    assert "El archivo" not in only_story
    assert "El pozo" in only_story
    Story.objects.filter(pk=story.pk).update(title="Ecos del pozo")
    assert "Ecos del pozo" in _list(client, campaign).one("nav", class_="story-filter").text()
    assert "El pozo" in _card(client, told, story=story.pk)
    monkeypatch.setattr("campaigns.views.chronicle.SCENES_PER_PAGE", 1)
    first = _list(client, campaign, page=1).text()
    second = _list(client, campaign, page=2).text()
    assert ("El pozo" in first) != ("El pozo" in second)


def test_an_unknown_story_is_not_found_and_a_stranger_gets_nothing(client, stranger, gm, scene):
    url = reverse("campaigns:timeline", args=[scene.campaign_id])
    client.force_login(gm)
    assert client.get(url, {"story": "999999"}).status_code == 404
    client.force_login(stranger)
    assert client.get(url).status_code == 404
