"""The chronicle: stories, scenes, the timeline, the scene page, diaries and GM notes."""

import html
import random
import re
from datetime import date, timedelta

import pytest
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone, translation

from campaigns import chronicle, services
from campaigns.fragments import CACHE
from campaigns.markdown import render_markdown
from campaigns.models import Scene, SceneNote, Story
from campaigns.views.chronicle import SCENES_PER_PAGE
from characters import services as character_services
from characters.models import DiaryEntry
from mechanics.presentation import roll_display
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    backdated,
    make_character,
)
from tests.html import parse

pytestmark = pytest.mark.django_db

CANARY_DIARY = "CANARIO-SECRETO-123"
CANARY_NOTE = "CANARIO-NOTA-456"
CANARY_DRAFT = "CANARIO-BORRADOR-789"


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def mateo(campaign, player2):
    return make_character(campaign, player2, name="Mateo")


@pytest.fixture
def scene(campaign, lucia, mateo):
    return services.scene_create(
        campaign=campaign,
        title="La noche del incendio",
        date=date(2025, 3, 14),
        session_number=3,
        place="Toledo",
        summary="Las **llamas** devoran el archivo.",
        participants=[lucia, mateo],
    )


def login(client, user):
    client.force_login(user)
    return client


def timeline_url(campaign):
    return reverse("campaigns:timeline", args=[campaign.pk])


def scene_url(scene):
    return reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])


def diary_url(scene, character):
    return reverse("characters:diary", args=[scene.campaign_id, character.pk, scene.pk])


def publish(scene, character, user, body, visibility="group"):
    return character_services.diary_save(
        scene=scene,
        character=character,
        user=user,
        body=body,
        status="published",
        visibility=visibility,
    )


def draft(scene, character, user, body):
    return character_services.diary_save(
        scene=scene, character=character, user=user, body=body, status="draft", visibility="group"
    )


def store_roll(campaign, scene, character, user, *, secret=False, seed=1):
    """A real engine roll (five dice) stored the way the roll endpoints store one."""
    return roll_store(
        campaign=campaign,
        user=user,
        record=roll_dice(5, rng=random.Random(seed)),
        character=character,
        scene=scene,
        label="Astucia + Investigación",
        secret=secret,
    )


# Markdown


def test_markdown_renders_formatting_lists_and_links():
    html = render_markdown("**negrita** y *cursiva*\n\n- uno\n- dos\n\n[web](https://example.org)")
    assert "<strong>negrita</strong>" in html
    assert "<em>cursiva</em>" in html
    assert "<li>uno</li>" in html
    assert 'href="https://example.org"' in html
    assert "nofollow" in html


@pytest.mark.parametrize(
    "payload",
    [
        "<script>alert('x')</script>",
        "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
        "<img src=x onerror=alert(1)>",
        "<svg onload=alert(1)>",
        "<body onload=alert(1)>",
        '<a href="javascript:alert(1)" onclick="alert(2)">clic</a>',
        "[clic](javascript:alert(1))",
        "[clic](JaVaScRiPt:alert(1))",
        "[clic](&#106;avascript:alert(1))",
        "[clic]( javascript:alert(1))",
        "<iframe src='https://evil.example'></iframe>",
        "[clic](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        '<div style="background:url(javascript:alert(1))" onmouseover="alert(1)">x</div>',
        "<scr<script>ipt>alert(1)</script>",
        "<form action='https://evil.example'><input name=x></form>",
        "![x](https://evil.example/pixel.png)",
    ],
)
def test_markdown_with_script_handler_or_javascript_payloads_renders_harmless(payload):
    html = render_markdown(f"Antes\n\n{payload}\n\nDespués").lower()
    assert "<script" not in html
    assert "javascript:" not in html
    assert "data:text" not in html
    assert not re.search(r"\son\w+\s*=", html)
    for tag in ("<iframe", "<svg", "<img", "<form", "<input", "<body", "style="):
        assert tag not in html
    assert "después" in html


def test_markdown_of_nothing_is_empty():
    assert render_markdown("") == ""


# Services


def test_scene_create_refuses_a_character_of_another_campaign(campaign, lucia):
    other = make_character(CampaignFactory(), None, name="Intruso")
    with pytest.raises(ValidationError):
        services.scene_create(campaign=campaign, title="X", participants=[lucia, other])
    assert not Scene.objects.exists()


def test_scene_create_refuses_a_story_of_another_campaign(campaign):
    story = services.story_create(campaign=CampaignFactory(), title="Ajena")
    with pytest.raises(ValidationError):
        services.scene_create(campaign=campaign, title="X", story=story)


def test_stories_take_the_next_position(campaign):
    first = services.story_create(campaign=campaign, title="Uno")
    second = services.story_create(campaign=campaign, title="Dos")
    assert (first.position, second.position) == (0, 1)


def test_closing_and_reopening_a_scene(scene):
    closed = services.scene_close(scene=scene)
    assert closed.status == "closed"
    assert closed.closed_at is not None
    assert services.scene_close(scene=closed).closed_at == closed.closed_at
    reopened = services.scene_reopen(scene=closed)
    assert reopened.status == "open"
    assert reopened.closed_at is None


def test_one_diary_entry_per_scene_and_character(scene, lucia, player):
    first = character_services.diary_save(
        scene=scene, character=lucia, user=player, body="v1", status="draft", visibility="group"
    )
    assert first.published_at is None
    second = publish(scene, lucia, player, "v2")
    assert first.pk == second.pk
    assert DiaryEntry.objects.get().body == "v2"
    assert second.published_at is not None
    published_at = second.published_at
    third = publish(scene, lucia, player, "v3")
    assert third.published_at == published_at  # its place in the timeline stays


def test_diary_refuses_a_character_not_in_the_scene(campaign, scene, player):
    outsider = make_character(campaign, player, name="Fuera")
    with pytest.raises(ValidationError):
        publish(scene, outsider, player, "texto")


def test_diary_refuses_another_players_character(scene, mateo, player):
    with pytest.raises(ValidationError):
        publish(scene, mateo, player, "texto")


def test_diary_refuses_an_empty_text_or_bad_choices(scene, lucia, player):
    with pytest.raises(ValidationError):
        publish(scene, lucia, player, "   ")
    with pytest.raises(ValidationError):
        publish(scene, lucia, player, "x", visibility="everyone")
    with pytest.raises(ValidationError):
        character_services.diary_save(
            scene=scene, character=lucia, user=player, body="x", status="gone", visibility="group"
        )
    assert not DiaryEntry.objects.exists()


# Timeline


def test_members_see_the_timeline_newest_first(client, campaign, gm, player, observer):
    services.scene_create(campaign=campaign, title="Prólogo", date=date(2025, 1, 1))
    services.scene_create(campaign=campaign, title="Epílogo", date=date(2025, 6, 1))
    services.scene_create(campaign=campaign, title="Nudo", date=date(2025, 3, 1))
    for user in (gm, player, observer):
        response = login(client, user).get(timeline_url(campaign))
        assert response.status_code == 200
        text = response.text
        assert text.index("Epílogo") < text.index("Nudo") < text.index("Prólogo")


def test_stranger_gets_404_on_the_timeline(client, campaign, stranger):
    assert login(client, stranger).get(timeline_url(campaign)).status_code == 404


def test_anonymous_is_sent_to_login_from_the_timeline(client, campaign):
    response = client.get(timeline_url(campaign))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_only_the_gm_sees_the_buttons_to_create_scenes_and_stories(client, campaign, gm, player):
    create = reverse("campaigns:scene_create", args=[campaign.pk])
    assert create in login(client, gm).get(timeline_url(campaign)).text
    assert create not in login(client, player).get(timeline_url(campaign)).text


def test_the_timeline_paginates(client, campaign, player):
    for number in range(SCENES_PER_PAGE + 5):
        services.scene_create(campaign=campaign, title=f"Escena {number:02d}", session_number=1)
    login(client, player)
    first = client.get(timeline_url(campaign))
    assert first.text.count('class="card mb-2 scene-card"') == SCENES_PER_PAGE
    second = client.get(timeline_url(campaign) + "?page=2")
    assert second.text.count('class="card mb-2 scene-card"') == 5
    assert "Escena 00" in second.text
    # A page number past the end shows the last page rather than an error.
    assert client.get(timeline_url(campaign) + "?page=99").status_code == 200


def test_htmx_gets_only_the_scene_list(client, campaign, player, scene):
    response = login(client, player).get(timeline_url(campaign), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "<html" not in response.text
    assert scene.title in response.text
    assert "HX-Request" in response["Vary"]


def test_a_history_restore_gets_the_whole_page(client, campaign, player, scene):
    response = login(client, player).get(
        timeline_url(campaign),
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.text


def test_scenes_of_the_same_day_follow_the_session_number(client, campaign, player):
    day = date(2025, 5, 1)
    services.scene_create(campaign=campaign, title="Sesión tres", date=day, session_number=3)
    services.scene_create(campaign=campaign, title="Sin sesión", date=day)
    services.scene_create(campaign=campaign, title="Sesión cinco", date=day, session_number=5)
    text = login(client, player).get(timeline_url(campaign)).text
    assert text.index("Sesión cinco") < text.index("Sesión tres") < text.index("Sin sesión")


def test_the_timeline_filters_by_story(client, campaign, player):
    story = services.story_create(campaign=campaign, title="El archivo")
    services.scene_create(campaign=campaign, title="Dentro", story=story)
    services.scene_create(campaign=campaign, title="Fuera de la historia")
    response = login(client, player).get(timeline_url(campaign) + f"?story={story.pk}")
    assert "Dentro" in response.text
    assert "Fuera de la historia" not in response.text


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_a_scene_page_names_its_story_in_the_breadcrumb_and_the_header_only(
    request, client, campaign, who
):
    story = services.story_create(campaign=campaign, title="La línea 5")
    scene = services.scene_create(campaign=campaign, title="El sótano", story=story, place="Sol")
    response = login(client, request.getfixturevalue(who)).get(scene_url(scene))
    if who == "stranger":
        assert response.status_code == 404
        return
    page = parse(response.text)
    assert page.one("p", class_="scene-story").text() == "Historia: La línea 5"
    assert page.one("p", class_="scene-meta").text() == "Sin fecha · Sol"
    assert response.text.count("La línea 5") == 2  # the breadcrumb and the header
    # The scene list still names each scene's story.
    listed = parse(login(client, request.getfixturevalue(who)).get(timeline_url(campaign)).text)
    assert listed.one("p", class_="scene-meta").text() == "Sin fecha · Sol · La línea 5"


def test_a_story_of_another_campaign_is_404_in_the_filter(client, campaign, player):
    story = services.story_create(campaign=CampaignFactory(), title="Ajena")
    response = login(client, player).get(timeline_url(campaign) + f"?story={story.pk}")
    assert response.status_code == 404


def test_the_player_is_invited_to_write_the_diary_of_their_character(
    client, campaign, player, scene, lucia, mateo
):
    text = login(client, player).get(timeline_url(campaign)).text
    assert diary_url(scene, lucia) in text
    assert diary_url(scene, mateo) not in text


def _populate(campaign, gm, player, lucia, count):
    """`count` scenes, each with a diary and a roll."""
    for number in range(count):
        scene = services.scene_create(
            campaign=campaign, title=f"Escena {number}", participants=[lucia]
        )
        publish(scene, lucia, player, f"Diario {number}")
        store_roll(campaign, scene, lucia, player)
    services.story_create(campaign=campaign, title="Historia")


def _count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_the_timeline_runs_constant_queries(
    client, campaign, gm, player, lucia, django_assert_max_num_queries
):
    login(client, player)
    _populate(campaign, gm, player, lucia, 3)
    few = _count_queries(client, timeline_url(campaign))
    _populate(campaign, gm, player, lucia, 30)
    many = _count_queries(client, timeline_url(campaign))
    assert few == many
    # Session, user, membership, stories, count, scenes, their counts, participants,
    # own diaries, and base.html's admin-link check.
    with django_assert_max_num_queries(10):
        client.get(timeline_url(campaign))


# Stories


def test_gm_creates_and_edits_a_story(client, campaign, gm):
    login(client, gm)
    response = client.post(
        reverse("campaigns:story_create", args=[campaign.pk]),
        {"title": "El archivo", "summary": "Un incendio."},
    )
    story = Story.objects.get(campaign=campaign)
    assert response.status_code == 302
    assert f"story={story.pk}" in response["Location"]
    response = client.post(
        reverse("campaigns:story_edit", args=[campaign.pk, story.pk]),
        {"title": "El archivo quemado", "summary": ""},
    )
    assert response.status_code == 302
    story.refresh_from_db()
    assert story.title == "El archivo quemado"


def test_story_without_title_shows_an_error_and_keeps_the_summary(client, campaign, gm):
    response = login(client, gm).post(
        reverse("campaigns:story_create", args=[campaign.pk]), {"title": "", "summary": "Mi idea"}
    )
    assert response.status_code == 200
    assert "Este campo es obligatorio" in response.text
    assert "Mi idea" in response.text
    assert not Story.objects.exists()


@pytest.mark.parametrize("who", ["player", "observer"])
def test_members_who_are_not_gms_cannot_manage_stories(client, campaign, who, request):
    story = services.story_create(campaign=campaign, title="Original")
    login(client, request.getfixturevalue(who))
    create = reverse("campaigns:story_create", args=[campaign.pk])
    edit = reverse("campaigns:story_edit", args=[campaign.pk, story.pk])
    assert client.get(create).status_code == 403
    assert client.post(create, {"title": "Nueva"}).status_code == 403
    assert client.post(edit, {"title": "Cambiada"}).status_code == 403
    assert list(Story.objects.values_list("title", flat=True)) == ["Original"]


def test_stranger_gets_404_on_stories(client, campaign, stranger):
    story = services.story_create(campaign=campaign, title="Original")
    login(client, stranger)
    assert client.get(reverse("campaigns:story_create", args=[campaign.pk])).status_code == 404
    edit = reverse("campaigns:story_edit", args=[campaign.pk, story.pk])
    assert client.post(edit, {"title": "X"}).status_code == 404


def test_a_story_of_another_campaign_cannot_be_edited_from_here(client, campaign, gm):
    story = services.story_create(campaign=CampaignFactory(), title="Ajena")
    response = login(client, gm).post(
        reverse("campaigns:story_edit", args=[campaign.pk, story.pk]), {"title": "Mía"}
    )
    assert response.status_code == 404


# Scenes: create and edit


def scene_data(**overrides):
    data = {
        "title": "El puente",
        "story": "",
        "date": "2025-04-01",
        "session_number": "4",
        "place": "Puente de Alcántara",
        "summary": "Una emboscada.",
    }
    data.update(overrides)
    return data


def test_gm_creates_a_scene_with_two_characters(client, campaign, gm, lucia, mateo):
    story = services.story_create(campaign=campaign, title="El archivo")
    response = login(client, gm).post(
        reverse("campaigns:scene_create", args=[campaign.pk]),
        scene_data(story=story.pk, participants=[lucia.pk, mateo.pk]),
    )
    scene = Scene.objects.get()
    assert response.status_code == 302
    assert response["Location"] == scene_url(scene)
    assert set(scene.participants.all()) == {lucia, mateo}
    assert scene.story == story
    assert (scene.session_number, scene.place, scene.status) == (4, "Puente de Alcántara", "open")


def test_the_new_scene_form_offers_only_this_campaigns_characters(client, campaign, gm, lucia):
    make_character(CampaignFactory(), None, name="Intruso")
    response = login(client, gm).get(reverse("campaigns:scene_create", args=[campaign.pk]))
    assert response.status_code == 200
    assert "Lucía" in response.text
    assert "Intruso" not in response.text


def test_a_character_of_another_campaign_is_refused(client, campaign, gm, lucia):
    other = make_character(CampaignFactory(), None, name="Intruso")
    response = login(client, gm).post(
        reverse("campaigns:scene_create", args=[campaign.pk]),
        scene_data(participants=[lucia.pk, other.pk]),
    )
    assert response.status_code == 200
    assert "Elige una opción válida" in response.text
    assert "El puente" in response.text  # what the GM typed is kept
    assert not Scene.objects.exists()


def test_a_scene_without_title_shows_an_error_and_keeps_the_input(client, campaign, gm):
    response = login(client, gm).post(
        reverse("campaigns:scene_create", args=[campaign.pk]), scene_data(title="")
    )
    assert response.status_code == 200
    assert "Este campo es obligatorio" in response.text
    assert "Puente de Alcántara" in response.text
    assert not Scene.objects.exists()


def test_a_bad_date_or_session_is_refused_with_a_message(client, campaign, gm):
    response = login(client, gm).post(
        reverse("campaigns:scene_create", args=[campaign.pk]),
        scene_data(date="31/31/2025", session_number="-2"),
    )
    assert response.status_code == 200
    assert "Introduce una fecha válida" in response.text
    assert not Scene.objects.exists()


def test_gm_edits_a_scene(client, campaign, gm, scene, lucia):
    response = login(client, gm).post(
        reverse("campaigns:scene_edit", args=[campaign.pk, scene.pk]),
        scene_data(title="El incendio", participants=[lucia.pk]),
    )
    assert response.status_code == 302
    scene.refresh_from_db()
    assert scene.title == "El incendio"
    assert list(scene.participants.all()) == [lucia]


@pytest.mark.parametrize("who", ["player", "observer"])
def test_members_who_are_not_gms_cannot_create_or_edit_scenes(
    client, campaign, scene, who, request
):
    login(client, request.getfixturevalue(who))
    create = reverse("campaigns:scene_create", args=[campaign.pk])
    edit = reverse("campaigns:scene_edit", args=[campaign.pk, scene.pk])
    assert client.get(create).status_code == 403
    assert client.post(create, scene_data()).status_code == 403
    assert client.get(edit).status_code == 403
    assert client.post(edit, scene_data(title="Cambiada")).status_code == 403
    assert Scene.objects.get().title == "La noche del incendio"


def test_stranger_gets_404_on_scene_forms(client, campaign, scene, stranger):
    login(client, stranger)
    assert client.get(reverse("campaigns:scene_create", args=[campaign.pk])).status_code == 404
    edit = reverse("campaigns:scene_edit", args=[campaign.pk, scene.pk])
    assert client.post(edit, scene_data()).status_code == 404


def test_a_scene_of_another_campaign_is_404(client, campaign, gm, scene):
    other = CampaignFactory()
    MembershipFactory(campaign=other, user=gm, role="gm")
    login(client, gm)
    assert client.get(reverse("campaigns:scene", args=[other.pk, scene.pk])).status_code == 404
    edit = reverse("campaigns:scene_edit", args=[other.pk, scene.pk])
    assert client.post(edit, scene_data()).status_code == 404


# Scenes: close and reopen


def test_gm_closes_and_reopens_a_scene(client, campaign, gm, scene):
    login(client, gm)
    close = reverse("campaigns:scene_close", args=[campaign.pk, scene.pk])
    response = client.post(close)
    assert response.status_code == 302
    scene.refresh_from_db()
    assert scene.status == "closed"
    assert scene.closed_at is not None
    assert "Reabrir escena" in client.get(scene_url(scene)).text
    client.post(reverse("campaigns:scene_reopen", args=[campaign.pk, scene.pk]))
    scene.refresh_from_db()
    assert scene.status == "open"
    assert scene.closed_at is None


def test_htmx_close_returns_the_scene_header(client, campaign, gm, scene):
    response = login(client, gm).post(
        reverse("campaigns:scene_close", args=[campaign.pk, scene.pk]),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert 'id="scene-header"' in response.text
    assert "<html" not in response.text
    assert "Reabrir escena" in response.text
    assert "HX-Request" in response["Vary"]


def test_closing_needs_a_post(client, campaign, gm, scene):
    response = login(client, gm).get(reverse("campaigns:scene_close", args=[campaign.pk, scene.pk]))
    assert response.status_code == 405


@pytest.mark.parametrize("who", ["player", "observer"])
def test_members_who_are_not_gms_cannot_close_scenes(client, campaign, scene, who, request):
    login(client, request.getfixturevalue(who))
    response = client.post(reverse("campaigns:scene_close", args=[campaign.pk, scene.pk]))
    assert response.status_code == 403
    services.scene_close(scene=scene)
    response = client.post(reverse("campaigns:scene_reopen", args=[campaign.pk, scene.pk]))
    assert response.status_code == 403
    assert Scene.objects.get().status == "closed"


def test_stranger_gets_404_on_closing(client, campaign, scene, stranger):
    response = login(client, stranger).post(
        reverse("campaigns:scene_close", args=[campaign.pk, scene.pk])
    )
    assert response.status_code == 404
    assert Scene.objects.get().status == "open"


# The scene page ("Group review")


@pytest.fixture
def written(scene, lucia, mateo, player, player2, gm):
    """Lucía's group diary, Mateo's GM-only diary and a GM note."""
    group = publish(scene, lucia, player, "Lucía recuerda el **humo**.")
    secret = publish(scene, mateo, player2, f"Mateo confiesa {CANARY_DIARY}", "gm_only")
    note = services.scene_note_save(scene=scene, author=gm, body=f"El culpable es {CANARY_NOTE}")
    return {"group": group, "secret": secret, "note": note}


def test_gm_sees_every_published_diary_and_the_notes(client, gm, scene, written):
    response = login(client, gm).get(scene_url(scene))
    assert response.status_code == 200
    assert "Lucía recuerda el <strong>humo</strong>" in response.text
    assert CANARY_DIARY in response.text
    assert CANARY_NOTE in response.text
    assert "Solo el máster" in response.text


def test_player_sees_group_diaries_but_no_gm_only_diary_nor_notes(client, player, scene, written):
    response = login(client, player).get(scene_url(scene))
    assert response.status_code == 200
    assert "Lucía recuerda el <strong>humo</strong>" in response.text
    assert CANARY_DIARY not in response.text
    assert CANARY_NOTE not in response.text
    assert 'id="gm-notes"' not in response.text


def test_the_author_sees_their_own_gm_only_diary(client, player2, scene, written):
    response = login(client, player2).get(scene_url(scene))
    assert CANARY_DIARY in response.text
    assert CANARY_NOTE not in response.text


def test_drafts_are_seen_only_by_their_author(client, gm, player, player2, observer, scene, lucia):
    character_services.diary_save(
        scene=scene,
        character=lucia,
        user=player,
        body=CANARY_DRAFT,
        status="draft",
        visibility="group",
    )
    assert CANARY_DRAFT in login(client, player).get(scene_url(scene)).text
    for user in (gm, player2, observer):
        assert CANARY_DRAFT not in login(client, user).get(scene_url(scene)).text


def test_observer_reads_published_group_diaries_and_cannot_write(
    client, observer, scene, written, lucia
):
    response = login(client, observer).get(scene_url(scene))
    assert response.status_code == 200
    assert "Lucía recuerda" in response.text
    assert CANARY_DIARY not in response.text
    assert CANARY_NOTE not in response.text
    assert diary_url(scene, lucia) not in response.text
    assert reverse("campaigns:scene_edit", args=[scene.campaign_id, scene.pk]) not in response.text


def test_stranger_gets_404_on_the_scene_page(client, stranger, scene):
    assert login(client, stranger).get(scene_url(scene)).status_code == 404


def test_anonymous_is_sent_to_login_from_the_scene_page(client, scene):
    assert client.get(scene_url(scene)).status_code == 302


def test_the_scene_page_shows_rolls_with_outcome_and_result(client, campaign, player, scene, lucia):
    roll = store_roll(campaign, scene, lucia, player)
    response = login(client, player).get(scene_url(scene))
    assert f'id="scene-roll-{roll.pk}"' in response.text
    assert "Astucia + Investigación" in response.text
    with translation.override("es"):
        shown = roll_display(roll)  # the roll log's own words for the outcome and result
    assert shown.outcome
    assert shown.outcome in response.text
    assert shown.result in response.text


def test_secret_rolls_are_shown_to_gms_only(client, campaign, gm, player, observer, scene, lucia):
    roll = store_roll(campaign, scene, None, gm, secret=True)
    anchor = f'id="scene-roll-{roll.pk}"'
    assert anchor in login(client, gm).get(scene_url(scene)).text
    for user in (player, observer):
        response = login(client, user).get(scene_url(scene))
        assert anchor not in response.text
        assert "Secreta" not in response.text


def test_rolls_of_other_scenes_stay_out(client, campaign, player, scene, lucia):
    other = services.scene_create(campaign=campaign, title="Otra")
    roll = store_roll(campaign, other, lucia, player)
    assert f'id="scene-roll-{roll.pk}"' not in login(client, player).get(scene_url(scene)).text


def test_the_timeline_orders_diaries_and_rolls_by_time(client, campaign, player, scene, lucia):
    first = store_roll(campaign, scene, lucia, player)
    entry = publish(scene, lucia, player, "Después de la tirada")
    text = login(client, player).get(scene_url(scene)).text
    assert text.index(f'id="scene-roll-{first.pk}"') < text.index(f'id="diary-{entry.pk}"')


def test_the_scene_summary_is_rendered_markdown(client, player, scene):
    assert "Las <strong>llamas</strong>" in login(client, player).get(scene_url(scene)).text


def test_a_diary_with_a_script_payload_is_harmless_on_the_scene_page(
    client, gm, player, scene, lucia
):
    publish(scene, lucia, player, '<script>alert("x")</script>[a](javascript:alert(1))')
    text = login(client, gm).get(scene_url(scene)).text
    assert 'alert("x")' not in text
    assert 'href="javascript:' not in text.lower()


def test_the_scene_page_runs_constant_queries(
    client, campaign, gm, player, scene, lucia, django_assert_max_num_queries
):
    def add_entries(count):
        for number in range(count):
            character = make_character(campaign, player, name=f"Extra {number}")
            scene.participants.add(character)
            publish(scene, character, player, f"Diario {number}")
            store_roll(campaign, scene, character, player)
            services.scene_note_save(scene=scene, author=gm, body=f"Nota {number}")

    campaign.max_characters_per_player = 100
    campaign.save()
    login(client, gm)
    add_entries(3)
    # Counted with nothing cached: every source runs, every roll card is rendered.
    caches[CACHE].clear()
    few = _count_queries(client, scene_url(scene))
    add_entries(27)
    caches[CACHE].clear()
    many = _count_queries(client, scene_url(scene))
    assert few == many
    # Session, user, membership, scene, participants, GM notes, base.html's admin-link
    # check, the state of the timeline's rows, one query per timeline source (diaries,
    # the page of rolls, and those other apps add) and the rolls whose cards are drawn.
    budget = 8 + len(chronicle._sources) + len(chronicle._pagers) + 1
    caches[CACHE].clear()
    with django_assert_max_num_queries(budget):
        client.get(scene_url(scene))
    login(client, player)
    with django_assert_max_num_queries(budget):
        client.get(scene_url(scene))


def test_the_scene_page_links_the_xp_award_panel_for_gms_only(client, gm, player, scene):
    xp_url = reverse("characters:scene_xp", args=[scene.campaign_id, scene.pk])
    assert xp_url in login(client, gm).get(scene_url(scene)).text
    assert xp_url not in login(client, player).get(scene_url(scene)).text


# Diaries


def test_player_publishes_a_diary_for_their_character(client, player, scene, lucia):
    login(client, player)
    assert client.get(diary_url(scene, lucia)).status_code == 200
    response = client.post(
        diary_url(scene, lucia),
        {"body": "Huimos por el tejado.", "visibility": "group", "action": "publish"},
    )
    entry = DiaryEntry.objects.get()
    assert response.status_code == 302
    assert response["Location"] == scene_url(scene) + f"#diary-{entry.pk}"
    assert (entry.status, entry.visibility, entry.author) == ("published", "group", player)


def test_player_saves_a_draft_and_edits_it_later(client, player, scene, lucia):
    login(client, player)
    client.post(
        diary_url(scene, lucia), {"body": "Borrador", "visibility": "gm_only", "action": "draft"}
    )
    entry = DiaryEntry.objects.get()
    assert entry.status == "draft"
    form = client.get(diary_url(scene, lucia)).text
    assert "Borrador" in form
    assert 'value="gm_only" checked' in form or re.search(r'value="gm_only"[^>]*checked', form)
    client.post(
        diary_url(scene, lucia), {"body": "Final", "visibility": "gm_only", "action": "publish"}
    )
    entry.refresh_from_db()
    assert (entry.body, entry.status, DiaryEntry.objects.count()) == ("Final", "published", 1)


def test_an_empty_diary_shows_an_error_and_stores_nothing(client, player, scene, lucia):
    response = login(client, player).post(
        diary_url(scene, lucia), {"body": "   ", "visibility": "group", "action": "publish"}
    )
    assert response.status_code == 200
    assert "Escribe algo antes de guardar" in response.text
    assert not DiaryEntry.objects.exists()


def test_a_forged_visibility_or_action_keeps_the_text(client, player, scene, lucia):
    login(client, player)
    response = client.post(
        diary_url(scene, lucia), {"body": "Mi texto", "visibility": "all", "action": "publish"}
    )
    assert response.status_code == 200
    assert "Mi texto" in response.text
    response = client.post(
        diary_url(scene, lucia), {"body": "Mi texto", "visibility": "group", "action": "delete"}
    )
    assert response.status_code == 200
    assert "Mi texto" in response.text
    assert not DiaryEntry.objects.exists()


def test_preview_renders_markdown_without_saving(client, player, scene, lucia):
    login(client, player)
    data = {"body": "**fuego** <script>x()</script>", "visibility": "group", "action": "preview"}
    response = client.post(diary_url(scene, lucia), data)
    assert response.status_code == 200
    assert "<strong>fuego</strong>" in response.text
    assert "<script>x()" not in response.text
    assert not DiaryEntry.objects.exists()
    htmx = client.post(diary_url(scene, lucia), data, headers={"HX-Request": "true"})
    assert "<html" not in htmx.text
    assert 'id="diary-preview"' in htmx.text
    assert "<strong>fuego</strong>" in htmx.text


def test_player_cannot_write_another_players_diary(client, player, scene, mateo):
    login(client, player)
    assert client.get(diary_url(scene, mateo)).status_code == 403
    data = {"body": "Suplantación", "visibility": "group", "action": "publish"}
    assert client.post(diary_url(scene, mateo), data).status_code == 403
    assert not DiaryEntry.objects.exists()


def test_gm_cannot_write_a_players_diary(client, gm, scene, lucia):
    data = {"body": "X", "visibility": "group", "action": "publish"}
    assert login(client, gm).post(diary_url(scene, lucia), data).status_code == 403


def test_observer_cannot_write_diaries(client, campaign, observer, scene):
    # Even a character they own (from a time they played) stays read-only now.
    own = make_character(campaign, observer, name="Antigua")
    scene.participants.add(own)
    login(client, observer)
    assert client.get(diary_url(scene, own)).status_code == 403
    data = {"body": "X", "visibility": "group", "action": "publish"}
    assert client.post(diary_url(scene, own), data).status_code == 403


def test_stranger_gets_404_on_diaries(client, stranger, scene, lucia):
    assert login(client, stranger).get(diary_url(scene, lucia)).status_code == 404


def test_a_character_outside_the_scene_or_campaign_is_404(client, campaign, player, scene):
    outsider = make_character(campaign, player, name="Fuera")
    elsewhere = make_character(CampaignFactory(), player, name="Lejos")
    login(client, player)
    assert client.get(diary_url(scene, outsider)).status_code == 404
    assert client.get(diary_url(scene, elsewhere)).status_code == 404


def test_a_character_handed_over_does_not_reveal_the_previous_players_entry(
    client, player, player2, scene, lucia
):
    publish(scene, lucia, player, CANARY_DIARY, "gm_only")
    lucia.owner = player2
    lucia.save()
    login(client, player2)
    assert client.get(diary_url(scene, lucia)).status_code == 403
    assert CANARY_DIARY not in client.get(scene_url(scene)).text


# GM notes


def notes_url(scene):
    return reverse("campaigns:scene_note_create", args=[scene.campaign_id, scene.pk])


def test_gm_adds_edits_and_deletes_a_note(client, gm, scene):
    login(client, gm)
    response = client.post(notes_url(scene), {"body": "Pista: el *sello*."})
    assert response.status_code == 302
    note = SceneNote.objects.get()
    assert "Pista: el <em>sello</em>." in client.get(scene_url(scene)).text
    edit = reverse("campaigns:scene_note_edit", args=[scene.campaign_id, scene.pk, note.pk])
    assert client.get(edit).status_code == 200
    client.post(edit, {"body": "Pista corregida"})
    note.refresh_from_db()
    assert note.body == "Pista corregida"
    delete = reverse("campaigns:scene_note_delete", args=[scene.campaign_id, scene.pk, note.pk])
    client.post(delete)
    assert not SceneNote.objects.exists()


def test_htmx_note_returns_the_notes_panel(client, gm, scene):
    response = login(client, gm).post(
        notes_url(scene), {"body": "Rápida"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert 'id="gm-notes"' in response.text
    assert "Rápida" in response.text
    assert "<html" not in response.text


def test_an_empty_note_shows_an_error(client, gm, scene):
    response = login(client, gm).post(notes_url(scene), {"body": "  "})
    assert response.status_code == 200
    assert "Escribe algo antes de guardar" in response.text
    assert not SceneNote.objects.exists()


@pytest.mark.parametrize("who", ["player", "observer"])
def test_members_who_are_not_gms_cannot_touch_notes(client, gm, scene, who, request):
    note = services.scene_note_save(scene=scene, author=gm, body=CANARY_NOTE)
    login(client, request.getfixturevalue(who))
    assert client.post(notes_url(scene), {"body": "X"}).status_code == 403
    edit = reverse("campaigns:scene_note_edit", args=[scene.campaign_id, scene.pk, note.pk])
    response = client.get(edit)
    assert response.status_code == 403
    assert CANARY_NOTE not in response.text
    delete = reverse("campaigns:scene_note_delete", args=[scene.campaign_id, scene.pk, note.pk])
    assert client.post(delete).status_code == 403
    assert SceneNote.objects.get().body == CANARY_NOTE


def test_stranger_gets_404_on_notes(client, gm, stranger, scene):
    note = services.scene_note_save(scene=scene, author=gm, body="X")
    login(client, stranger)
    assert client.post(notes_url(scene), {"body": "X"}).status_code == 404
    edit = reverse("campaigns:scene_note_edit", args=[scene.campaign_id, scene.pk, note.pk])
    assert client.get(edit).status_code == 404


def test_a_note_of_another_scene_is_404(client, campaign, gm, scene):
    other = services.scene_create(campaign=campaign, title="Otra")
    note = services.scene_note_save(scene=other, author=gm, body="X")
    edit = reverse("campaigns:scene_note_edit", args=[campaign.pk, scene.pk, note.pk])
    assert login(client, gm).get(edit).status_code == 404


# Privacy: canaries never reach a player or an observer, on any page they can open.


def _campaign_urls(campaign, scene, note, story, characters):
    """Every GET-able URL under /campaigns/<id>/ with the ids filled in, found from the
    URL configuration so pages added later (sheets, roll log, XP log) are covered too."""
    values = {
        "campaign_id": [campaign.pk],
        "scene_id": [scene.pk],
        "note_id": [note.pk],
        "story_id": [story.pk],
        "character_id": [character.pk for character in characters],
    }

    def walk(patterns, namespace, inherited):
        for pattern in patterns:
            params = [*inherited, *pattern.pattern.converters]
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, pattern.namespace or namespace, params)
            elif isinstance(pattern, URLPattern) and pattern.name and namespace:
                yield f"{namespace}:{pattern.name}", params

    urls = set()
    for name, params in walk(get_resolver().url_patterns, None, []):
        if "campaign_id" not in params or any(p not in values for p in params):
            continue
        combos = [{}]
        for param in params:
            combos = [{**combo, param: value} for combo in combos for value in values[param]]
        for kwargs in combos:
            urls.add(reverse(name, kwargs=kwargs))
    urls.add(reverse("campaigns:timeline", args=[campaign.pk]) + f"?story={story.pk}")
    urls.add(reverse("campaigns:list"))
    return sorted(urls)


@pytest.fixture
def canaries(campaign, gm, player, player2, scene, lucia, mateo):
    story = services.story_create(campaign=campaign, title="El archivo")
    scene.story = story
    scene.save()
    publish(scene, lucia, player, "Diario compartido de Lucía")
    publish(scene, mateo, player2, f"Solo para el máster: {CANARY_DIARY}", "gm_only")
    note = services.scene_note_save(scene=scene, author=gm, body=f"Nota: {CANARY_NOTE}")
    store_roll(campaign, scene, None, gm, secret=True)
    return {"note": note, "story": story}


@pytest.mark.parametrize("who", ["player", "observer"])
def test_canaries_never_reach_a_player_or_observer_on_any_page(
    client, campaign, scene, lucia, mateo, canaries, who, request
):
    urls = _campaign_urls(campaign, scene, canaries["note"], canaries["story"], [lucia, mateo])
    assert len(urls) > 8
    login(client, request.getfixturevalue(who))
    # A page that breaks (500) shows none of its content; it must not stop the sweep.
    client.raise_request_exception = False
    reached = 0
    for url in urls:
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            text = body.decode(errors="replace")
            assert CANARY_DIARY not in text, url
            assert CANARY_NOTE not in text, url
            reached += response.status_code == 200
    assert reached >= 4


def test_the_gm_does_see_the_canaries(client, gm, scene, canaries):
    text = login(client, gm).get(scene_url(scene)).text
    assert CANARY_DIARY in text
    assert CANARY_NOTE in text


def _diary_count(html: str, title: str) -> str:
    """The "N diary entries" text next to a scene title."""
    block = html[html.index(title) :]
    return re.search(r"(\d+) entradas? de diario", block).group(1)


def test_counts_leave_out_what_the_viewer_may_not_read(
    client, campaign, gm, player, observer, scene, canaries
):
    for user, expected in ((gm, "2"), (player, "1"), (observer, "1")):
        login(client, user)
        assert _diary_count(client.get(timeline_url(campaign)).text, scene.title) == expected
        dashboard = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
        assert _diary_count(dashboard, scene.title) == expected
    # The secret roll is not counted for players either.
    text = login(client, player).get(timeline_url(campaign)).text
    assert "0 tiradas" in text
    assert "1 tirada" in login(client, gm).get(timeline_url(campaign)).text


# The campaign dashboard


def test_the_dashboard_lists_the_latest_scenes_and_links_the_chronicle(client, campaign, player):
    for number in range(7):
        services.scene_create(campaign=campaign, title=f"Escena {number}", session_number=number)
    text = login(client, player).get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert timeline_url(campaign) in text
    assert "Escena 6" in text
    assert "Escena 1" not in text  # only the latest few


def test_the_scene_page_shows_its_rolls_a_page_at_a_time_with_the_diaries_in_between(
    client, campaign, gm, player, scene, lucia, monkeypatch
):
    monkeypatch.setattr(chronicle, "TIMELINE_PAGE", 3)
    start = timezone.now() - timedelta(hours=1)
    rolls = []
    for minute in range(7):
        with backdated(start + timedelta(minutes=minute)):
            roll = store_roll(campaign, scene, lucia, player)
        rolls.append(roll)
    entry = publish(scene, lucia, player, "Entre tirada y tirada")
    DiaryEntry.objects.filter(pk=entry.pk).update(
        published_at=start + timedelta(minutes=4, seconds=30)
    )
    login(client, gm)

    def shown(response):
        return [int(pk) for pk in re.findall(r'data-roll="(\d+)"', response.text)]

    first = client.get(scene_url(scene))
    assert shown(first) == [r.pk for r in rolls[:3]]
    assert "Entre tirada y tirada" not in first.text
    later = html.unescape(re.search(r'href="([^"]*)" rel="next"', first.text).group(1))
    second = client.get(scene_url(scene) + later)
    assert shown(second) == [r.pk for r in rolls[3:6]]
    assert "Entre tirada y tirada" in second.text
    last = html.unescape(re.search(r'href="([^"]*)" rel="next"', second.text).group(1))
    third = client.get(scene_url(scene) + last)
    assert shown(third) == [rolls[6].pk]
    assert "Entre tirada y tirada" not in third.text
    earlier = html.unescape(re.search(r'href="([^"]*)" rel="prev"', third.text).group(1))
    assert shown(client.get(scene_url(scene) + earlier)) == shown(second)
