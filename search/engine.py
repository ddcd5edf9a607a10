"""Running a search on the campaign's index, on PostgreSQL or SQLite.

A search is two queries whatever the campaign's size: the newest matches the reader may
read (at most MATCHES short rows: id, kind, score), ranked here, then the shown hits'
rows with what their links need. Both go through the ORM's public API.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import Case, F, Q, QuerySet, Value, When, Window
from django.db.models.functions import RowNumber

from campaigns.permissions import CampaignAccess, visible_search_entries
from characters.models import DiaryEntry
from search.models import SearchEntry
from search.sql import CONFIG
from search.text import Query

# Hits of each kind on the grouped page, and per page of one kind.
PER_KIND = 5
PAGE = 20
RECENT_KINDS = (SearchEntry.Kind.ROLL, SearchEntry.Kind.XP)
# The newest matches ranked: a word in every roll of a long campaign costs what a
# thousand do. Fewer matches are all ranked; more are counted as "more than".
MATCHES = 1000


@dataclass(frozen=True)
class Filters:
    story: int | None = None
    scene: int | None = None
    character: int | None = None
    kind: str = ""


@dataclass
class Results:
    counts: dict[str, int] = field(default_factory=dict)
    # Kind -> its hits, best first, in the kinds' order.
    groups: dict[str, list[SearchEntry]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def capped(self) -> bool:
        """Only the newest MATCHES were ranked and counted."""
        return self.total >= MATCHES


def _newest(entries: QuerySet, query: Query) -> QuerySet:
    """(id, kind, score) of the newest MATCHES entries that match, score higher for
    better. Rolls and XP entries are short labels, alike in relevance: they score 0, so
    the newest come first, and their many rows cost no ranking."""
    if connection.vendor == "postgresql":
        wanted = SearchQuery(query.tsquery(), config=CONFIG, search_type="raw")
        rank = SearchRank(F("document"), wanted)
        score = Case(When(kind__in=RECENT_KINDS, then=Value(0.0)), default=rank)
        # Numbered after the GIN index found them all: ORDER BY id LIMIT lets the
        # planner walk the primary key testing every entry until enough match.
        newest = Window(RowNumber(), order_by=F("pk").desc())
        return (
            entries.filter(document=wanted)
            .annotate(score=score, newest=newest)
            .filter(newest__lte=MATCHES)
            .values_list("pk", "kind", "score")
        )
    # FTS5 drives: its matches newest first (its rowid is the entry's id), each joined to
    # its entry, which the reader's filters keep or drop, until MATCHES are kept. bm25
    # (lower is better; the title weighs five times the body) works only in the query
    # that runs the match, so the FTS5 table joins through extra(): no other public API
    # adds a table to the FROM clause.
    kinds = ", ".join(f"'{kind}'" for kind in RECENT_KINDS)
    score = (
        f"CASE WHEN search_searchentry.kind IN ({kinds}) THEN 0.0 "
        "ELSE -bm25(search_fts, 5.0, 1.0) END"
    )
    return entries.extra(
        select={"score": score},
        tables=["search_fts"],
        where=["search_fts.rowid = search_searchentry.id", "search_fts MATCH %s"],
        params=[query.fts5()],
        order_by=["-search_fts.rowid"],
    ).values_list("pk", "kind", "score")[:MATCHES]


def search(access: CampaignAccess, query: Query, filters: Filters, *, page: int = 1) -> Results:
    campaign = access.campaign
    entries = visible_search_entries(
        access,
        SearchEntry.objects.filter(campaign=campaign),
        diaries=DiaryEntry.objects.filter(scene__campaign=campaign),
    )
    if filters.story:
        entries = entries.filter(Q(story_id=filters.story) | Q(scene__story_id=filters.story))
    if filters.scene:
        entries = entries.filter(scene_id=filters.scene)
    if filters.character:
        entries = entries.filter(character_id=filters.character)
    if filters.kind:
        entries = entries.filter(kind=filters.kind)
    by_kind: dict[str, list[tuple[float, int]]] = {}
    for pk, kind, score in _newest(entries, query):
        by_kind.setdefault(kind, []).append((score, pk))
    counts = {kind: len(by_kind[kind]) for kind in SearchEntry.Kind.values if kind in by_kind}
    # Best first, the newest first among equals.
    shown = {kind: [pk for _score, pk in sorted(by_kind[kind], reverse=True)] for kind in counts}
    if filters.kind:
        start = (page - 1) * PAGE
        shown = {kind: pks[start : start + PAGE] for kind, pks in shown.items()}
    else:
        shown = {kind: pks[:PER_KIND] for kind, pks in shown.items()}
    if not any(shown.values()):
        return Results()
    rows = SearchEntry.objects.select_related("scene", "character").defer("document")
    loaded = rows.in_bulk([pk for pks in shown.values() for pk in pks])
    groups = {kind: [loaded[pk] for pk in pks] for kind, pks in shown.items() if pks}
    return Results(counts=counts, groups=groups)
