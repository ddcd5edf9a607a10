"""Keyset pagination of lists ordered by (created_at, pk): a page starts after the last
row the reader saw instead of skipping OFFSET rows, so the 4,000th page of a roll log
costs what the first one does, and rows written meanwhile never shift a page.

A cursor names one row ("<microseconds since the epoch>.<pk>"). `keyset_page` returns
the rows after a cursor (`after`) or before it (`before`) in the order shown, with the
cursors of the neighbouring pages. A garbled cursor gives the first page, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import QuerySet

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


def encode_key(at: datetime, pk: int) -> str:
    """The cursor of the row written at `at` with this pk (what `decode` reads back)."""
    return f"{(at - EPOCH) // MICROSECOND}.{pk}"


def encode(row) -> str:
    return encode_key(row.created_at, row.pk)


def decode(cursor: str | None) -> tuple[datetime, int] | None:
    """(created_at, pk) of a cursor, or None when there is none or it is not one."""
    if not cursor:
        return None
    stamp, _dot, pk = cursor.partition(".")
    # ASCII digits only, and no more of them than a date before 2286 and a bigint hold.
    if not (f"{stamp}{pk}".isascii() and stamp.isdigit() and pk.isdigit()):
        return None
    if len(stamp) > 16 or len(pk) > 18:
        return None
    return EPOCH + int(stamp) * MICROSECOND, int(pk)


@dataclass(frozen=True)
class KeysetPage:
    items: list
    previous: str | None  # `before` cursor of the page shown above this one
    next: str | None  # `after` cursor of the page shown below this one
    # When the page below starts (its first row's created_at); None on the last page.
    # Lists that interleave other events use it to know which of them fall on this page.
    next_starts: datetime | None = None

    @property
    def has_other_pages(self) -> bool:
        return bool(self.previous or self.next)


def beyond(queryset: QuerySet, key: tuple[datetime, int] | None, *, down: bool) -> QuerySet:
    """The rows past `key` (all of them without one), in (created_at, pk) order: down the
    keys (newest first) or up them."""
    rows = queryset.order_by(*(("-created_at", "-pk") if down else ("created_at", "pk")))
    if key is None:
        return rows
    stamp, pk = key
    if down:
        return rows.filter(created_at__lte=stamp).exclude(created_at=stamp, pk__gte=pk)
    return rows.filter(created_at__gte=stamp).exclude(created_at=stamp, pk__lte=pk)


def keyset_page(
    queryset: QuerySet,
    *,
    size: int,
    after: str | None = None,
    before: str | None = None,
    newest_first: bool = True,
) -> KeysetPage:
    """One page of `queryset` in (created_at, pk) order, newest or oldest first.

    With `after`, the rows shown after that cursor; with `before`, the rows shown before
    it; with neither (or a garbled one), the first page. Runs one query.
    """
    after_key, before_key = decode(after), decode(before)
    forward = before_key is None
    key = after_key if forward else before_key
    # Moving down the keys: a newest-first list read forward, or oldest-first read back.
    down = newest_first == forward
    items = list(beyond(queryset, key, down=down)[: size + 1])
    more = len(items) > size
    peeked = items[size] if more else None
    items = items[:size]
    if not forward:
        items.reverse()
    if not items:
        # Nothing beyond the cursor (a stale link): the first page, rather than none.
        return (
            keyset_page(queryset, size=size, newest_first=newest_first)
            if key
            else (KeysetPage([], None, None))
        )
    if forward:
        previous = encode(items[0]) if key is not None else None
        following = encode(items[-1]) if more else None
        next_starts = peeked.created_at if peeked is not None else None
    else:
        previous = encode(items[0]) if more else None
        following = encode(items[-1])
        next_starts = key[0]  # the cursor's row opens the page below
    return KeysetPage(items, previous, following, next_starts)
