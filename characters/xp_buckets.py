"""The XP chart's data: a few hundred points whatever the size of the ledger.

Lines of POINT_BUDGET entries in all are drawn entry by entry (a point a second: one entry,
but for entries made at once), as the ledger beside the chart lists them. Beyond, a chart
does not need one point per entry (20,000 entries are 40,000 SVG circles): `Ledgers.points`
groups each character's entries into equal spans of time (an hour, a day, a week, a month,
a quarter or a year: the finest that keeps the whole chart within POINT_BUDGET points) and
returns one point per group: the times of its first and last entries, the lowest and
highest balance its entries left, the balance it ends with and the XP earned in it. The
chart draws that range, so no balance the ledger shows is hidden by its group. The groups
are read from `XpSummary`, which the database keeps summed for every span
(characters/xp_summary.py), not from the entries.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import NamedTuple, Protocol

from django.core.cache import caches
from django.db.models import CharField, ExpressionWrapper, F, Max, Min, QuerySet, Sum

from campaigns.fragments import CACHE, fragment_key
from campaigns.models import Campaign
from characters.models import XpSummary

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
# The span of lines drawn entry by entry, in seconds.
EACH_ENTRY = 1
# The summary's spans, in seconds (each unit's length is a whole number of them).
SPANS = (EACH_ENTRY, *(int(length.total_seconds()) for _unit, length in UNITS))
TIMEOUT = 3600
# Lines grouped by a week or more show their points' moments as dates: at that scale a
# group's first and last entries' times of day tell nothing.
DATED_SPAN = int(timedelta(weeks=1).total_seconds())


class Charted(Protocol):
    """What the chart and the totals read of a character: a `Character`, or the named
    tuple of its values the XP log reads."""

    pk: int
    name: str
    version: int
    xp_balance: int


class LedgerPoint(NamedTuple):
    """A group of entries (most often one): when its first and last entries were made,
    the lowest and highest balance its entries left, the balance the last one left, and
    the XP earned in the group (awards and corrections)."""

    first_at: datetime
    last_at: datetime
    low: int
    peak: int
    balance: int
    earned: int

    @property
    def is_group(self) -> bool:
        """Whether the point holds entries of different times or balances, which one
        step would hide."""
        return self.first_at != self.last_at or self.low != self.peak


def bucket_unit(span: timedelta, series: int, budget: int = POINT_BUDGET) -> str:
    """The finest unit that keeps `series` lines within `budget` points in all."""
    return _unit(span, series, budget)[0]


def _unit(span: timedelta, series: int, budget: int = POINT_BUDGET) -> tuple[str, timedelta]:
    per_series = max(MIN_POINTS_PER_SERIES, budget // max(series, 1))
    for unit, length in UNITS:
        if span / length < per_series:
            return unit, length
    return UNITS[-1]


class Sums(NamedTuple):
    """A character's ledger in five numbers: its first and last entry's times (in
    microseconds since 1970, UTC: plain numbers, which the cache pickles at a tenth of a
    datetime's cost), the XP earned (awards and corrections), the sum of every entry (its
    balance) and how many entries it holds."""

    first: int
    last: int
    earned: int
    total: int
    entries: int


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


def _stamped(sums: tuple) -> tuple:
    """Sums read with datetimes as `Sums` keeps them: the two moments as microseconds
    since 1970 (`()`, no entries, as it is)."""
    if not sums:
        return ()
    first, last, *rest = sums
    return ((first - EPOCH) // MICROSECOND, (last - EPOCH) // MICROSECOND, *rest)


def _sums(campaign_id: int, character_ids: Collection[int]) -> dict[int, tuple]:
    """{character id: Sums as a plain tuple} of these characters of the campaign, `()` for
    those without entries: one query on the coarsest span's rows."""
    rows = (
        XpSummary.objects.filter(
            campaign_id=campaign_id, character_id__in=character_ids, span=SPANS[-1]
        )
        .order_by()
        .values_list("character_id")
        .annotate(Min("first_at"), Max("last_at"), Sum("earned"), Sum("total"), Sum("entries"))
    )
    found = {character: _stamped(tuple(sums)) for character, *sums in rows}
    return {pk: found.get(pk, ()) for pk in character_ids}


def _span(sums: Collection[tuple]) -> int:
    """The summary's span (seconds) that keeps the chart of these series within budget:
    each entry, if they fit."""
    if sum(Sums._make(line).entries for line in sums) <= POINT_BUDGET:
        return EACH_ENTRY
    start = min(first for first, *_rest in sums)
    end = max(last for _first, last, *_rest in sums)
    _name, length = _unit((end - start) * MICROSECOND, len(sums))
    return int(length.total_seconds())


def _as_read(field: str) -> ExpressionWrapper:
    """A moment as the database driver gives it, without Django's converter, which makes
    each value aware through two look-ups of settings: a cold chart of 20 lines reads
    hundreds."""
    return ExpressionWrapper(F(field), output_field=CharField())


def _moment(value: datetime) -> datetime:
    """A moment read through `_as_read`: SQLite's driver gives it naive, in UTC as
    stored; PostgreSQL's, aware."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# What a point reads of a summary row.
POINT_FIELDS = (_as_read("first_at"), _as_read("last_at"), "total", "earned", "low", "peak")


def chart_rows(campaign_id: int, character_ids: Collection[int], span: int) -> QuerySet:
    """The summary's rows of these characters of the campaign grouped by `span` (seconds),
    as the chart reads them."""
    return (
        XpSummary.objects.filter(campaign_id=campaign_id, character_id__in=character_ids, span=span)
        .order_by("character_id", "bucket")
        .values_list("character_id", *POINT_FIELDS)
    )


def _points(groups) -> dict[int, list[LedgerPoint]]:
    points: dict[int, list[LedgerPoint]] = {}
    balance: dict[int, int] = {}
    for character, first, last, total, earned, low, peak in groups:
        first, last = _moment(first), _moment(last)
        # The balance is the running sum of the ledger (XpEntry.balance_after says so).
        balance[character] = balance.get(character, 0) + total
        point = LedgerPoint(first, last, low, peak, balance[character], earned)
        points.setdefault(character, []).append(point)
    return points


def _read(
    campaign_id: int, character_ids: Collection[int], span: int | None
) -> tuple[dict[int, tuple], dict[int, list[LedgerPoint]]]:
    """The sums of these characters (as `_sums`) and their points grouped by `span`, if
    given: one query, on the rows of that span, which sum to the same as any other's
    (without a span, the sums alone, summed by the database)."""
    if span is None:
        return _sums(campaign_id, character_ids), {}
    rows = (
        XpSummary.objects.filter(campaign_id=campaign_id, character_id__in=character_ids, span=span)
        .order_by()
        .values_list("character_id", "bucket", "entries", *POINT_FIELDS)
    )
    if span == EACH_ENTRY:
        # One row an entry: the other lines' entries fit the budget, these may not.
        rows = rows[: POINT_BUDGET + 1]
        if len(rows) > POINT_BUDGET:
            return _sums(campaign_id, character_ids), {}
    sums: dict[int, tuple] = dict.fromkeys(character_ids, ())
    groups = []
    # Each character's rows oldest first, sorted here: a few dozen rows cost less to sort
    # than an ORDER BY to build.
    for character, _bucket, entries, first, last, total, earned, low, peak in sorted(rows):
        first, last = _moment(first), _moment(last)
        had = Sums._make(sums[character] or (first, last, 0, 0, 0))
        sums[character] = (
            had.first,
            last,
            had.earned + earned,
            had.total + total,
            had.entries + entries,
        )
        groups.append((character, first, last, total, earned, low, peak))
    return {pk: _stamped(found) for pk, found in sums.items()}, _points(groups)


@dataclass(frozen=True)
class Ledgers:
    """What the chart and the totals read of some characters' ledgers, for those with
    entries: the span their points are grouped by, each one's sums, each line's key parts
    (the campaign, the character, its version and the span: what its points are made of;
    parts of the keys of what is drawn from the line, rather than a key of their own),
    and the points already read with the sums."""

    campaign_id: int
    span: int
    sums: dict[int, Sums]
    keys: dict[int, tuple[int, int, int, int]]
    read: dict[int, list[LedgerPoint]] = field(default_factory=dict)

    @property
    def dated(self) -> bool:
        """Whether the points' moments are written as dates (`DATED_SPAN`)."""
        return self.span >= DATED_SPAN

    def points(self, character_ids: Collection[int]) -> dict[int, list[LedgerPoint]]:
        """{character id: points oldest first} of these characters: those read with the
        sums, or one query."""
        if all(pk in self.read for pk in character_ids):
            return {pk: self.read[pk] for pk in character_ids}
        found = _points(chart_rows(self.campaign_id, character_ids, self.span))
        return {pk: found.get(pk, []) for pk in character_ids}


def line_keys(name: str, characters: Sequence[Charted], *parts: object) -> dict[int, str]:
    """{character id: its key} of a piece of each character's line kept under its version
    (and `parts`): one `fragment_key` of the parts, followed by the id and the version,
    plain numbers that need no hash of their own. The version covers the name too (a
    rename bumps it)."""
    prefix = fragment_key(name, *parts)
    return {c.pk: f"{prefix}:{c.pk}:{c.version}" for c in characters}


def ledger_summary(campaign: Campaign, characters: Sequence[Charted]) -> Ledgers:
    """The `Ledgers` of these characters in the campaign. Each one's sums are kept in the
    fragment cache apart, with its version (`Character.version`, loaded with it): the
    database bumps it at each new entry of its ledger, in the same transaction
    (campaigns/versions.py), so after an award to one character only its sums are read,
    and its line's key changes alone, unless the span changes with it. Its points are
    read in the same query, grouped by the span of the others' lines (or, when no other
    line is cached, as for a player's one line, by the span of the lines' sums as last
    read, of an older version): the span, unless the new entry changes it."""
    cache = caches[CACHE]
    # One key a character, the version in the value: the sums of its version, or those
    # last read, in one read and one write.
    prefix = fragment_key("xp-sums", campaign.pk)
    keys = {c.pk: f"{prefix}:{c.pk}" for c in characters}
    stored = cache.get_many(keys.values())
    sums, older = {}, []
    for character in characters:
        version, found = stored.get(keys[character.pk], (None, ()))
        if version == character.version:
            sums[character.pk] = found
        elif found:
            older.append(found)
    missing = [pk for pk in keys if pk not in sums]
    guess, read = None, {}
    if missing:
        # A guess only, as the span the others tell (or these lines' older sums), whose
        # points the chart uses only if it takes that span.
        known = [found for found in sums.values() if found] or older
        guess = _span(known) if known else None
        new, read = _read(campaign.pk, missing, guess)
        versions = {c.pk: c.version for c in characters}
        cache.set_many({keys[pk]: (versions[pk], new[pk]) for pk in missing}, TIMEOUT)
        sums |= new
    found = {pk: Sums._make(sums[pk]) for pk in keys if sums[pk]}
    if not found:
        return Ledgers(campaign.pk, 0, {}, {})
    span = _span(found.values())
    lines = {c.pk: (campaign.pk, c.pk, c.version, span) for c in characters if c.pk in found}
    return Ledgers(campaign.pk, span, found, lines, read if span == guess else {})
