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

from campaigns.keyset import KeysetPage
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


# The one source that grows without bound (rolls) pages the timeline: it returns a
# campaigns.keyset page of TimelineItems, and the other sources' items fall on the page
# whose time span holds them.
TimelinePager = Callable[..., KeysetPage]
TIMELINE_PAGE = 50
_pager: list[TimelinePager] = []


def register_timeline_pager(pager: TimelinePager) -> TimelinePager:
    """Set the source that pages the timeline: `(access, scene, *, size, after, before)
    -> KeysetPage` of TimelineItems, oldest first."""
    _pager[:] = [pager]
    return pager


@dataclass(frozen=True)
class Timeline:
    items: list[TimelineItem]  # this page's, oldest first
    page: KeysetPage | None  # the pager's page (None without a pager)
    unpaged: list[TimelineItem]  # every item of the other sources, on any page


def scene_timeline(
    access: CampaignAccess, scene: Scene, *, after: str | None = None, before: str | None = None
) -> Timeline:
    """The items the viewer may see on one page of the timeline, oldest first."""
    unpaged = [item for source in _sources for item in source(access, scene)]
    items, page = list(unpaged), None
    if _pager:
        page = _pager[0](access, scene, size=TIMELINE_PAGE, after=after, before=before)
        # This page spans from its first paged item (or the start) to the next page's.
        start = page.items[0].at if page.previous and page.items else None
        end = page.next_starts
        items = [
            item
            for item in unpaged
            if (start is None or item.at >= start) and (end is None or item.at < end)
        ]
        items += page.items
    items.sort(key=lambda item: item.at)
    return Timeline(items, page, unpaged)


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
