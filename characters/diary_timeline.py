"""Published diaries join the scene timeline (campaigns.chronicle)."""

from __future__ import annotations

from django.db.models import OuterRef

from campaigns.chronicle import (
    TimelineItem,
    register_scene_count,
    register_scene_list_extra,
    register_timeline_source,
)
from campaigns.fragments import row_state
from campaigns.models import Scene
from campaigns.permissions import CampaignAccess, may_write_diary, visible_diaries
from characters.models import DiaryEntry

# The entry's own fields, all of them: its item's key is its whole row (`row_state`).
OWN_FIELDS = tuple(field.name for field in DiaryEntry._meta.concrete_fields)


@register_timeline_source()
def diary_source(access: CampaignAccess, scene: Scene) -> list[TimelineItem]:
    entries = visible_diaries(
        access,
        DiaryEntry.objects.filter(scene=scene)
        .select_related("character", "author")
        .only(*OWN_FIELDS, "character__name", "character__owner_id", "author__username"),
    )
    return [
        TimelineItem(
            at=entry.published_at or entry.updated_at,
            kind="diary",
            template="campaigns/timeline/diary.html",
            obj=entry,
            key=(
                row_state(entry),
                entry.character.name,
                entry.character.owner_id,
                entry.author.username if entry.author_id else None,
            ),
        )
        for entry in entries
    ]


@register_scene_count("diary_count")
def diary_count(access: CampaignAccess):
    return visible_diaries(access, DiaryEntry.objects.filter(scene=OuterRef("pk")))


@register_scene_list_extra
def own_diaries(access: CampaignAccess, user, scenes: list[Scene]) -> None:
    """Each scene's `my_diaries`: the viewer's characters in its cast, with their entry
    if any."""
    entries = (
        DiaryEntry.objects.filter(author_id=user.pk, scene_id__in=[scene.pk for scene in scenes])
        .only("pk", "scene_id", "character_id", "status")
        .order_by()
    )
    own = {(entry.scene_id, entry.character_id): entry for entry in entries}
    for scene in scenes:
        scene.my_diaries = [
            (character, own.get((scene.pk, character.pk)))
            for character in scene.cast
            if may_write_diary(access, character)
        ]
