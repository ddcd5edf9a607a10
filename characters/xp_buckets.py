"""The XP chart's data, summed in the database: a few hundred points whatever the size of
the ledger.

A chart of a long campaign does not need one point per ledger entry (20,000 entries are
40,000 SVG circles). `ledger_points` groups each character's entries into equal spans of
time (an hour, a day, a week, a month, a quarter or a year: the finest that keeps the whole
chart within POINT_BUDGET points) in one GROUP BY query, and returns one point per group,
shaped like the last entry of the group: its time, the balance it left and the XP earned in
it. The chart draws those exactly as it drew entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Func, IntegerField, Max, Min, Q, QuerySet, Sum

from campaigns.fragments import cached_value, fragment_key
from characters.models import XpEntry

POINT_BUDGET = 500
MIN_POINTS_PER_SERIES = 12
UNITS = (
    ("hour", timedelta(hours=1)),
    ("day", timedelta(days=1)),
    ("week", timedelta(weeks=1)),
    ("month", timedelta(days=30.44)),
    ("quarter", timedelta(days=91.31)),
    ("year", timedelta(days=365.25)),
)


@dataclass(frozen=True)
class LedgerPoint:
    """A group of entries read like its last entry: when, the balance it left, and the XP
    earned in the group (awards and corrections)."""

    created_at: datetime
    balance_after: int
    amount: int
    kind: str = XpEntry.Kind.AWARD


class EpochSpan(Func):
    """Which `seconds`-long span since 1970 a datetime falls in, in the database's own
    arithmetic (Django's Trunc runs a Python function per row on SQLite)."""

    output_field = IntegerField()

    def __init__(self, expression, seconds: int):
        super().__init__(expression)
        self.seconds = int(seconds)

    def as_sqlite(self, compiler, connection):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"(CAST(strftime('%%s', {sql}) AS INTEGER) / {self.seconds})", params

    def as_postgresql(self, compiler, connection):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"FLOOR(EXTRACT(EPOCH FROM {sql}) / {self.seconds})::bigint", params


def bucket_unit(span: timedelta, series: int, budget: int = POINT_BUDGET) -> str:
    """The finest unit that keeps `series` lines within `budget` points in all."""
    return _unit(span, series, budget)[0]


def _unit(span: timedelta, series: int, budget: int = POINT_BUDGET) -> tuple[str, timedelta]:
    per_series = max(MIN_POINTS_PER_SERIES, budget // max(series, 1))
    for unit, length in UNITS:
        if span / length < per_series:
            return unit, length
    return UNITS[-1]


def ledger_points(entries: QuerySet[XpEntry]) -> dict[int, list[LedgerPoint]]:
    """{character id: points oldest first} for these entries; two queries."""
    bounds = entries.order_by().aggregate(
        start=Min("created_at"), end=Max("created_at"), series=Count("character", distinct=True)
    )
    if bounds["start"] is None:
        return {}
    _name, length = _unit(bounds["end"] - bounds["start"], bounds["series"])
    groups = (
        entries.order_by()
        .annotate(bucket=EpochSpan("created_at", length.total_seconds()))
        .values("character_id", "bucket")
        .annotate(
            last=Max("created_at"),
            total=Sum("amount"),
            earned=Sum("amount", filter=~Q(kind=XpEntry.Kind.SPEND), default=0),
        )
        .order_by("character_id", "bucket")
    )
    points: dict[int, list[LedgerPoint]] = {}
    balance: dict[int, int] = {}
    for group in groups:
        character = group["character_id"]
        # The balance is the running sum of the ledger (XpEntry.balance_after says so).
        balance[character] = balance.get(character, 0) + group["total"]
        points.setdefault(character, []).append(
            LedgerPoint(group["last"], balance[character], group["earned"])
        )
    return points


LEDGER_VERSION_ROWS = 50


def ledger_summary(
    entries: QuerySet[XpEntry], scope: tuple
) -> tuple[str, dict[int, list[LedgerPoint]]]:
    """(version, points) of `entries` (whole ledgers: a campaign's, or a character's),
    which `scope` names (what they are filtered on); the points are kept in the fragment
    cache under the version.

    The ledger is append-only, so the ids of its newest entries (by time, on the
    campaign's or the character's index) change with every write, including an entry
    committed late by a concurrent request; a few dozen index entries, however long the
    ledger. A character's deletion takes its entries along: its line goes with its name
    from the chart's own key, and its points are never read again."""
    newest = list(
        entries.order_by("-created_at", "-pk").values_list("pk", flat=True)[:LEDGER_VERSION_ROWS]
    )
    version = fragment_key("xp-points", scope, newest)
    return version, cached_value(version, lambda: ledger_points(entries))
