"""The XP chart's points: a few hundred at most, read from the sums the database keeps
(characters.XpSummary): each entry while they fit, else groups of entries, each one with
the lowest and highest balance its entries left and the balance its last one left."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import groupby

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters import xp_buckets
from characters.models import XpEntry
from characters.services import xp_adjust
from characters.views.xp import _marks
from characters.xp_buckets import POINT_BUDGET, bucket_unit, ledger_summary
from characters.xp_chart import build_chart
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


def test_three_entries_within_an_hour_are_three_steps_with_the_peak_between(campaign, gm, player):
    """The ledger reads +9 (= 9) at 17:32, +9 (= 18) at 17:35 and -9 (= 9) at 17:36: so
    does the chart, where an hour's group showed 0 until 17:36 and then 9, and no 18."""
    lucia = make_character(campaign, player, name="Lucía")
    madrid = START.replace(hour=16, minute=32)  # 17:32 in Madrid
    for minutes, amount in ((0, 9), (3, 9), (4, -9)):
        with backdated(madrid + timedelta(minutes=minutes)):
            xp_adjust(character=lucia, user=gm, amount=amount, reason="Sesión")
    ledgers = ledger_summary(campaign, [lucia])
    shown = [(p.last_at, p.balance) for p in ledgers.points([lucia.pk])[lucia.pk]]
    ledger = XpEntry.objects.filter(character=lucia).order_by("created_at", "pk")
    assert shown == [(e.created_at, e.balance_after) for e in ledger]
    assert [balance for _at, balance in shown] == [9, 18, 9]
    chart = build_chart(_marks(ledgers, [lucia], "balance"), now=madrid + timedelta(minutes=10))
    html = chart.figure("c")
    for value, moment in ((9, "17:32"), (18, "17:35"), (9, "17:36")):
        assert f"Lucía: {value} PX el 6 Ene 2025, {moment}</title>" in html
    # The line goes up to 9, up to 18, and down to 9.
    y_of = {tick.label: tick.position for tick in chart.y_ticks}
    scale = (y_of["0"] - y_of["20"]) / 20
    values = [
        round((y_of["0"] - float(p.split(",")[1])) / scale) for p in chart.series[0].points.split()
    ]
    assert [value for value, _run in groupby(values)] == [0, 9, 18, 9]


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
        assert shown[-1].balance == character.xp_balance
        for point in shown:
            group = [e for e in ledger if point.first_at <= e.created_at <= point.last_at]
            assert (group[0].created_at, group[-1].created_at) == (point.first_at, point.last_at)
            assert point.balance == group[-1].balance_after
            # What the ledger shows between the two, which the chart draws as a range.
            balances = [entry.balance_after for entry in group]
            assert (point.low, point.peak) == (min(balances), max(balances))
        assert any(point.low < point.peak for point in shown)
        earned = sum(e.amount for e in ledger if e.kind != XpEntry.Kind.SPEND)
        assert sum(point.earned for point in shown) == earned


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


def test_a_line_read_entry_by_entry_when_the_others_fit_reads_no_more_than_fits(
    campaign, gm, player, monkeypatch
):
    """Mateo's line alone fits the budget entry by entry: Lucía's new entry is read with
    her sums by the entry, but her ledger does not fit. That read stops past the budget,
    and her sums and the points are read by the span the chart takes."""
    monkeypatch.setattr(xp_buckets, "POINT_BUDGET", 4)
    mateo, lucia = (make_character(campaign, player, name=n) for n in ("Mateo", "Lucía"))
    for hour in range(2):
        with backdated(START + timedelta(hours=hour)):
            xp_adjust(character=mateo, user=gm, amount=2, reason="Sesión")
    for hour in range(6):
        with backdated(START + timedelta(hours=hour, minutes=30)):
            xp_adjust(character=lucia, user=gm, amount=1, reason="Sesión")
    for character in (mateo, lucia):
        character.refresh_from_db()
    ledger_summary(campaign, [mateo])  # his sums cached, hers not
    with CaptureQueriesContext(connection) as queries:
        ledgers = ledger_summary(campaign, [mateo, lucia])
        points = ledgers.points([mateo.pk, lucia.pk])
    # Her rows by the entry (five: one more than fits), her sums, the points by the hour.
    assert len(queries) == 3
    assert "LIMIT 5" in queries[0]["sql"]
    assert ledgers.span == 3600
    assert ledgers.sums[lucia.pk].entries == 6
    assert [p.balance for p in points[lucia.pk]] == [1, 2, 3, 4, 5, 6]
