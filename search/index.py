"""Keeping the index in step with the texts it holds, in the writing transaction.

Stories, scenes, GM notes, diaries and characters (with their aspects) are indexed here
from post_save and post_delete, which Django sends inside the service's transaction;
rolls and XP entries by database triggers (search.sql). Writes that send no signal
(bulk inserts of aspects, a sheet's notes set with update()) send
`campaigns.signals.sheet_texts_written`. `rebuild` indexes everything again.

Markdown texts are indexed as the reader sees them: the visible text of their stored,
sanitised HTML (`*_html`, filled before post_save), so no tag, script or link target is
found or shown in a snippet. The other texts are shown as typed, and indexed so.
"""

from __future__ import annotations

from collections.abc import Callable

from django.apps import apps as live_apps
from django.db import connection
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from campaigns.models import Scene, SceneNote, Story
from campaigns.signals import sheet_texts_written
from characters.models import Aspect, Character, DiaryEntry
from search.models import SearchEntry
from search.sql import TRIGGERED, triggered_rows
from search.text import clean, visible_text

Kind = SearchEntry.Kind
GetModel = Callable[[str, str], type]


def _joined(*texts: str) -> str:
    return clean("\n\n".join(text for text in texts if text))


# What each kind indexes: (title, body, the entry's links) from one object. Only model
# fields are read, so migrations can run them on historical models.
def _story(story) -> dict:
    return {"campaign_id": story.campaign_id, "story_id": story.pk, "title": story.title,
            "body": _joined(visible_text(story.summary_html))}  # fmt: skip


def _scene(scene) -> dict:
    return {"campaign_id": scene.campaign_id, "scene_id": scene.pk, "story_id": scene.story_id,
            "title": scene.title, "at": scene.created_at,
            "body": _joined(scene.place, visible_text(scene.summary_html))}  # fmt: skip


def _note(note, campaign_id: int) -> dict:
    return {"campaign_id": campaign_id, "scene_id": note.scene_id, "at": note.created_at,
            "body": _joined(visible_text(note.body_html))}  # fmt: skip


def _diary(entry, campaign_id: int) -> dict:
    return {"campaign_id": campaign_id, "scene_id": entry.scene_id,
            "character_id": entry.character_id, "body": _joined(visible_text(entry.body_html)),
            "at": entry.published_at or entry.created_at}  # fmt: skip


def _character(character) -> dict:
    return {"campaign_id": character.campaign_id, "character_id": character.pk,
            "title": character.name,
            "body": _joined(character.concept, character.description)}  # fmt: skip


def _sheet(character, aspects: list[str]) -> dict:
    return {"campaign_id": character.campaign_id, "character_id": character.pk,
            "title": character.name, "body": _joined(character.notes, *aspects)}  # fmt: skip


def _write(kind: str, object_id: int, fields: dict, *, created: bool = False) -> None:
    """Insert or rewrite one entry: one statement for a new object or a known entry."""
    fields = {**fields, "title": clean(fields.get("title", ""))}
    if created or not SearchEntry.objects.filter(kind=kind, object_id=object_id).update(**fields):
        SearchEntry.objects.create(kind=kind, object_id=object_id, **fields)


def _drop(kind: str, object_id: int) -> None:
    SearchEntry.objects.filter(kind=kind, object_id=object_id).delete()


def _sheet_fields(character, aspect_model=Aspect) -> dict:
    texts = aspect_model.objects.filter(character_id=character.pk).order_by("position", "pk")
    return _sheet(character, list(texts.values_list("text", flat=True)))


@receiver(post_save, sender=Story, dispatch_uid="search_story_saved")
def _story_saved(sender, instance, created=False, **kwargs) -> None:
    _write(Kind.STORY, instance.pk, _story(instance), created=created)


@receiver(post_save, sender=Scene, dispatch_uid="search_scene_saved")
def _scene_saved(sender, instance, created=False, **kwargs) -> None:
    _write(Kind.SCENE, instance.pk, _scene(instance), created=created)


@receiver(post_save, sender=SceneNote, dispatch_uid="search_note_saved")
def _note_saved(sender, instance, created=False, **kwargs) -> None:
    campaign_id = Scene.objects.filter(pk=instance.scene_id).values_list("campaign_id")
    _write(Kind.NOTE, instance.pk, _note(instance, campaign_id[0][0]), created=created)


@receiver(post_save, sender=DiaryEntry, dispatch_uid="search_diary_saved")
def _diary_saved(sender, instance, created=False, **kwargs) -> None:
    campaign_id = Character.objects.filter(pk=instance.character_id).values_list("campaign_id")
    _write(Kind.DIARY, instance.pk, _diary(instance, campaign_id[0][0]), created=created)


@receiver(post_save, sender=Character, dispatch_uid="search_character_saved")
def _character_saved(sender, instance, created=False, update_fields=None, **kwargs) -> None:
    if created:
        # Both entries in one INSERT; a new sheet has no aspects yet (those bulk-inserted
        # with it send sheet_texts_written).
        rows = [(Kind.CHARACTER, _character(instance)), (Kind.SHEET, _sheet(instance, []))]
        SearchEntry.objects.bulk_create(
            SearchEntry(kind=kind, object_id=instance.pk, **{**f, "title": clean(f["title"])})
            for kind, f in rows
        )
        return
    # Saves of other fields (details, portrait, approval) change nothing indexed.
    indexed = {"name", "concept", "description", "notes", "campaign"}
    if update_fields is not None and not indexed & set(update_fields):
        return
    _write(Kind.CHARACTER, instance.pk, _character(instance))
    _write(Kind.SHEET, instance.pk, _sheet_fields(instance))


@receiver(sheet_texts_written, dispatch_uid="search_sheet_texts_written")
def _sheet_texts_written(sender, character, **kwargs) -> None:
    # The sender's instance holds the notes it wrote.
    _write(Kind.SHEET, character.pk, _sheet_fields(character))


@receiver(post_save, sender=Aspect, dispatch_uid="search_aspect_saved")
@receiver(post_delete, sender=Aspect, dispatch_uid="search_aspect_deleted")
def _aspect_written(sender, instance, **kwargs) -> None:
    character = Character.objects.filter(pk=instance.character_id).first()
    if character is not None:  # None: the aspect goes with its character
        _write(Kind.SHEET, character.pk, _sheet_fields(character))


@receiver(post_delete, sender=Story, dispatch_uid="search_story_deleted")
@receiver(post_delete, sender=Scene, dispatch_uid="search_scene_deleted")
@receiver(post_delete, sender=SceneNote, dispatch_uid="search_note_deleted")
@receiver(post_delete, sender=DiaryEntry, dispatch_uid="search_diary_deleted")
@receiver(post_delete, sender=Character, dispatch_uid="search_character_deleted")
def _deleted(sender, instance, **kwargs) -> None:
    kinds = {Story: [Kind.STORY], Scene: [Kind.SCENE], SceneNote: [Kind.NOTE],
             DiaryEntry: [Kind.DIARY], Character: [Kind.CHARACTER, Kind.SHEET]}  # fmt: skip
    SearchEntry.objects.filter(kind__in=kinds[sender], object_id=instance.pk).delete()


def rebuild(*, campaign_id: int | None = None, get_model: GetModel = live_apps.get_model) -> int:
    """Index every text again (of one campaign, or all); returns how many entries.

    `get_model` gives the models to read (a migration passes its historical ones)."""
    entry = get_model("search", "SearchEntry")
    story, scene = get_model("campaigns", "Story"), get_model("campaigns", "Scene")
    note, diary = get_model("campaigns", "SceneNote"), get_model("characters", "DiaryEntry")
    character, aspect = get_model("characters", "Character"), get_model("characters", "Aspect")

    def of_campaign(model, path: str = "campaign_id"):
        rows = model.objects.all()
        return rows if campaign_id is None else rows.filter(**{path: campaign_id})

    of_campaign(entry).delete()
    rows = [entry(kind=Kind.STORY, object_id=s.pk, **_story(s)) for s in of_campaign(story)]
    rows += [entry(kind=Kind.SCENE, object_id=s.pk, **_scene(s)) for s in of_campaign(scene)]
    for row in of_campaign(note, "scene__campaign_id").select_related("scene"):
        rows.append(entry(kind=Kind.NOTE, object_id=row.pk, **_note(row, row.scene.campaign_id)))
    for row in of_campaign(diary, "character__campaign_id").select_related("character"):
        fields = _diary(row, row.character.campaign_id)
        rows.append(entry(kind=Kind.DIARY, object_id=row.pk, **fields))
    aspects: dict[int, list[str]] = {}
    for owner, text in (
        of_campaign(aspect, "character__campaign_id")
        .order_by("position", "pk")
        .values_list("character_id", "text")
    ):
        aspects.setdefault(owner, []).append(text)
    for row in of_campaign(character):
        rows.append(entry(kind=Kind.CHARACTER, object_id=row.pk, **_character(row)))
        sheet = _sheet(row, aspects.get(row.pk, []))
        rows.append(entry(kind=Kind.SHEET, object_id=row.pk, **sheet))
    for row in rows:
        row.title = clean(row.title)
    entry.objects.bulk_create(rows, batch_size=500)
    with connection.cursor() as cursor:
        for table in TRIGGERED:
            cursor.execute(*triggered_rows(table, campaign_id))
    return of_campaign(entry).count()
