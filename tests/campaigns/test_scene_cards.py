"""The scene list's cards are cached (`campaigns.views.chronicle._attach_scene_cards`),
each under everything it shows: the scene and its story, its counts for this viewer, its
cast and the viewer's diary buttons. A write shows on the next request; one viewer's card
never reaches another."""

from __future__ import annotations

import pytest

from campaigns import services
from campaigns.models import Story
from characters import services as character_services
from characters.models import Character
from tests.cached import cached_keys
from tests.campaigns.test_chronicle import publish, store_roll, timeline_url
from tests.campaigns.test_timeline_cache import logged_in
from tests.factories import MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def story(campaign):
    return services.story_create(campaign=campaign, title="La línea 5")


@pytest.fixture
def scene(campaign, lucia, story):
    return services.scene_create(
        campaign=campaign, title="El archivo", story=story, participants=[lucia]
    )


def _cards_cached() -> int:
    return sum("scene-card" in key for key in cached_keys())


def _card(client, scene):
    """The scene's card in the list, as the logged-in viewer gets it."""
    response = client.get(timeline_url(scene.campaign))
    assert response.status_code == 200
    return parse(response.text).one("li", id=f"scene-{scene.pk}")


def _cached_card(client, scene):
    """The card asked twice: the second answer comes from the cache."""
    cached = _cards_cached()
    _card(client, scene)
    assert _cards_cached() == cached + 1
    return _card(client, scene)


def _counts(card) -> str:
    return card.one("p", class_="scene-counts").text()


def test_a_roll_and_a_diary_show_in_the_counts_on_the_next_request(
    client, gm, player, scene, lucia
):
    client.force_login(gm)
    assert _counts(_cached_card(client, scene)) == "0 entradas de diario · 0 tiradas"
    store_roll(scene.campaign, scene, lucia, player)
    publish(scene, lucia, player, "La puerta estaba abierta")
    assert _counts(_card(client, scene)) == "1 entrada de diario · 1 tirada"


def test_a_renamed_character_shows_on_the_next_request(client, gm, scene, lucia):
    client.force_login(gm)
    assert _cached_card(client, scene).one("p", class_="scene-cast").text().endswith("Lucía")
    # Written past the services: only the key can notice.
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Vidal")
    assert _card(client, scene).one("p", class_="scene-cast").text().endswith("Lucía Vidal")


def test_a_renamed_story_shows_on_the_next_request(client, gm, scene, story):
    client.force_login(gm)
    assert _cached_card(client, scene).one("span", class_="scene-story").text() == "La línea 5"
    Story.objects.filter(pk=story.pk).update(title="La línea 6")
    assert _card(client, scene).one("span", class_="scene-story").text() == "La línea 6"


def test_the_diary_button_follows_the_players_diary(client, player, scene, lucia):
    client.force_login(player)
    button = _cached_card(client, scene).one("a", class_="btn-outline-primary")
    assert button.text() == "Escribir el diario de Lucía"
    character_services.diary_save(
        scene=scene, character=lucia, user=player, body="Aún no", status="draft", visibility="group"
    )
    card = _cached_card(client, scene)
    assert card.one("a", class_="btn-outline-warning").text() == "Lucía: borrador"
    counted = _counts(card)
    # Published: the count stays (an author counts their own draft), the button changes.
    publish(scene, lucia, player, "Ya está")
    card = _card(client, scene)
    assert _counts(card) == counted
    assert card.one("a", class_="btn-outline-success").text() == "Lucía: diario publicado"


@pytest.mark.parametrize("gm_first", [True, False])
def test_a_cached_card_never_reaches_another_viewer(campaign, gm, player, scene, lucia, gm_first):
    store_roll(campaign, scene, lucia, gm, secret=True)
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    viewers = [
        (gm, "0 entradas de diario · 1 tirada", 0),
        (player, "0 entradas de diario · 0 tiradas", 1),
        (other, "0 entradas de diario · 0 tiradas", 0),
    ]
    for viewer, counts, buttons in logged_in(viewers, forward=gm_first):
        card = _card(viewer, scene)
        assert _counts(card) == counts
        assert len(card.find_all("a", class_="btn-sm")) == buttons
