"""The scene timeline ("Group review"): everything that happened in one scene, in order.

Each kind of event comes from a *source*: a function `(access, scene) -> items` that
runs a constant number of queries and applies the visibility rules of
`campaigns.permissions` itself. The apps that own the events add their sources (diaries,
XP awards, rolls, damage, combats) from their AppConfig.ready(), so this module knows
none of their models. Each source names its *rows* too: `(scene, campaign) -> querysets`
of every row its items are drawn from, whoever reads them (the events and the
characters and users they name), from the ids alone:

    from campaigns.chronicle import TimelineItem, register_timeline_source

    def xp_rows(scene, campaign):
        awards = XpEntry.objects.filter(scene_id=scene)
        return [awards, *linked_rows(awards, "character", "created_by")]

    @register_timeline_source(rows=xp_rows)
    def xp_awards(access, scene):
        return [TimelineItem(at=a.created_at, kind="xp", template="characters/_xp_item.html",
                             obj=a) for a in ...]

The item's template is included with `item` (the TimelineItem), `access` and `scene`.
Rolls use the roll log's own card (`mechanics/_roll.html`), so they read the same here.
The rendered timeline is cached under those rows' state (`timeline_key`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from campaigns.fragments import fragment_key, row_state, rows_state_query
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
TimelineRows = Callable[..., list[QuerySet]]

_sources: list[TimelineSource] = []
# Each source's and the pager's rows, by the function they describe.
_rows: dict[Callable, TimelineRows] = {}


def register_timeline_source(*, rows: TimelineRows) -> Callable[[TimelineSource], TimelineSource]:
    """Add a source of scene timeline items drawn from `rows` (a decorator; idempotent)."""

    def register(source: TimelineSource) -> TimelineSource:
        if source not in _sources:
            _sources.append(source)
        _rows[source] = rows
        return source

    return register


# The one source that grows without bound (rolls) pages the timeline: it returns a
# campaigns.keyset page of TimelineItems, and the other sources' items fall on the page
# whose time span holds them.
TimelinePager = Callable[..., KeysetPage]
TIMELINE_PAGE = 50
_pager: list[TimelinePager] = []


def register_timeline_pager(*, rows: TimelineRows) -> Callable[[TimelinePager], TimelinePager]:
    """Set the source that pages the timeline: `(access, scene, *, size, after, before)
    -> KeysetPage` of TimelineItems, oldest first, drawn from `rows` (a decorator)."""

    def register(pager: TimelinePager) -> TimelinePager:
        for previous in _pager:
            _rows.pop(previous, None)
        _pager[:] = [pager]
        _rows[pager] = rows
        return pager

    return register


@dataclass(frozen=True)
class Timeline:
    items: list[TimelineItem]  # this page's, oldest first
    page: KeysetPage | None  # the pager's page (None without a pager)


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
    return Timeline(items, page)


def timeline_key(access: CampaignAccess, scene: Scene, query: str) -> str:
    """The cache key of a scene's rendered timeline page: the reader and their rights,
    the campaign, the scene, the page asked for (`query`, the request's query string)
    and every row the sources draw from, read as values in one query. Any write to one of
    them makes another key; a reader only ever gets the HTML rendered for them."""
    return fragment_key(
        "scene-timeline",
        row_state(access.membership),
        row_state(access.campaign),
        row_state(scene),
        query,
        rows_state_query(
            _all_rows(tuple(_rows.values())), scene=scene.pk, campaign=scene.campaign_id
        ),
    )


@functools.cache
def _all_rows(builders: tuple[TimelineRows, ...]) -> TimelineRows:
    def build(scene: int, campaign: int) -> list[QuerySet]:
        return [queryset for rows in builders for queryset in rows(scene=scene, campaign=campaign)]

    return build


# Scene lists show counts (diaries, rolls) of records owned by the apps above this one.
# Each registers a function `(access) -> queryset` of the rows the viewer may see, filtered
# on `scene=OuterRef("pk")`; the list annotates each scene with `<name>` from it. The
# function may read the viewer's role and user id only: the query is written once per role
# (`campaigns.selectors.with_counts`).
SceneCount = Callable[[CampaignAccess], QuerySet]
_counts: dict[str, SceneCount] = {}


def register_scene_count(name: str) -> Callable[[SceneCount], SceneCount]:
    def register(count: SceneCount) -> SceneCount:
        _counts[name] = count
        return count

    return register


def scene_counts(access: CampaignAccess) -> dict[str, QuerySet]:
    return {name: count(access) for name, count in _counts.items()}


def scene_count_names() -> list[str]:
    """The attributes `with_counts` sets on each scene."""
    return list(_counts)


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
