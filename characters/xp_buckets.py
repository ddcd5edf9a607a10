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

from django.core.cache import caches
from django.db.models import Count, Func, IntegerField, Max, Min, Q, QuerySet, Sum

from campaigns.fragments import CACHE, fragment_key
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


def ledger_summary(character_ids: list[int]) -> tuple[str, dict[int, list[LedgerPoint]]]:
    """(version, points) of these characters' whole ledgers; the points are kept in the
    fragment cache under the version. The ledger is append-only (a character's deletion
    takes its entries along), so its newest id and its size change with every write."""
    entries = XpEntry.objects.filter(character__in=character_ids)
    state = entries.order_by().aggregate(
        last=Max("pk"), size=Count("pk"), total=Sum("amount"), newest=Max("created_at")
    )
    version = fragment_key("xp-points", sorted(character_ids), *state.values())
    points = caches[CACHE].get(version)
    if points is None:
        points = ledger_points(entries)
        caches[CACHE].set(version, points, 3600)
    return version, points
