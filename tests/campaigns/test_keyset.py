"""Keyset pagination: every row once, in order, forwards and backwards, ties included."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.keyset import decode, encode, keyset_page
from mechanics.models import Roll
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store
from tests.factories import backdated

START = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def rolls(campaign, gm):
    """23 rolls; several share a timestamp, so only the pk tells them apart."""
    made = []
    for n in range(23):
        with backdated(START + timedelta(seconds=n // 3)):
            roll = roll_store(campaign=campaign, user=gm, record=roll_dice(3, rng=random.Random(n)))
        made.append(roll)
    return Roll.objects.filter(campaign=campaign)


def _walk(queryset, *, newest_first: bool, size: int = 5):
    pages, cursor = [], None
    for _ in range(queryset.count() + 1):  # a broken cursor must not loop for ever
        page = keyset_page(queryset, size=size, after=cursor, newest_first=newest_first)
        pages.append(page)
        if page.next is None:
            return pages
        cursor = page.next
    raise AssertionError("the pages never end")


def _keys(rows):
    return [(row.created_at, row.pk) for row in rows]


@pytest.mark.parametrize("newest_first", [True, False])
def test_walking_forward_shows_every_row_once_in_order(rolls, newest_first):
    pages = _walk(rolls, newest_first=newest_first)
    shown = [row for page in pages for row in page.items]
    expected = sorted(_keys(rolls), reverse=newest_first)
    assert _keys(shown) == expected
    assert [len(page.items) for page in pages] == [5, 5, 5, 5, 3]
    assert pages[0].previous is None
    assert pages[-1].next is None


@pytest.mark.parametrize("newest_first", [True, False])
def test_walking_back_from_the_last_page_shows_the_same_pages(rolls, newest_first):
    pages = _walk(rolls, newest_first=newest_first)
    back, cursor = [pages[-1]], pages[-1].previous
    for _ in range(len(pages)):
        if cursor is None:
            break
        page = keyset_page(rolls, size=5, before=cursor, newest_first=newest_first)
        back.insert(0, page)
        cursor = page.previous
    assert [_keys(p.items) for p in back] == [_keys(p.items) for p in pages]


def test_a_page_is_one_query_however_deep(rolls):
    cursor = _walk(rolls, newest_first=True)[-2].next
    with CaptureQueriesContext(connection) as queries:
        keyset_page(rolls, size=5, after=cursor)
    assert len(queries) == 1


@pytest.mark.parametrize(
    "garbled", ["", "x", "12.", ".5", "1.2.3", "-5.3", "99999999999999999999.1", "１２.３"]
)
def test_a_garbled_cursor_gives_the_first_page(rolls, garbled):
    first = keyset_page(rolls, size=5)
    assert decode(garbled) is None
    assert _keys(keyset_page(rolls, size=5, after=garbled).items) == _keys(first.items)
    assert _keys(keyset_page(rolls, size=5, before=garbled).items) == _keys(first.items)


def test_a_cursor_past_the_top_gives_the_first_page(rolls):
    newest = rolls.order_by("-created_at", "-pk").first()
    page = keyset_page(rolls, size=5, before=encode(newest))
    assert _keys(page.items) == _keys(keyset_page(rolls, size=5).items)


def test_a_cursor_keeps_the_microseconds(campaign, gm):
    with backdated(START.replace(microsecond=123456)):
        roll = roll_store(campaign=campaign, user=gm, record=roll_dice(3, rng=random.Random(1)))
    roll.refresh_from_db()
    assert roll.created_at.microsecond == 123456
    assert decode(encode(roll)) == (roll.created_at, roll.pk)
