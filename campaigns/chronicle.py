"""The scene timeline ("Group review"): everything that happened in one scene, in order.

Each kind of event comes from a *source*: a function `(access, scene) -> items` that
runs a constant number of queries and applies the visibility rules of
`campaigns.permissions` itself. The apps that own the events add their sources (diaries,
XP awards, rolls, damage, combats) from their AppConfig.ready(), so this module knows
none of their models:

    from campaigns.chronicle import TimelineItem, register_timeline_source

    @register_timeline_source()
    def xp_awards(access, scene):
        return [TimelineItem(at=a.created_at, kind="xp", template="characters/_xp_item.html",
                             obj=a) for a in ...]

The item's template is rendered with `item` (the TimelineItem), `access`, `campaign`,
`scene` and `request`. Rolls bring their HTML instead: the roll log's own cached card
(`mechanics.cards`), so they read the same here; and so do health events, hundreds in a
long scene, cached by their ids (`mechanics.health_timeline`). The rendered timeline is
cached under the campaign's change sequence (`campaigns.versions`: any write in the
campaign bumps it) and its reader (`timeline_html`); the other sources' items under the
sequence that rolls leave alone, so that after a roll only its card is new; the pager's
page of rolls under the campaign's counter of new rolls, so that any other write leaves
it; and an item whose source gives its `key` (a diary: its row and the names it shows;
an XP award: its id) under that key, the reader and the campaign's version, so that
after a wound or XP elsewhere none of them renders again, and after a new diary only
that diary does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaigns.fragments import cached_fragment, cached_pieces, cached_value, fragment_key, viewer
from campaigns.keyset import KeysetPage
from campaigns.models import Scene
from campaigns.permissions import CampaignAccess


@dataclass(frozen=True)
class TimelineItem:
    at: datetime
    kind: str  # "diary", "roll", "damage", "xp", ...
    template: str = ""  # included with `item`, `access`, `campaign`, `scene` and `request`
    obj: Any = None
    html: str | None = None  # or the item's HTML, escaped, when its source renders it
    # Everything the item's template shows beyond its reader, the campaign's version and
    # the language (its row's state, the names it reads): the item is then cached apart,
    # so a write renders only the items it changed.
    key: tuple | None = None


TimelineSource = Callable[[CampaignAccess, Scene], Iterable[TimelineItem]]

_sources: list[TimelineSource] = []


def register_timeline_source() -> Callable[[TimelineSource], TimelineSource]:
    """Add a source of scene timeline items (a decorator; idempotent)."""

    def register(source: TimelineSource) -> TimelineSource:
        if source not in _sources:
            _sources.append(source)
        return source

    return register


# The one source that grows without bound (rolls) pages the timeline: it returns a
# campaigns.keyset page of TimelineItems, and the other sources' items fall on the page
# whose time span holds them.
TimelinePager = Callable[..., KeysetPage]
TIMELINE_PAGE = 50
ITEM_TIMEOUT = 86400
_pager: list[TimelinePager] = []


def register_timeline_pager() -> Callable[[TimelinePager], TimelinePager]:
    """Set the source that pages the timeline: `(access, scene, *, size, after, before)
    -> KeysetPage` of TimelineItems, oldest first (a decorator)."""

    def register(pager: TimelinePager) -> TimelinePager:
        _pager[:] = [pager]
        return pager

    return register


@dataclass(frozen=True)
class _Entry:
    """A timeline item, rendered."""

    at: datetime
    kind: str
    html: str


def timeline_html(request: HttpRequest, access: CampaignAccess, scene: Scene) -> SafeString:
    """The page of the scene's timeline the request asks for (`after`, `before`), with
    the items its reader may see, oldest first; cached under the campaign's change
    sequence, the reader, the scene and the query string."""
    campaign = access.campaign
    key = fragment_key(
        "scene-timeline",
        viewer(access),
        (campaign.pk, campaign.change_seq),
        scene.pk,
        request.GET.urlencode(),
    )

    def render(extra: dict) -> str:
        context = {
            "access": access,
            "campaign": access.campaign,
            "scene": scene,
            "request": request,
            **extra,
        }
        entries = _other_entries(access, scene, context)
        # One kind alone (`?kind=diary`), so that diaries written after a long evening of
        # rolls are not buried under them; any other value shows nothing, not an error.
        kind = request.GET.get("kind") or None
        counts = Counter(entry.kind for entry in entries)
        if kind:
            entries = [entry for entry in entries if entry.kind == kind]
        page = _paged(access, scene, request.GET.get("after"), request.GET.get("before"))
        if page is not None:
            paged = [e for e in _rendered(page.items, context) if not kind or e.kind == kind]
            if kind and not paged:
                # The kind asked for is not paged: all of it shows, on one page.
                page = None
            else:
                # This page spans from its first paged item (or the start) to the next page's.
                start = page.items[0].at if page.previous and page.items else None
                end = page.next_starts
                entries = [
                    entry
                    for entry in entries
                    if (start is None or entry.at >= start) and (end is None or entry.at < end)
                ]
                entries += paged
        entries.sort(key=lambda entry: entry.at)
        return render_to_string(
            "campaigns/timeline/group_review.html",
            {**context, "entries": entries, "page": page, "kind": kind, "counts": counts},
            request,  # the pager's links keep the query string
        )

    return cached_fragment(request, key, render)


def _paged(access: CampaignAccess, scene: Scene, after, before) -> KeysetPage | None:
    """The pager's page of items (rolls, with their cards' HTML): cached under the
    campaign's counter of new rolls and its version (the names the cards show), the
    reader and the page asked for, so that any other write leaves it as it is."""
    if not _pager:
        return None
    campaign = access.campaign
    key = fragment_key(
        "scene-timeline-paged",
        viewer(access),
        (campaign.pk, campaign.version, campaign.roll_seq),
        scene.pk,
        after,
        before,
    )
    return cached_value(
        key, lambda: _pager[0](access, scene, size=TIMELINE_PAGE, after=after, before=before)
    )


def _other_entries(access: CampaignAccess, scene: Scene, context: dict) -> list[_Entry]:
    """Every item of the sources but the pager's (rolls), rendered: cached under the
    campaign's sequence but rolls and the reader, so a roll does not render them again.
    Their forms keep the CSRF placeholder of `context`, for the timeline that holds them."""
    campaign = access.campaign
    key = fragment_key(
        "scene-timeline-others",
        viewer(access),
        (campaign.pk, campaign.nonroll_seq),
        scene.pk,
    )
    return cached_value(
        key,
        lambda: _rendered([item for source in _sources for item in source(access, scene)], context),
    )


def _rendered(items: list[TimelineItem], context: dict) -> list[_Entry]:
    """The items' HTML: those with a `key` from the cache in one go (rendered and stored
    when not there), the others rendered now."""
    access = context["access"]
    campaign = access.campaign
    keys = {
        index: fragment_key(
            "timeline-item",
            viewer(access),
            (campaign.pk, campaign.version),
            context["scene"].pk,
            item.template,
            item.key,
        )
        for index, item in enumerate(items)
        if item.key is not None and item.html is None
    }

    def render(indexes: Iterable[int]) -> dict[int, str]:
        return {
            index: get_template(items[index].template).render({**context, "item": items[index]})
            for index in indexes
        }

    pieces = cached_pieces(keys, render, timeout=ITEM_TIMEOUT) if keys else {}
    pieces.update(
        render(index for index, item in enumerate(items) if index not in keys and item.html is None)
    )
    return [
        _Entry(
            item.at,
            item.kind,
            # Our templates escaped it, or the source did (`html`).
            mark_safe(item.html if item.html is not None else pieces[index]),
        )
        for index, item in enumerate(items)
    ]


# Scene lists show counts (diaries, rolls) of records owned by the apps above this one.
# Each registers a function `(access) -> queryset` of the rows the viewer may see, filtered
# on `scene=OuterRef("pk")`; the list annotates each scene with `<name>` from it
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
# apps that own it: `(access, user, scenes) -> None`, one query for the whole page. The
# scenes come with their `cast` (`campaigns.selectors.attach_casts`).
SceneListExtra = Callable[[CampaignAccess, Any, list[Scene]], None]
_list_extras: list[SceneListExtra] = []


def register_scene_list_extra(extra: SceneListExtra) -> SceneListExtra:
    if extra not in _list_extras:
        _list_extras.append(extra)
    return extra


def scene_list_extras(access: CampaignAccess, user, scenes: list[Scene]) -> None:
    for extra in _list_extras:
        extra(access, user, scenes)
