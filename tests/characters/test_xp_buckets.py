"""The XP chart's points: a few hundred at most, read from the sums the database keeps
(characters.XpSummary), each one the balance the last entry of its group left."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import XpEntry
from characters.services import xp_adjust
from characters.xp_buckets import POINT_BUDGET, bucket_unit, ledger_summary
from tests.factories import backdated, make_character

START = datetime(2025, 1, 6, 20, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("span", "series", "unit"),
    [
        (timedelta(hours=3), 2, "hour"),
        (timedelta(days=20), 2, "day"),
        (timedelta(days=200), 2, "day"),
        (timedelta(days=200), 20, "month"),
        (timedelta(days=730), 20, "month"),
        (timedelta(days=1500), 20, "quarter"),
        (timedelta(days=3650), 20, "year"),
        (timedelta(days=36500), 20, "year"),
    ],
)
def test_the_unit_is_the_finest_that_keeps_the_chart_within_budget(span, series, unit):
    assert bucket_unit(span, series) == unit


def test_each_point_is_the_balance_left_by_the_last_entry_of_its_group(campaign, gm, player):
    characters = [make_character(campaign, player, name=n) for n in ("Ana", "Berta")]
    made = []
    for day in range(400):  # more than a year of entries, a few per day
        for n, character in enumerate(characters):
            amount = -1 if day % 5 == 4 and n == 0 else 2 + n
            with backdated(START + timedelta(days=day, hours=n)):
                entry = xp_adjust(character=character, user=gm, amount=amount, reason="Sesión")
            made.append(entry)
    entries = XpEntry.objects.filter(character__in=characters)
    with CaptureQueriesContext(connection) as queries:
        points = ledger_summary(campaign, characters).points([c.pk for c in characters])
    # The sums, which choose the span; the points of that span.
    assert len(queries) == 2
    assert sum(len(p) for p in points.values()) <= POINT_BUDGET
    for character in characters:
        character.refresh_from_db()
        ledger = list(entries.filter(character=character).order_by("created_at", "pk"))
        shown = points[character.pk]
        assert 12 <= len(shown) < len(ledger)
        assert shown[-1].balance_after == character.xp_balance
        by_time = {entry.created_at: entry for entry in ledger}
        for point in shown:
            assert point.balance_after == by_time[point.created_at].balance_after
        earned = sum(e.amount for e in ledger if e.kind != XpEntry.Kind.SPEND)
        assert sum(point.amount for point in shown) == earned


def test_no_entries_no_lines(campaign, player):
    lucia = make_character(campaign, player, name="Lucía")
    ledgers = ledger_summary(campaign, [lucia])
    assert (ledgers.sums, ledgers.keys) == ({}, {})


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="SQLite's plan; PostgreSQL's depends on its statistics"
)
def test_the_points_read_the_summarys_index_and_never_the_entries(campaign, gm, player):
    """20,000 entries summed from the ledger's index took 18 ms; the summary reads a few
    hundred rows whatever the ledger."""
    lucia = make_character(campaign, player, name="Lucía")
    xp_adjust(character=lucia, user=gm, amount=5, reason="Inicio")
    with CaptureQueriesContext(connection) as queries:
        ledger_summary(campaign, [lucia]).points([lucia.pk])
    with connection.cursor() as cursor:
        for query in queries.captured_queries:
            assert "characters_xpentry" not in query["sql"]
            cursor.execute(f"EXPLAIN QUERY PLAN {query['sql']}")
            plan = " ".join(row[-1] for row in cursor.fetchall())
            # The unique constraint's index (SQLite names it sqlite_autoindex_…).
            assert "campaign_id=? AND span=? AND character_id=?" in plan, plan
