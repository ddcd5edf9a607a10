"""What the scene page shows of the scene itself (its header, its combat and system links,
the GM's time card) is cached under the campaign's version, the scene and what the reader
may do (`campaigns.views.chronicle._chrome_key`): a change to the scene or its story shows
on the next request, a GM's buttons never reach a player, and each form carries the
response's own CSRF token."""

from __future__ import annotations

import pytest

from campaigns import services
from campaigns.fragments import CSRF_PLACEHOLDER
from campaigns.models import Scene, Story
from tests.campaigns.test_timeline_cache import logged_in, scene_url
from tests.html import parse

pytestmark = pytest.mark.django_db


def _chrome(client, scene):
    """`(header text, combat link text, has the time card)` of the scene page."""
    response = client.get(scene_url(scene))
    assert response.status_code == 200
    assert CSRF_PLACEHOLDER not in response.text
    page = parse(response.text)
    combat = page.find_all("section", id="scene-combat")
    return (
        " ".join(page.one("header", id="scene-header").text().split()),
        combat[0].text().strip() if combat else None,
        bool(page.find_all("section", id="scene-time")),
    )


def _cached_chrome(client, scene):
    _chrome(client, scene)
    return _chrome(client, scene)


def test_a_scenes_new_title_story_place_and_status_show_on_the_next_request(
    gm, player, campaign, scene
):
    cases = [(gm, "Cerrar escena"), (player, None)]
    for client, button in logged_in(cases, forward=True):
        header = _cached_chrome(client, scene)[0]
        assert "El archivo" in header
        assert ("Cerrar escena" in header) == bool(button)
    story = services.story_create(campaign=campaign, title="Ecos")
    # Written past the services: only the key can notice.
    Scene.objects.filter(pk=scene.pk).update(title="El archivo quemado", place="Sótano")
    Scene.objects.filter(pk=scene.pk).update(story=story)
    for client, _button in logged_in(cases, forward=False):
        header = _chrome(client, scene)[0]
        assert all(text in header for text in ("El archivo quemado", "Sótano", "Ecos"))
    Story.objects.filter(pk=story.pk).update(title="Ecos del pozo")
    services.scene_close(scene=Scene.objects.get(pk=scene.pk))
    for client, button in logged_in(cases, forward=True):
        header = _chrome(client, scene)[0]
        assert all(text in header for text in ("Ecos del pozo", "Cerrada"))
        assert ("Reabrir escena" in header) == bool(button)


@pytest.mark.parametrize("gm_first", [True, False])
def test_a_gms_buttons_and_time_card_never_reach_a_player(gm, player, scene, gm_first):
    cases = [(gm, True, "Panel de combate"), (player, False, "Ver el combate")]
    for client, gm_view, combat in logged_in(cases, forward=gm_first):
        header, link, time_card = _cached_chrome(client, scene)
        assert ("Editar escena" in header) == gm_view
        assert time_card == gm_view
        assert link is None or combat in link


def test_each_scene_has_its_own_header(client, gm, campaign, scene, lucia):
    other = services.scene_create(campaign=campaign, title="El muelle", participants=[lucia])
    client.force_login(gm)
    assert "El archivo" in _cached_chrome(client, scene)[0]
    assert "El muelle" in _chrome(client, other)[0]


def test_the_cached_forms_carry_the_responses_own_token(client, gm, scene):
    client.force_login(gm)
    _chrome(client, scene)
    response = client.get(scene_url(scene))
    page = parse(response.text)
    fields = page.find_all("input", name="csrfmiddlewaretoken")
    # The header's close button, the time card and the notes: one masked token for all.
    assert len(fields) >= 3
    assert len({field.attrs["value"] for field in fields}) == 1
