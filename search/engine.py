"""Running a search on the campaign's index, on PostgreSQL or SQLite.

A search is two queries whatever the campaign's size: the best hits of each kind (or one
page of one kind) with the number of hits of each kind, then those hits' rows with what
their links need.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import F, Q, QuerySet
from django.db.models.expressions import RawSQL

from campaigns.permissions import CampaignAccess, visible_search_entries
from characters.models import DiaryEntry
from search.models import SearchEntry
from search.sql import CONFIG
from search.text import Query

# Hits of each kind on the grouped page, and per page of one kind.
PER_KIND = 5
PAGE = 20


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


def _matching(entries: QuerySet, query: Query) -> tuple[QuerySet, object]:
    """The entries that match, and the expression of their score (higher is better)."""
    if connection.vendor == "postgresql":
        wanted = SearchQuery(query.tsquery(), config=CONFIG, search_type="raw")
        return entries.filter(document=wanted), SearchRank(F("document"), wanted)
    # FTS5: joined to the entry's row of search_fts; bm25 is lower for better hits, and
    # weighs the title five times the body.
    matching = entries.extra(
        tables=["search_fts"],
        where=["search_fts.rowid = search_searchentry.id", "search_fts MATCH %s"],
        params=[query.fts5()],
    )
    return matching, RawSQL("-bm25(search_fts, 5.0, 1.0)", [])


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
    found, score = _matching(entries, query)
    sql, params = (
        found.annotate(score=score).values_list("id", "kind", "score").query.sql_with_params()
    )
    # Materialized first: SQLite computes bm25 only in the full-text query itself.
    base = f"WITH base AS MATERIALIZED ({sql}) "
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
