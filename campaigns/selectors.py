"""Read queries for campaigns and their chronicle, shared by the views of every app."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Count, F, QuerySet, Subquery
from django.db.models.functions import Coalesce, TruncDate
from django.http import Http404

from campaigns.chronicle import scene_count_names, scene_counts
from campaigns.compiled import compiled_models, compiled_values
from campaigns.models import Scene, SceneNote
from campaigns.permissions import CampaignAccess, role_access, visible_scene_notes


def scene_or_404(access: CampaignAccess, scene_id: int) -> Scene:
    """A scene of the member's campaign, with its story (one query, written once)."""
    found = compiled_models(_scene_query, scene=scene_id, campaign=access.campaign.pk)
    if not found:
        raise Http404
    [scene] = found
    scene.campaign = access.campaign
    return scene


def _scene_query(scene: int, campaign: int) -> QuerySet:
    # At most one row: no ORDER BY.
    return Scene.objects.select_related("story").filter(pk=scene, campaign_id=campaign).order_by()


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
    `cast_names`, their names for a card. One query, written once, read as values: a
    scene list names hundreds of them."""
    casts: dict[int, list[CastMember]] = {scene.pk: [] for scene in scenes}
    for scene, pk, name, owner, owner_name, is_npc in compiled_values(
        _cast_query, scenes=tuple(casts)
    ):
        casts[scene].append(CastMember(pk, name, owner, owner_name, bool(is_npc)))
    for scene in scenes:
        scene.cast = casts[scene.pk]
        scene.cast_names = ", ".join(character.name for character in scene.cast)


def _cast_query(scenes: tuple[int, ...]) -> QuerySet:
    return (
        Scene.participants.through.objects.filter(scene_id__in=scenes)
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


def scene_notes(access: CampaignAccess, scene: Scene) -> list[SceneNote]:
    """The scene's GM notes the member may read, oldest first, with their authors."""
    return compiled_models(_notes_query(access.role), scene=scene.pk)


@functools.cache
def _notes_query(role: str) -> Callable[..., QuerySet]:
    def build(scene: int) -> QuerySet:
        notes = SceneNote.objects.filter(scene_id=scene).select_related("author")
        return visible_scene_notes(role_access(role, 0), notes)

    return build


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
    or a secret roll never shows up as a number either. Their query is written once per
    role (`campaigns.compiled`): it costs far more to write than to run.
    """
    scenes = list(shown)
    if not scenes:
        return scenes
    names = tuple(scene_count_names()) if names is None else names
    rows = compiled_values(
        _counts_query(access.role, names),
        user=access.membership.user_id,
        scenes=tuple(scene.pk for scene in scenes),
    )
    counts = {pk: named for pk, *named in rows}
    for scene in scenes:
        for name, count in zip(names, counts[scene.pk], strict=True):
            setattr(scene, name, count)
    return scenes


@functools.cache
def _counts_query(role: str, names: tuple[str, ...]) -> Callable[..., QuerySet]:
    def build(user: int, scenes: tuple[int, ...]) -> QuerySet:
        # A count depends on the viewer's role and id alone (`register_scene_count`).
        rows = scene_counts(role_access(role, user))
        counts = {name: _count(rows[name]) for name in names}
        return Scene.objects.filter(pk__in=scenes).annotate(**counts).values_list("pk", *counts)

    return build


def active_scene(*, campaign, character=None) -> Scene | None:
    """The open scene a roll belongs to: the newest open scene the character takes part
    in, or for rolls without a character the campaign's newest open scene."""
    scenes = Scene.objects.filter(campaign=campaign, status=Scene.Status.OPEN)
    if character is not None:
        scenes = scenes.filter(participants=character)
    return scenes.order_by("-created_at", "-pk").first()
