"""The scene timeline ("Group review"): everything that happened in one scene, in order.

Each kind of event comes from a *source*: a function `(access, scene) -> items` that
runs a constant number of queries and applies the visibility rules of
`campaigns.permissions` itself. The apps that own the events add their sources (diaries,
XP awards, rolls, damage, combats) from their AppConfig.ready(), so this module knows
none of their models:

    from campaigns.chronicle import TimelineItem, register_timeline_source

    @register_timeline_source
    def xp_awards(access, scene):
        return [TimelineItem(at=a.created_at, kind="xp", template="characters/_xp_item.html",
                             obj=a) for a in ...]

The item's template is included with `item` (the TimelineItem), `access` and `scene`.
Rolls use the roll log's own card (`mechanics/_roll.html`), so they read the same here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from campaigns.models import Scene
from campaigns.permissions import CampaignAccess


@dataclass(frozen=True)
class TimelineItem:
    at: datetime
    kind: str  # "diary", "roll", "damage", "xp", ...
    template: str
    obj: Any


TimelineSource = Callable[[CampaignAccess, Scene], Iterable[TimelineItem]]

_sources: list[TimelineSource] = []


def register_timeline_source(source: TimelineSource) -> TimelineSource:
    """Add a source of scene timeline items (usable as a decorator; idempotent)."""
    if source not in _sources:
        _sources.append(source)
    return source


def scene_timeline(access: CampaignAccess, scene: Scene) -> list[TimelineItem]:
    """Every item the viewer may see, oldest first."""
    items = [item for source in _sources for item in source(access, scene)]
    items.sort(key=lambda item: item.at)
    return items


# Scene lists show counts (diaries, rolls) of records owned by the apps above this one.
# Each registers a function `(access) -> queryset` of the rows the viewer may see, filtered
# on `scene=OuterRef("pk")`; the list annotates each scene with `<name>` from it.
SceneCount = Callable[[CampaignAccess], QuerySet]
_counts: dict[str, SceneCount] = {}


def register_scene_count(name: str) -> Callable[[SceneCount], SceneCount]:
    def register(count: SceneCount) -> SceneCount:
        _counts[name] = count
        return count

    return register


def scene_counts(access: CampaignAccess) -> dict[str, QuerySet]:
    return {name: count(access) for name, count in _counts.items()}


# What a scene list adds per scene for the viewer (their own diaries to write), from the
# apps that own it: `(access, user, scenes) -> None`, one query for the whole page.
SceneListExtra = Callable[[CampaignAccess, Any, list[Scene]], None]
_list_extras: list[SceneListExtra] = []


def register_scene_list_extra(extra: SceneListExtra) -> SceneListExtra:
    if extra not in _list_extras:
        _list_extras.append(extra)
    return extra


def scene_list_extras(access: CampaignAccess, user, scenes: list[Scene]) -> None:
    for extra in _list_extras:
        extra(access, user, scenes)
