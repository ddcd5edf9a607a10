"""Markdown is rendered once, when it is saved: pages show the stored HTML and never parse."""

import importlib
from datetime import date
from unittest import mock

import pytest
from django.apps import apps
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, Scene, SceneNote, Story
from campaigns.rendered import fill_rendered
from characters import services as character_services
from characters.models import DiaryEntry
from tests.factories import make_character

pytestmark = pytest.mark.django_db

DIARY = "Lucía recuerda el **humo**.\n\n<script>alert(1)</script>"
DIARY_HTML = "<p>Lucía recuerda el <strong>humo</strong>.</p>\n\n"


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def scene(campaign, lucia):
    return services.scene_create(
        campaign=campaign,
        title="La noche del incendio",
        date=date(2025, 3, 14),
        summary="Las **llamas** devoran el archivo.",
        participants=[lucia],
    )


@pytest.fixture
def diary(scene, lucia, player):
    return character_services.diary_save(
        scene=scene,
        character=lucia,
        user=player,
        body=DIARY,
        status="published",
        visibility="group",
    )


def parser_refuses():
    """Any call of the Markdown parser fails the test, whoever makes it."""
    return mock.patch(
        "campaigns.markdown.cmarkgfm.markdown_to_html_with_extensions",
        side_effect=AssertionError("a page parsed Markdown"),
    )


def test_saving_a_diary_stores_its_sanitised_html(diary):
    stored = DiaryEntry.objects.get(pk=diary.pk)
    assert stored.body_html == DIARY_HTML
    assert "script" not in stored.body_html


def test_rewriting_a_diary_renders_it_again(diary, scene, lucia, player):
    character_services.diary_save(
        scene=scene,
        character=lucia,
        user=player,
        body="*Otra* cosa",
        status="published",
        visibility="group",
    )
    assert DiaryEntry.objects.get(pk=diary.pk).body_html == "<p><em>Otra</em> cosa</p>\n"


def test_scene_campaign_story_and_note_store_their_html(campaign, scene, gm):
    campaign.description = "Terror en *Madrid*"
    campaign.save()
    story = services.story_create(campaign=campaign, title="Libro I", summary="**uno**")
    note = services.scene_note_save(scene=scene, author=gm, body="El culpable: `Ramiro`")
    assert Campaign.objects.get(pk=campaign.pk).description_html == (
        "<p>Terror en <em>Madrid</em></p>\n"
    )
    assert Scene.objects.get(pk=scene.pk).summary_html == (
        "<p>Las <strong>llamas</strong> devoran el archivo.</p>\n"
    )
    assert Story.objects.get(pk=story.pk).summary_html == "<p><strong>uno</strong></p>\n"
    assert (
        SceneNote.objects.get(pk=note.pk).body_html == "<p>El culpable: <code>Ramiro</code></p>\n"
    )


def test_services_that_rewrite_part_of_a_row_render_the_new_text(campaign, scene, gm):
    story = services.story_create(campaign=campaign, title="Libro I", summary="uno")
    services.story_update(story=story, title="Libro I", summary="**dos**")
    note = services.scene_note_save(scene=scene, author=gm, body="uno")
    services.scene_note_save(scene=scene, author=gm, body="*dos*", note=note)
    assert Story.objects.get(pk=story.pk).summary_html == "<p><strong>dos</strong></p>\n"
    assert SceneNote.objects.get(pk=note.pk).body_html == "<p><em>dos</em></p>\n"


def test_a_save_limited_to_the_source_field_also_writes_its_html(scene):
    scene.summary = "_nuevo_"
    scene.save(update_fields=["summary"])
    assert Scene.objects.get(pk=scene.pk).summary_html == "<p><em>nuevo</em></p>\n"


def test_bulk_created_rows_get_their_html(campaign):
    Story.objects.bulk_create([Story(campaign=campaign, title="A", summary="**a**")])
    assert Story.objects.get().summary_html == "<p><strong>a</strong></p>\n"


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_scene_page_with_a_diary_shows_stored_html_without_parsing(
    client, gm, scene, diary, who, request
):
    services.scene_note_save(scene=scene, author=gm, body="Nota **secreta**")
    client.force_login(request.getfixturevalue(who))
    with parser_refuses():
        page = client.get(reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])).text
    assert "Lucía recuerda el <strong>humo</strong>." in page
    assert "Las <strong>llamas</strong> devoran el archivo." in page
    assert ("Nota <strong>secreta</strong>" in page) == (who == "gm")


def test_the_campaign_page_and_chronicle_do_not_parse(client, campaign, player, scene, diary):
    campaign.description = "Terror en *Madrid*"
    campaign.save()
    story = services.story_create(campaign=campaign, title="Libro I", summary="**Primer** libro")
    client.force_login(player)
    timeline_url = reverse("campaigns:timeline", args=[campaign.pk]) + f"?story={story.pk}"
    with parser_refuses():
        detail = client.get(campaign.get_absolute_url()).text
        timeline = client.get(timeline_url).text
    assert "Terror en <em>Madrid</em>" in detail
    assert "<strong>Primer</strong> libro" in timeline


def test_the_diary_preview_still_renders_on_demand(client, player, scene, lucia):
    client.force_login(player)
    url = reverse("characters:diary", args=[scene.campaign_id, lucia.pk, scene.pk])
    response = client.post(url, {"body": "**vista**", "visibility": "group", "action": "preview"})
    assert "<strong>vista</strong>" in response.text
    assert not DiaryEntry.objects.exists()


def _forget_html(gm, scene, diary, campaign):
    """Rows as they were before the HTML was stored: text only."""
    campaign.description = "*desc*"
    campaign.save()
    services.story_create(campaign=campaign, title="Libro", summary="**historia**")
    services.scene_note_save(scene=scene, author=gm, body="**nota**")
    for model, field in [
        (Campaign, "description_html"),
        (Story, "summary_html"),
        (Scene, "summary_html"),
        (SceneNote, "body_html"),
        (DiaryEntry, "body_html"),
    ]:
        model.objects.update(**{field: ""})


def test_the_migrations_fill_the_html_of_existing_rows(gm, scene, diary, campaign):
    _forget_html(gm, scene, diary, campaign)
    for migration in (
        "campaigns.migrations.0012_render_stored_markdown",
        "characters.migrations.0008_render_stored_diaries",
    ):
        importlib.import_module(migration).render_existing(apps, None)
    assert Campaign.objects.get().description_html == "<p><em>desc</em></p>\n"
    assert Story.objects.get().summary_html == "<p><strong>historia</strong></p>\n"
    assert Scene.objects.get().summary_html.startswith("<p>Las <strong>llamas</strong>")
    assert SceneNote.objects.get().body_html == "<p><strong>nota</strong></p>\n"
    assert DiaryEntry.objects.get().body_html == DIARY_HTML


def test_filling_works_in_batches(campaign, monkeypatch):
    monkeypatch.setattr("campaigns.rendered.BATCH", 2)
    Story.objects.bulk_create(
        [Story(campaign=campaign, title=str(n), summary=f"**{n}**") for n in range(5)]
    )
    Story.objects.update(summary_html="")
    assert fill_rendered(Story) == 5
    assert sorted(Story.objects.values_list("summary_html", flat=True)) == [
        f"<p><strong>{n}</strong></p>\n" for n in range(5)
    ]
