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

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db.models import Max, Min, QuerySet

from campaigns.fragments import cached_pieces, fragment_key
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
TIMEOUT = 3600


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


def _bounds(campaign_id: int, character_ids: Collection[int]) -> dict[int, tuple]:
    """{character id: (first entry's time, last entry's time)} of these characters of the
    campaign, `()` for those without entries: one query on the coarsest span's rows."""
    rows = (
        XpSummary.objects.filter(
            campaign_id=campaign_id, character_id__in=character_ids, span=SPANS[-1]
        )
        .order_by()
        .values_list("character_id")
        .annotate(start=Min("first_at"), end=Max("last_at"))
    )
    found = {character: (start, end) for character, start, end in rows}
    return {pk: found.get(pk, ()) for pk in character_ids}


def _span(bounds: Collection[tuple]) -> int:
    """The summary's span (seconds) that keeps the chart of these series within budget."""
    start = min(first for first, _last in bounds)
    end = max(last for _first, last in bounds)
    _name, length = _unit(end - start, len(bounds))
    return int(length.total_seconds())


def _rows(campaign_id: int, character_ids: Collection[int], span: int) -> QuerySet:
    return (
        XpSummary.objects.filter(campaign_id=campaign_id, character_id__in=character_ids, span=span)
        .order_by("character_id", "bucket")
        .values_list("character_id", "last_at", "total", "earned")
    )


def chart_rows(campaign_id: int, character_ids: Sequence[int]) -> QuerySet | None:
    """The summary's rows the chart of these characters of the campaign reads, of the
    span that keeps it within budget (one query to choose it); None without entries."""
    bounds = [found for found in _bounds(campaign_id, character_ids).values() if found]
    if not bounds:
        return None
    return _rows(campaign_id, character_ids, _span(bounds))


def _points(groups) -> dict[int, list[tuple]]:
    """{character id: points as plain tuples, oldest first} from the summary's rows."""
    points: dict[int, list[tuple]] = {}
    balance: dict[int, int] = {}
    for character, last, total, earned in groups:
        # The balance is the running sum of the ledger (XpEntry.balance_after says so).
        balance[character] = balance.get(character, 0) + total
        points.setdefault(character, []).append(
            (last, balance[character], earned, XpEntry.Kind.AWARD)
        )
    return points


def ledger_points(campaign_id: int, character_ids: Sequence[int]) -> dict[int, list[LedgerPoint]]:
    """{character id: points oldest first} of these characters of the campaign; two
    queries, on the summary's rows of the coarsest span and of the one chosen."""
    groups = chart_rows(campaign_id, character_ids)
    if groups is None:
        return {}
    return {pk: list(map(LedgerPoint._make, rows)) for pk, rows in _points(groups).items()}


def _missing_points(campaign_id: int, character_ids: list[int], span: int) -> dict:
    found = _points(_rows(campaign_id, character_ids, span))
    return {pk: found.get(pk, []) for pk in character_ids}


def ledger_summary(
    campaign: Campaign, characters: Sequence[Character]
) -> tuple[dict[int, str], dict[int, list[LedgerPoint]]]:
    """({character id: its points' key}, {character id: points}) of these characters'
    ledgers in the campaign, for those with entries.

    Each character's points are kept in the fragment cache apart, under its version
    (`Character.version`, loaded with it): the database bumps it at each new entry of its
    ledger, in the same transaction (campaigns/versions.py), so an award to one character
    reads that character's rows alone (two queries), and a key in which the points' keys
    are changes with any of them. The span they are grouped by is in their key: a new
    entry that changes it for every series reads them all again."""
    versions = {c.pk: c.version for c in characters}
    # Which span: from each series' first and last entry, cached alike.
    bounds = cached_pieces(
        {
            pk: fragment_key("xp-bounds", campaign.pk, pk, version)
            for pk, version in versions.items()
        },
        lambda missing: _bounds(campaign.pk, missing),
        timeout=TIMEOUT,
    )
    charted = [pk for pk in versions if bounds[pk]]
    if not charted:
        return {}, {}
    span = _span([bounds[pk] for pk in charted])
    keys = {pk: fragment_key("xp-points", campaign.pk, pk, versions[pk], span) for pk in charted}
    # Cached as plain tuples: unpickling 500 named ones cost 1-2 ms a request.
    cached = cached_pieces(
        keys, lambda missing: _missing_points(campaign.pk, missing, span), timeout=TIMEOUT
    )
    return keys, {pk: list(map(LedgerPoint._make, rows)) for pk, rows in cached.items()}
