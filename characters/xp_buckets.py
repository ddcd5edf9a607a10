"""The XP chart's data: a few hundred points whatever the size of the ledger.

A chart of a long campaign does not need one point per ledger entry (20,000 entries are
40,000 SVG circles). `ledger_points` groups each character's entries into equal spans of
time (an hour, a day, a week, a month, a quarter or a year: the finest that keeps the whole
chart within POINT_BUDGET points) and returns one point per group, shaped like the last
entry of the group: its time, the balance it left and the XP earned in it. The chart draws
those exactly as it drew entries. The groups are read from `XpSummary`, which the database
keeps summed for every span (characters/xp_summary.py), not from the entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db.models import Count, Max, Min, QuerySet

from campaigns.fragments import cached_value, fragment_key
from campaigns.models import Campaign
from characters.models import Character, XpEntry, XpSummary

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
# The summary's spans, in seconds (each unit's length is a whole number of them).
SPANS = tuple(int(length.total_seconds()) for _unit, length in UNITS)


class LedgerPoint(NamedTuple):
    """A group of entries read like its last entry: when, the balance it left, and the XP
    earned in the group (awards and corrections)."""

    created_at: datetime
    balance_after: int
    amount: int
    kind: str = XpEntry.Kind.AWARD


def bucket_unit(span: timedelta, series: int, budget: int = POINT_BUDGET) -> str:
    """The finest unit that keeps `series` lines within `budget` points in all."""
    return _unit(span, series, budget)[0]


def _unit(span: timedelta, series: int, budget: int = POINT_BUDGET) -> tuple[str, timedelta]:
    per_series = max(MIN_POINTS_PER_SERIES, budget // max(series, 1))
    for unit, length in UNITS:
        if span / length < per_series:
            return unit, length
    return UNITS[-1]


def chart_rows(campaign_id: int, character_ids: Sequence[int]) -> QuerySet | None:
    """The summary's rows the chart of these characters of the campaign reads, of the
    span that keeps it within budget (one query to choose it); None without entries."""
    rows = XpSummary.objects.filter(campaign_id=campaign_id, character_id__in=character_ids)
    bounds = rows.filter(span=SPANS[-1]).aggregate(
        start=Min("first_at"), end=Max("last_at"), series=Count("character_id", distinct=True)
    )
    if bounds["start"] is None:
        return None
    _name, length = _unit(bounds["end"] - bounds["start"], bounds["series"])
    return (
        rows.filter(span=int(length.total_seconds()))
        .order_by("character_id", "bucket")
        .values_list("character_id", "last_at", "total", "earned")
    )


def ledger_points(campaign_id: int, character_ids: Sequence[int]) -> dict[int, list[LedgerPoint]]:
    """{character id: points oldest first} of these characters of the campaign; two
    queries, on the summary's rows of the coarsest span and of the one chosen."""
    groups = chart_rows(campaign_id, character_ids)
    if groups is None:
        return {}
    points: dict[int, list[LedgerPoint]] = {}
    balance: dict[int, int] = {}
    for character, last, total, earned in groups:
        # The balance is the running sum of the ledger (XpEntry.balance_after says so).
        balance[character] = balance.get(character, 0) + total
        points.setdefault(character, []).append(LedgerPoint(last, balance[character], earned))
    return points


def ledger_summary(
    campaign: Campaign, characters: Sequence[Character]
) -> tuple[str, dict[int, list[LedgerPoint]]]:
    """(version, points) of these characters' ledgers in the campaign; the points are
    kept in the fragment cache under the version.

    The version is the campaign's counter of new XP entries (`Campaign.xp_seq`), loaded
    with the campaign: the database bumps it at each new entry, in the same transaction
    (campaigns/versions.py), and a wound or a roll leaves it as it is, so the points stay
    cached through them and no query is needed to know the ledger changed."""
    ids = [c.pk for c in characters]
    version = fragment_key("xp-points", campaign.pk, campaign.xp_seq, ids)

    def plain() -> dict[int, list[tuple]]:
        # Cached as plain tuples: unpickling 500 named ones cost 1-2 ms a request.
        found = ledger_points(campaign.pk, ids)
        return {pk: [tuple(point) for point in series] for pk, series in found.items()}

    cached = cached_value(version, plain)
    return version, {pk: list(map(LedgerPoint._make, rows)) for pk, rows in cached.items()}
