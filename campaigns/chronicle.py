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
`scene` and `request`. The sources that grow without bound page the timeline together
(`TimelinePager`: rolls, drawn with the roll log's own cached card, `mechanics.cards`, and
health events, hundreds in a long fight, cached by their ids, `mechanics.health_timeline`):
a page holds at most TIMELINE_PAGE of their rows whatever their kinds, and the other
sources' items (a few per character) fall on the page whose time span holds them. The
rendered timeline is cached under the campaign's change sequence (`campaigns.versions`:
any write in the campaign bumps it) and its reader (`timeline_html`); each paging source's
rows past a cursor under the versions they follow (rolls: the counter of new rolls and the
campaign's version; health events: the sequence that rolls leave alone), so that a write
to one source reads none of the other's rows again; the other sources' items on a page
under the sequence that rolls leave alone and the page's time span; and an item whose
source gives its `key` (a diary: its row and the names it shows; an XP award: its id)
under that key, the reader and the campaign's version, so that after a wound or XP
elsewhere none of them renders again, and after a new diary only that diary does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from operator import attrgetter, itemgetter
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaigns.fragments import cached_fragment, cached_pieces, cached_value, fragment_key, viewer
from campaigns.keyset import KeysetPage, beyond, decode, encode_key
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


# The sources that grow without bound (rolls, health events) page the timeline together:
# each gives the rows the reader may see as a query, and its items for the rows a page
# holds. A page holds at most TIMELINE_PAGE of their rows, whatever their kinds, merged
# in (created_at, rank, pk) order from a cursor that names one row of one source; the
# other sources' items fall on the page whose time span holds them. As many as a page of
# the roll log: a phone reads a page of a long evening without waiting for a hundred cards.
TIMELINE_PAGE = 25
ITEM_TIMEOUT = 86400
# Above any row's id: a bound that takes every row of a source written at an instant.
_ALL_AT = 2**63 - 1


@dataclass(frozen=True)
class TimelinePager:
    # Orders rows of different sources written at the same microsecond; in the cursors.
    rank: int
    kinds: frozenset[str]
    # `(access, scene, kind)` -> the rows of that kind (of every kind of this source when
    # None) the reader may see, as a values_list query whose first values are the pk and
    # created_at.
    rows: Callable[[CampaignAccess, Scene, str | None], QuerySet]
    # `(access, scene, rows)` -> the items of a page's rows (oldest first), with their HTML.
    items: Callable[[CampaignAccess, Scene, list[tuple]], list[TimelineItem]]
    # `(campaign)` -> the versions the rows follow (visibility, and what they hold).
    versions: Callable[[Any], tuple]


_pagers: list[TimelinePager] = []
by_rank = attrgetter("rank")


def register_timeline_pager(pager: TimelinePager) -> TimelinePager:
    """Add a source that pages the timeline (idempotent: one per rank)."""
    _pagers[:] = sorted([p for p in _pagers if p.rank != pager.rank] + [pager], key=by_rank)
    return pager


Position = tuple[datetime, int, int]  # created_at, the source's rank, pk


def _cursor(position: Position) -> str:
    at, rank, pk = position
    return f"{encode_key(at, pk)}.{rank}"


def _position(cursor: str | None) -> Position | None:
    """The row a cursor names, or None when there is none or it is not one."""
    row, _dot, rank = (cursor or "").rpartition(".")
    key = decode(row)
    if key is None or not (rank.isascii() and rank.isdigit()) or len(rank) > 4:
        return None
    return key[0], int(rank), key[1]


@dataclass(frozen=True)
class _Entry:
    """A timeline item, rendered."""

    at: datetime
    kind: str
    html: str


def timeline_key(request: HttpRequest, access: CampaignAccess, scene: Scene) -> str:
    """The key of `timeline_html`: the campaign's change sequence, the reader, the scene
    and the query string (the page asked for)."""
    campaign = access.campaign
    return fragment_key(
        "scene-timeline",
        viewer(access),
        (campaign.pk, campaign.change_seq),
        scene.pk,
        request.GET.urlencode(),
    )


def timeline_html(request: HttpRequest, access: CampaignAccess, scene: Scene) -> SafeString:
    """The page of the scene's timeline the request asks for (`after`, `before`), with
    the items its reader may see, oldest first; cached (`timeline_key`)."""
    key = timeline_key(request, access, scene)

    def render(extra: dict) -> str:
        context = {
            "access": access,
            "campaign": access.campaign,
            "scene": scene,
            "request": request,
            **extra,
        }
        # One kind alone (`?kind=diary`), so that diaries written after a long evening of
        # rolls are not buried under them; any other value shows nothing, not an error.
        kind = request.GET.get("kind") or None
        # None when no paging source has the kind asked for: all of it shows, on one page.
        page = _page(access, scene, kind, request.GET.get("after"), request.GET.get("before"))
        span = (None, None)
        if page is not None:
            # This page spans from its first paged item (or the start) to the next page's.
            span = (page.items[0].at if page.previous and page.items else None, page.next_starts)
        counts, entries = _other_entries(access, scene, context, kind, span)
        if page is not None:
            entries = [*entries, *_rendered(page.items, context)]
        entries.sort(key=lambda entry: entry.at)
        return render_to_string(
            "campaigns/timeline/group_review.html",
            {**context, "entries": entries, "page": page, "kind": kind, "counts": counts},
            request,  # the pager's links keep the query string
        )

    return cached_fragment(request, key, render)


def _page(
    access: CampaignAccess, scene: Scene, kind: str | None, after, before
) -> KeysetPage | None:
    """The page of the paging sources' items after or before a cursor (the first page
    without one, or with a garbled or stale one), with the cursors of the pages around."""
    pagers = [pager for pager in _pagers if kind is None or kind in pager.kinds]
    if not pagers:
        return None
    size = TIMELINE_PAGE
    backward = _position(before)
    forward = backward is None
    position = _position(after) if forward else backward
    past = _rows_past(access, scene, pagers, kind, position, forward=forward)
    rows = sorted(
        (((row[1], pager.rank, row[0]), row) for pager in pagers for row in past[pager]),
        key=itemgetter(0),
        reverse=not forward,
    )
    more = len(rows) > size
    peeked = rows[size][0] if more else None
    rows = rows[:size]
    if not forward:
        rows.reverse()
    if not rows:
        # Nothing beyond the cursor (a stale link): the first page, rather than none.
        return _page(access, scene, kind, None, None) if position else KeysetPage([], None, None)
    first, last = rows[0][0], rows[-1][0]
    if forward:
        previous = _cursor(first) if position is not None else None
        following = _cursor(last) if more else None
        next_starts = peeked[0] if peeked is not None else None
    else:
        previous = _cursor(first) if more else None
        following = _cursor(last)
        next_starts = position[0]  # the cursor's row opens the page below
    items = [
        item
        for pager in pagers
        for item in pager.items(
            access, scene, [row for (_at, rank, _pk), row in rows if rank == pager.rank]
        )
    ]
    # By time; at the same instant, in the sources' order (a stable sort).
    items.sort(key=lambda item: item.at)
    return KeysetPage(items, previous, following, next_starts)


def _rows_past(
    access: CampaignAccess,
    scene: Scene,
    pagers: list[TimelinePager],
    kind: str | None,
    position: Position | None,
    *,
    forward: bool,
) -> dict[TimelinePager, list[tuple]]:
    """Of each source, a page and one of its rows past `position` (oldest first, or
    newest first going back), cached apart under the versions its rows follow, the reader
    and the page asked for, so that a write to another source leaves it (all read in one
    `get_many`)."""
    campaign = access.campaign
    size = TIMELINE_PAGE
    keys = {
        pager: fragment_key(
            "scene-timeline-rows",
            viewer(access),
            (campaign.pk, pager.rank, pager.versions(campaign)),
            scene.pk,
            kind,
            position,
            forward,
        )
        for pager in pagers
    }

    def read(missing: list[TimelinePager]) -> dict[TimelinePager, list[tuple]]:
        past = {}
        for pager in missing:
            bound = _bound(position, pager.rank) if position is not None else None
            rows = pager.rows(access, scene, kind)
            past[pager] = list(beyond(rows, bound, down=not forward)[: size + 1])
        return past

    return cached_pieces(keys, read, timeout=3600)


# A cursor past any row: the page before it is the timeline's last.
END_OF_TIMELINE = "9999999999999999.0.0"


def page_showing(
    access: CampaignAccess, scene: Scene, at: datetime, *, kind: str = "", pk: int = _ALL_AT
) -> str:
    """The `before` cursor of the timeline page that shows an item: a paging source's row
    (its `kind` and `pk`), or another source's item written at `at`. One query per paging
    source: the first row of each after the item."""
    ranks = [pager.rank for pager in _pagers if kind in pager.kinds]
    # Another source's item comes after every row of its instant.
    position = (at, ranks[0] if ranks else max(map(by_rank, _pagers), default=0) + 1, pk)
    following = []
    for pager in _pagers:
        bound = _bound(position, pager.rank)
        rows = beyond(pager.rows(access, scene, None), bound, down=False)
        following += [(row[1], pager.rank, row[0]) for row in rows[:1]]
    return _cursor(min(following)) if following else END_OF_TIMELINE


def _bound(position: Position, rank: int) -> tuple[datetime, int]:
    """The (created_at, pk) key in a source of `rank` that `position` falls at: rows of a
    later source at the position's instant come after it; of an earlier one, before it."""
    at, at_rank, pk = position
    return at, pk if rank == at_rank else 0 if rank > at_rank else _ALL_AT


def _other_entries(
    access: CampaignAccess,
    scene: Scene,
    context: dict,
    kind: str | None,
    span: tuple[datetime | None, datetime | None],
) -> tuple[Counter, list[_Entry]]:
    """The count of each kind of the items of the sources that do not page, and those of
    `kind` (any when None) that fall in the page's time span (from its start, up to its
    end; None: open), rendered: those of other pages are not drawn. Cached under the
    campaign's sequence but rolls, the reader and the page, so a roll does not render
    them again. Their forms keep the CSRF placeholder of `context`, for the timeline that
    holds them."""
    campaign = access.campaign
    key = fragment_key(
        "scene-timeline-others",
        viewer(access),
        (campaign.pk, campaign.nonroll_seq),
        scene.pk,
        kind,
        span,
    )

    def read() -> tuple[Counter, list[_Entry]]:
        items = [item for source in _sources for item in source(access, scene)]
        start, end = span
        shown = [
            item
            for item in items
            if (kind is None or item.kind == kind)
            and (start is None or item.at >= start)
            and (end is None or item.at < end)
        ]
        return Counter(item.kind for item in items), _rendered(shown, context)

    return cached_value(key, read)


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
