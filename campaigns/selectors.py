"""Read queries for campaigns and their chronicle, shared by the views of every app."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, QuerySet, Subquery
from django.db.models.functions import Coalesce, TruncDate
from django.http import Http404

from campaigns.chronicle import scene_count_names, scene_counts
from campaigns.models import Scene, SceneNote
from campaigns.permissions import CampaignAccess, visible_scene_notes


def scene_or_404(access: CampaignAccess, scene_id: int) -> Scene:
    """A scene of the member's campaign, with its story (one query)."""
    # At most one row: no ORDER BY.
    found = list(
        Scene.objects.select_related("story")
        .filter(pk=scene_id, campaign_id=access.campaign.pk)
        .order_by()
    )
    if not found:
        raise Http404
    [scene] = found
    scene.campaign = access.campaign
    return scene


@dataclass(frozen=True)
class CastMember:
    """A character taking part in a scene, as the scene pages name it."""

    pk: int
    name: str
    owner_id: int | None
    owner_name: str | None
    is_npc: bool


def attach_casts(scenes: list[Scene]) -> None:
    """Set each scene's `cast`: the characters taking part, in name order, and
    `cast_names`, their names for a card. One query, read as values: a scene list names
    hundreds of them."""
    casts: dict[int, list[CastMember]] = {scene.pk: [] for scene in scenes}
    rows = (
        Scene.participants.through.objects.filter(scene_id__in=tuple(casts))
        .order_by("character__name", "character_id")
        .values_list(
            "scene_id",
            "character_id",
            "character__name",
            "character__owner_id",
            "character__owner__username",
            "character__is_npc",
        )
    )
    for scene, pk, name, owner, owner_name, is_npc in rows:
        casts[scene].append(CastMember(pk, name, owner, owner_name, is_npc))
    for scene in scenes:
        scene.cast = casts[scene.pk]
        scene.cast_names = ", ".join(character.name for character in scene.cast)


def scene_notes(access: CampaignAccess, scene: Scene) -> list[SceneNote]:
    """The scene's GM notes the member may read, oldest first, with their authors."""
    notes = SceneNote.objects.filter(scene_id=scene.pk).select_related("author")
    return list(visible_scene_notes(access, notes))


def _count(queryset: QuerySet) -> Coalesce:
    """A correlated COUNT of `queryset` (already filtered on scene=OuterRef("pk"))."""
    counted = queryset.order_by().values("scene").annotate(n=Count("pk")).values("n")[:1]
    return Coalesce(Subquery(counted), 0)


# Newest first: the scene's date (or the day it was created), then the session.
SCENE_ORDER = (
    F("when").desc(),
    F("session_number").desc(nulls_last=True),
    "-created_at",
    "-pk",
)


def scenes_for(access: CampaignAccess) -> QuerySet[Scene]:
    """The campaign's scenes, newest first, without counts: slice it (a page, the latest
    few) and pass the slice to `with_counts`, so only the scenes shown are counted."""
    return (
        Scene.objects.filter(campaign=access.campaign)
        .select_related("story")
        .annotate(when=Coalesce("date", TruncDate("created_at")))
        .order_by(*SCENE_ORDER)
    )


def with_counts(
    access: CampaignAccess, shown: QuerySet[Scene], names: tuple[str, ...] | None = None
) -> list[Scene]:
    """The scenes of `shown` (a slice of `scenes_for`), in its order, with the counts this
    viewer may see (those `names`, or all), counted for those scenes alone.

    The counts run through the same visibility rules as the pages, so a GM-only diary
    or a secret roll never shows up as a number either.
    """
    scenes = list(shown)
    if not scenes:
        return scenes
    names = tuple(scene_count_names()) if names is None else names
    counted = scene_counts(access)
    annotations = {name: _count(counted[name]) for name in names}
    rows = (
        Scene.objects.filter(pk__in=[scene.pk for scene in scenes])
        .annotate(**annotations)
        .values_list("pk", *annotations)
    )
    counts = {pk: named for pk, *named in rows}
    for scene in scenes:
        for name, count in zip(names, counts[scene.pk], strict=True):
            setattr(scene, name, count)
    return scenes


def active_scene(*, campaign, character=None) -> Scene | None:
    """The open scene a roll belongs to: the newest open scene the character takes part
    in, or for rolls without a character the campaign's newest open scene."""
    scenes = Scene.objects.filter(campaign=campaign, status=Scene.Status.OPEN)
    if character is not None:
        scenes = scenes.filter(participants=character)
    return scenes.order_by("-created_at", "-pk").first()
