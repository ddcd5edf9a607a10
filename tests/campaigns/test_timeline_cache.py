"""A scene's timeline is rendered once per key and cached (`campaigns.chronicle.
timeline_html`): the key holds the campaign's change sequence, which every write bumps
(`campaigns.versions`), the reader and the page asked for, so a write shows on the next
request and one reader's timeline never reaches another. The items of every source but
rolls are cached apart, under the sequence that rolls leave alone, the reader and the
scene: a roll renders its own card and reads none of them again."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns import chronicle, services
from campaigns.confirm import CONFIRMED
from campaigns.fragments import CSRF_PLACEHOLDER
from characters import services as character_services
from characters.models import Character, DiaryEntry
from mechanics import health_timeline
from mechanics.rules.tinieblas.advancement import SceneAward
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.cached import cached_keys
from tests.campaigns.test_chronicle import publish, store_roll
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


def scene_url(scene, **query) -> str:
    url = reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def logged_in(cases: list[tuple], *, forward: bool) -> list[tuple]:
    """`(client, *expected)` for each `(user, *expected)`, every client logged in before
    any reads (a login writes the user's row, which the pages name), in the order given
    or the reverse."""
    clients = []
    for user, *expected in cases:
        client = Client()
        client.force_login(user)
        clients.append((client, *expected))
    return clients if forward else clients[::-1]


def _timelines_cached() -> int:
    return sum("scene-timeline:" in key for key in cached_keys())


def _review(client, url: str):
    """The "Group review" section of the page at `url`."""
    response = client.get(url)
    assert response.status_code == 200
    return parse(response.text).one("section", id="group-review")


def _cached_review(client, scene):
    """The scene's review asked twice: the second answer comes from the cache."""
    cached = _timelines_cached()
    _review(client, scene_url(scene))
    assert _timelines_cached() == cached + 1
    return _review(client, scene_url(scene))


def _ids(review) -> set[str]:
    return {element.attrs["id"] for element in review.iter() if "id" in element.attrs}


def _write_roll(scene, lucia, player, gm):
    return f"scene-roll-{store_roll(scene.campaign, scene, lucia, player).pk}"


def _write_diary(scene, lucia, player, gm):
    return f"diary-{publish(scene, lucia, player, 'La puerta estaba abierta').pk}"


def _write_xp(scene, lucia, player, gm):
    (entry,) = character_services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 2})
    return f"xp-entry-{entry.pk}"


def _write_damage(scene, lucia, player, gm):
    event = health_services.character_apply_damage(
        character=lucia, user=gm, damage=DamageInput(1, "B"), scene=scene
    )
    return f"health-event-{event.pk}"


@pytest.mark.parametrize("write", [_write_roll, _write_diary, _write_xp, _write_damage])
def test_each_kind_of_event_shows_on_the_next_request_of_a_cached_timeline(
    client, gm, player, scene, lucia, write
):
    client.force_login(gm)
    before = _ids(_cached_review(client, scene))
    shown = write(scene, lucia, player, gm)
    assert shown not in before
    assert shown in _ids(_review(client, scene_url(scene)))


def test_a_correction_that_leaves_the_balance_shows_on_the_next_request(client, gm, scene, lucia):
    character_services.scene_award_xp(
        scene=scene, user=gm, awards={lucia.pk: SceneAward(interpretacion=2, ideas=2)}
    )
    client.force_login(gm)
    before = _ids(_cached_review(client, scene))
    # The same total by another rubric: a correction of 0 XP, the sheet unchanged.
    (entry,) = character_services.scene_award_xp(
        scene=scene, user=gm, awards={lucia.pk: SceneAward(interpretacion=3, ideas=1)}
    )
    assert entry.amount == 0
    assert f"xp-entry-{entry.pk}" not in before
    assert f"xp-entry-{entry.pk}" in _ids(_review(client, scene_url(scene)))


def test_a_renamed_character_and_user_show_on_the_next_request(client, gm, player, scene, lucia):
    roll = store_roll(scene.campaign, scene, lucia, player)
    client.force_login(gm)
    card = _cached_review(client, scene).one(id=f"scene-roll-{roll.pk}")
    assert "Lucía" in card.text()
    assert player.username in card.text()
    # Written past the services and signals: only the key can notice.
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Vidal")
    get_user_model().objects.filter(pk=player.pk).update(username="lvidal")
    card = _review(client, scene_url(scene)).one(id=f"scene-roll-{roll.pk}")
    assert "Lucía Vidal" in card.text()
    assert "lvidal" in card.text()


@pytest.mark.parametrize("gm_first", [True, False])
def test_a_cached_timeline_never_reaches_another_reader(client, gm, player, scene, lucia, gm_first):
    secret = f"scene-roll-{store_roll(scene.campaign, scene, lucia, gm, secret=True).pk}"
    shown = f"scene-roll-{store_roll(scene.campaign, scene, lucia, player, seed=2).pk}"
    for reader, sees_secret in logged_in([(gm, True), (player, False)], forward=gm_first):
        ids = _ids(_cached_review(reader, scene))
        assert shown in ids
        assert (secret in ids) is sees_secret


def test_a_diary_the_gm_hides_leaves_the_players_cached_timeline(
    client, gm, player2, scene, lucia, player
):
    entry = publish(scene, lucia, player, "Lo que vi en el archivo")
    client.force_login(player2)
    assert f"diary-{entry.pk}" in _ids(_cached_review(client, scene))
    character_services.diary_set_hidden(entry=entry, user=gm, hidden=True)
    assert f"diary-{entry.pk}" not in _ids(_review(client, scene_url(scene)))


def test_each_page_of_the_timeline_is_cached_apart(client, gm, player, scene, lucia, monkeypatch):
    monkeypatch.setattr(chronicle, "TIMELINE_PAGE", 2)
    rolls = [store_roll(scene.campaign, scene, lucia, player, seed=seed) for seed in range(3)]
    client.force_login(gm)
    first = _cached_review(client, scene)
    assert {f"scene-roll-{roll.pk}" for roll in rolls[:2]} <= _ids(first)
    later = first.one("a", rel="next").attrs["href"]
    second = _review(client, reverse("campaigns:scene", args=[scene.campaign_id, scene.pk]) + later)
    assert f"scene-roll-{rolls[2].pk}" in _ids(second)
    assert f"scene-roll-{rolls[0].pk}" not in _ids(second)


def test_the_cached_timeline_follows_the_readers_language(client, gm, scene):
    client.force_login(gm)
    assert _cached_review(client, scene).one("h2").text() == "Repaso en grupo"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert _review(client, scene_url(scene)).one("h2").text() == "Group review"


def test_the_forms_of_a_cached_timeline_carry_each_browsers_own_token(gm, player, scene, lucia):
    entry = publish(scene, lucia, player, "Un diario que el máster esconderá")
    first = Client(enforce_csrf_checks=True)
    first.force_login(gm)
    _cached_review(first, scene)
    second = Client(enforce_csrf_checks=True)
    second.force_login(gm)
    page = second.get(scene_url(scene)).text
    assert CSRF_PLACEHOLDER not in page
    form = parse(page).one("article", id=f"diary-{entry.pk}").one("form")
    token = form.one("input", name="csrfmiddlewaretoken").attrs["value"]
    response = second.post(
        form.attrs["action"], {"hidden": "1", CONFIRMED: "1", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.hidden_at is not None


@pytest.mark.parametrize("gm_first", [True, False])
def test_a_sources_cached_items_never_reach_another_reader(
    gm, player, player2, scene, lucia, gm_first
):
    """Each reader's page is a page of its own."""
    only_gm = f"diary-{publish(scene, lucia, player, 'Solo para el máster', 'gm_only').pk}"
    for reader, sees_it in logged_in([(gm, True), (player2, False)], forward=gm_first):
        assert (only_gm in _ids(_review(reader, scene_url(scene)))) is sees_it


# Tables only the timeline's other sources read (the page reads the viewer's own diaries
# for its buttons): none is read again after a roll.
OTHER_SOURCES = ("characters_xpentry", "characters_healthevent", "campaigns_combat")


@pytest.mark.parametrize(
    ("reader", "secret", "sees_it"),
    [
        ("gm", False, True),
        ("gm", True, True),
        ("player", False, True),
        ("player", True, False),
    ],
)
def test_after_a_roll_the_next_request_shows_its_card_and_reads_no_other_source(
    request, gm, player, scene, lucia, reader, secret, sees_it
):
    """The rest of the timeline stays cached through a roll; a secret roll's card still
    reaches the GMs alone."""
    publish(scene, lucia, player, "La puerta estaba abierta")
    _write_xp(scene, lucia, player, gm)
    _write_damage(scene, lucia, player, gm)
    client = Client()
    client.force_login(request.getfixturevalue(reader))
    before = _ids(_cached_review(client, scene))
    roll = store_roll(scene.campaign, scene, lucia, gm, secret=secret)
    with CaptureQueriesContext(connection) as queries:
        after = _ids(_review(client, scene_url(scene)))
    timeline = [q["sql"] for q in queries if any(t in q["sql"] for t in OTHER_SOURCES)]
    assert timeline == []
    assert (f"scene-roll-{roll.pk}" in after) is sees_it
    assert after - {f"scene-roll-{roll.pk}"} == before


def test_a_stranger_gets_no_timeline_after_a_roll(client, stranger, player, scene, lucia):
    store_roll(scene.campaign, scene, lucia, player)
    client.force_login(stranger)
    assert client.get(scene_url(scene)).status_code == 404


def test_a_scenes_cached_items_never_show_in_another_scene(client, gm, player, scene, lucia):
    other = services.scene_create(campaign=scene.campaign, title="El muelle", participants=[lucia])
    entry = publish(scene, lucia, player, "Solo de esta escena")
    client.force_login(gm)
    assert f"diary-{entry.pk}" in _ids(_cached_review(client, scene))
    assert f"diary-{entry.pk}" not in _ids(_review(client, scene_url(other)))


def test_diaries_and_xp_awards_changed_past_the_services_show_on_the_next_request(
    client, gm, player, scene, lucia
):
    """Each diary and XP award is cached apart, under its row, the names it shows and the
    campaign's version: a change written past the services still shows (XP entries are
    append-only: only their names change)."""
    entry = publish(scene, lucia, player, "La puerta estaba abierta")
    (award,) = character_services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 2})
    client.force_login(gm)
    review = _cached_review(client, scene)
    assert "La puerta estaba abierta" in review.one("article", id=f"diary-{entry.pk}").text()
    DiaryEntry.objects.filter(pk=entry.pk).update(body_html="<p>La puerta estaba cerrada</p>")
    review = _review(client, scene_url(scene))
    assert "La puerta estaba cerrada" in review.one("article", id=f"diary-{entry.pk}").text()
    DiaryEntry.objects.filter(pk=entry.pk).update(hidden_at=timezone.now())
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Vidal")
    get_user_model().objects.filter(pk=gm.pk).update(username="la_directora")
    review = _review(client, scene_url(scene))
    diary = review.one("article", id=f"diary-{entry.pk}").text()
    assert "Oculto por el máster" in diary
    assert "Lucía Vidal" in diary
    assert "Lucía Vidal" in review.one(id=f"xp-entry-{award.pk}").text()
    assert "la_directora" in review.one(id=f"xp-entry-{award.pk}").text()


@pytest.mark.parametrize("gm_first", [True, False])
def test_a_cached_diary_shows_each_reader_their_own_buttons(
    gm, player, player2, scene, lucia, gm_first
):
    """The GM's hide form and the author's edit link stay on their own pages."""
    entry = publish(scene, lucia, player, "Lo que vi en el archivo")
    cases = [(gm, "Ocultar al grupo"), (player, "Editar"), (player2, None)]
    for reader, button in logged_in(cases, forward=gm_first):
        footer = _review(reader, scene_url(scene)).one("article", id=f"diary-{entry.pk}")
        links = [element.text() for element in footer.iter() if element.tag in ("a", "button")]
        assert links == ([button] if button else [])


def _templates_rendered(monkeypatch) -> list[str]:
    """The items' templates the timeline renders from now on, in order."""
    rendered = []
    original = chronicle.get_template

    def counted(name):
        rendered.append(name)
        return original(name)

    monkeypatch.setattr(chronicle, "get_template", counted)
    return rendered


def test_after_a_wound_or_xp_elsewhere_no_diary_or_award_renders_again(
    client, gm, player, player2, scene, lucia, monkeypatch
):
    publish(scene, lucia, player, "La puerta estaba abierta")
    character_services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 2})
    pablo = make_character(scene.campaign, player2, name="Pablo")
    services.scene_update(scene=scene, title=scene.title, participants=[lucia, pablo])
    client.force_login(gm)
    before = _ids(_cached_review(client, scene))
    rendered = _templates_rendered(monkeypatch)
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    character_services.xp_adjust(character=lucia, user=gm, amount=1, reason="Bien jugado")
    assert _ids(_review(client, scene_url(scene))) == before
    assert rendered == []
    entry = publish(scene, pablo, player2, "Pablo también escribe")
    assert f"diary-{entry.pk}" in _ids(_review(client, scene_url(scene)))
    assert rendered == ["campaigns/timeline/diary.html"]


def test_after_a_wound_in_the_scene_only_its_event_renders(
    client, gm, player, player2, scene, lucia, monkeypatch
):
    pablo = make_character(scene.campaign, player2, name="Pablo")
    services.scene_update(scene=scene, title=scene.title, participants=[lucia, pablo])
    first = _write_damage(scene, lucia, player, gm)
    health_services.scene_advance_time(scene=scene, user=gm, hours=1, reason="Descanso")
    client.force_login(gm)
    review = _cached_review(client, scene)
    passed = review.one(class_="chronicle-time").text()
    assert "Lucía" in passed
    assert "Pablo" in passed
    rendered = []
    original = health_timeline.render_to_string

    def counted(name, context):
        rendered.append(name)
        return original(name, context)

    monkeypatch.setattr(health_timeline, "render_to_string", counted)
    second = _write_damage(scene, lucia, player, gm)
    with CaptureQueriesContext(connection) as queries:
        review = _review(client, scene_url(scene))
    assert {first, second} <= _ids(review)
    assert rendered == ["mechanics/_health_item.html"]
    # Of the scene's events, only the new one is read whole (with its names).
    (whole,) = [q["sql"] for q in queries if "healthevent" in q["sql"] and "auth_user" in q["sql"]]
    assert f"IN ({second.removeprefix('health-event-')})" in whole
    # Written past the services and signals: the names follow the campaign's version.
    Character.objects.filter(pk=pablo.pk).update(name="Pablo Ruiz")
    get_user_model().objects.filter(pk=gm.pk).update(username="directora")
    review = _review(client, scene_url(scene))
    assert "Pablo Ruiz" in review.one(class_="chronicle-time").text()
    assert "directora" in review.one(id=second).text()


def test_a_time_advance_joined_by_another_character_shows_both(client, gm, player2, scene, lucia):
    pablo = make_character(scene.campaign, player2, name="Pablo")
    services.scene_update(scene=scene, title=scene.title, participants=[lucia, pablo])
    advance = {"user": gm, "hours": 1, "reason": "Descanso", "scene": scene}
    health_services.character_advance_time(character=lucia, **advance)
    client.force_login(gm)
    assert "Pablo" not in _cached_review(client, scene).one(class_="chronicle-time").text()
    # Moments later, the same advance for another character: one item, with both.
    health_services.character_advance_time(character=pablo, **advance)
    passed = _review(client, scene_url(scene)).one(class_="chronicle-time").text()
    assert "Lucía" in passed
    assert "Pablo" in passed


@pytest.mark.parametrize("write", [_write_diary, _write_xp, _write_damage])
def test_after_any_write_but_a_roll_the_rolls_are_not_read_again(
    client, gm, player, scene, lucia, write, monkeypatch
):
    store_roll(scene.campaign, scene, lucia, player)
    client.force_login(gm)
    before = _ids(_cached_review(client, scene))
    paged = []
    (rolls,) = [pager for pager in chronicle._pagers if "roll" in pager.kinds]

    def counted(*args):
        paged.append(args)
        return rolls.rows(*args)

    others = [pager for pager in chronicle._pagers if pager is not rolls]
    monkeypatch.setattr(chronicle, "_pagers", [replace(rolls, rows=counted), *others])
    shown = write(scene, lucia, player, gm)
    after = _ids(_review(client, scene_url(scene)))
    assert shown in after
    assert before < after
    assert paged == []
    roll = _write_roll(scene, lucia, player, gm)
    assert roll in _ids(_review(client, scene_url(scene)))
    assert len(paged) == 1
