"""Running a search on the campaign's index, on PostgreSQL or SQLite.

A search is two queries whatever the campaign's size: the best hits of each kind (or one
page of one kind) with the number of hits of each kind, then those hits' rows with what
their links need.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import Case, F, FloatField, Q, QuerySet, Value, When
from django.db.models.expressions import RawSQL

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


def _base(entries: QuerySet, query: Query) -> tuple[str, tuple]:
    """SQL that defines `base`: the id, kind and score (higher is better) of the newest
    MATCHES entries that match, materialized before they are ranked. Rolls and XP entries are short
    labels, alike in relevance: they score 0, so the newest come first, and their many
    rows cost no ranking."""
    if connection.vendor == "postgresql":
        wanted = SearchQuery(query.tsquery(), config=CONFIG, search_type="raw")
        score = Case(
            When(kind__in=RECENT_KINDS, then=Value(0.0)),
            default=SearchRank(F("document"), wanted),
            output_field=FloatField(),
        )
        found = entries.filter(document=wanted).annotate(score=score).order_by()
        sql, params = found.values_list("id", "kind", "score").query.sql_with_params()
        # The matches first (GIN), then the newest: ORDER BY id LIMIT alone lets the
        # planner walk the primary key testing every entry until enough match.
        return (
            f"WITH search_matches AS MATERIALIZED ({sql}), base AS MATERIALIZED "
            "(SELECT * FROM search_matches ORDER BY id DESC LIMIT %s) ",
            (*params, MATCHES),
        )
    # One pass driven by FTS5: its matches, each joined to its entry by id, which the
    # reader's filters then keep or drop. CROSS JOIN keeps FTS5 the outer loop (else
    # SQLite may run the match once per entry of the campaign), and bm25 (lower is
    # better; the title weighs five times the body) works only in that query.
    recent = ", ".join(f"'{kind}'" for kind in RECENT_KINDS)
    score = RawSQL(
        f"CASE WHEN search_searchentry.kind IN ({recent}) THEN 0 "
        "ELSE -bm25(search_fts, 5.0, 1.0) END",
        (),
    )
    found = entries.extra(where=["search_fts MATCH %s"], params=[query.fts5()])
    # Newest first in FTS5's own order, so the scan stops at MATCHES.
    found = found.annotate(score=score).order_by(RawSQL("search_fts.rowid", ()).desc())
    sql, params = found.values_list("id", "kind", "score")[:MATCHES].query.sql_with_params()
    table = ' FROM "search_searchentry" '
    if sql.count(table) != 1:
        raise AssertionError(f"unexpected SQL for the search: {sql}")
    joined = (
        ' FROM search_fts CROSS JOIN "search_searchentry" '
        'ON "search_searchentry"."id" = search_fts.rowid '
    )
    return f"WITH base AS MATERIALIZED ({sql.replace(table, joined)}) ", params


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
    base, params = _base(entries, query)
    if filters.kind:
        ranked = base + (
            "SELECT id, kind, COUNT(*) OVER () FROM base "
            "ORDER BY score DESC, id DESC LIMIT %s OFFSET %s"
        )
        params = (*params, PAGE, (page - 1) * PAGE)
    else:
        ranked = base + (
            "SELECT id, kind, n FROM (SELECT id, kind, score, COUNT(*) OVER (PARTITION BY kind) "
            "AS n, ROW_NUMBER() OVER (PARTITION BY kind ORDER BY score DESC, id DESC) AS place "
            "FROM base) ranked WHERE place <= %s ORDER BY score DESC, id DESC"
        )
        params = (*params, PER_KIND)
    with connection.cursor() as cursor:
        cursor.execute(ranked, params)
        rows = cursor.fetchall()
    counts = {kind: n for _id, kind, n in rows}
    results = Results(counts={k: counts[k] for k in SearchEntry.Kind.values if k in counts})
    if not rows:
        return results
    loaded = SearchEntry.objects.select_related("scene", "character").in_bulk([r[0] for r in rows])
    for kind in results.counts:
        results.groups[kind] = [loaded[pk] for pk, row_kind, _n in rows if row_kind == kind]
    return results
