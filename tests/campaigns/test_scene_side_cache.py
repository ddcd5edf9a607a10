"""The scene page's side cards are cached: the cast with the reader's diaries to write
under the campaign's sequence but rolls, the reader and the scene
(`campaigns.views.chronicle._cast_key`), the GM's notes under the campaign's version, the
scene and the reader's role (`_chrome_key`). A write to what they show appears on the
next request, a roll reads none of their rows again, a wound or XP not the notes, and one
reader's cards never reach another's page or another scene."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import services
from campaigns.models import SceneNote
from characters import services as character_services
from characters.models import Character
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.campaigns.test_chronicle import draft, store_roll
from tests.campaigns.test_timeline_cache import logged_in, scene_url
from tests.factories import MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


def _side(client, scene):
    """The page's side cards, as `(cast text, diary buttons, notes text or None)`."""
    response = client.get(scene_url(scene))
    assert response.status_code == 200
    page = parse(response.text)
    cast = page.one("section", id="participants")
    buttons = [a.text() for a in cast.find_all("a")]
    notes = page.find_all("section", id="gm-notes")
    return cast.text(), buttons, notes[0].text() if notes else None


def _cached_side(client, scene):
    _side(client, scene)
    return _side(client, scene)


def test_a_new_note_shows_on_the_next_request_and_only_to_gms(gm, player, scene):
    (gm_client,), (player_client,) = logged_in([(gm,), (player,)], forward=True)
    assert "Aún no hay notas" in _cached_side(gm_client, scene)[2]
    assert _cached_side(player_client, scene)[2] is None
    services.scene_note_save(scene=scene, author=gm, body="El archivero miente")
    assert "El archivero miente" in _side(gm_client, scene)[2]
    assert _side(player_client, scene)[2] is None


def test_a_note_changed_past_the_services_and_its_renamed_author_show_on_the_next_request(
    client, gm, scene
):
    client.force_login(gm)
    note = services.scene_note_save(scene=scene, author=gm, body="El archivero miente")
    assert "El archivero miente" in _cached_side(client, scene)[2]
    SceneNote.objects.filter(pk=note.pk).update(body_html="<p>El archivero calla</p>")
    assert "El archivero calla" in _side(client, scene)[2]
    get_user_model().objects.filter(pk=gm.pk).update(username="la_directora")
    assert "la_directora" in _side(client, scene)[2]


def test_after_a_wound_or_xp_the_notes_read_no_row_again(client, gm, scene, lucia):
    client.force_login(gm)
    services.scene_note_save(scene=scene, author=gm, body="El archivero miente")
    before = _cached_side(client, scene)
    damage = DamageInput(amount=1, damage_type="B")
    health_services.character_apply_damage(character=lucia, user=gm, damage=damage)
    character_services.xp_adjust(character=lucia, user=gm, amount=1, reason="Bien jugado")
    with CaptureQueriesContext(connection) as queries:
        assert _side(client, scene) == before
    assert [q["sql"] for q in queries if "scenenote" in q["sql"]] == []


def test_a_new_cast_member_and_a_renamed_one_show_on_the_next_request(
    client, gm, player, campaign, scene, lucia
):
    client.force_login(gm)
    assert "Lucía" in _cached_side(client, scene)[0]
    pablo = make_character(campaign, player, name="Pablo")
    services.scene_update(scene=scene, title=scene.title, participants=[lucia, pablo])
    assert "Pablo" in _side(client, scene)[0]
    # Written past the services: only the key can notice.
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Vidal")
    assert "Lucía Vidal" in _side(client, scene)[0]


def test_a_players_draft_changes_their_diary_button_on_the_next_request(
    client, player, scene, lucia
):
    client.force_login(player)
    assert _cached_side(client, scene)[1] == ["Escribir el diario de Lucía"]
    draft(scene, lucia, player, "Borrador")
    assert _side(client, scene)[1] == ["Terminar el borrador de Lucía"]


@pytest.mark.parametrize("owner_first", [True, False])
def test_a_players_diary_buttons_never_reach_another_reader(
    campaign, gm, player, scene, owner_first
):
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    for reader, buttons in logged_in([(player, 1), (gm, 0), (other, 0)], forward=owner_first):
        assert len(_cached_side(reader, scene)[1]) == buttons


def test_a_scenes_cached_cast_never_shows_in_another_scene(client, gm, player, campaign, scene):
    pablo = make_character(campaign, player, name="Pablo")
    other = services.scene_create(campaign=campaign, title="El muelle", participants=[pablo])
    client.force_login(gm)
    assert "Lucía" in _cached_side(client, scene)[0]
    assert "Lucía" not in _side(client, other)[0]


def test_after_a_roll_the_side_cards_read_no_row_again(client, gm, player, scene, lucia):
    client.force_login(gm)
    before = _cached_side(client, scene)
    store_roll(scene.campaign, scene, lucia, player)
    with CaptureQueriesContext(connection) as queries:
        assert _side(client, scene) == before
    read = [
        q["sql"] for q in queries if "scene_participants" in q["sql"] or "scenenote" in q["sql"]
    ]
    assert read == []


def test_a_stranger_gets_no_side_cards(client, stranger, scene):
    client.force_login(stranger)
    assert client.get(scene_url(scene)).status_code == 404
