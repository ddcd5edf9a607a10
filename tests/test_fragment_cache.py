"""The fragment cache: bounded in bytes in this process, or Redis with CACHE_URL; its keys
carry the release, so a deploy never serves what older code rendered."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from django.core.cache import caches
from django.core.cache.backends.base import CacheKeyWarning
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings
from django.utils import translation

from bench import site
from campaigns.fragments import CACHE, fragment_key, read_rest
from characters import services
from characters.models import XpEntry
from config.cache import BoundedLocMemCache, RedisFragmentCache
from tests.bench_pages import each_page, read_again
from tests.factories import make_character

ROOT = Path(__file__).resolve().parents[1]


def _cache(max_bytes: int, name: str) -> BoundedLocMemCache:
    cache = BoundedLocMemCache(name, {"OPTIONS": {"MAX_BYTES": max_bytes}})
    cache.clear()
    return cache


def test_the_least_recently_used_fragments_go_once_the_bytes_pass_the_bound():
    cache = _cache(100_000, "test-bounded")
    for n in range(5):
        cache.set(f"piece-{n}", "x" * 30_000)
        cache.get("piece-0")  # kept in use
    assert cache.size <= 100_000
    assert cache.get("piece-0") is not None
    assert cache.get("piece-4") is not None
    assert cache.get("piece-1") is None
    assert cache.get("piece-2") is None


def test_replacing_or_deleting_a_fragment_counts_its_bytes_once():
    cache = _cache(1_000_000, "test-bounded-count")
    cache.set("piece", "x" * 10_000)
    held = cache.size
    cache.set("piece", "x" * 10_000)
    assert cache.size == held
    cache.delete("piece")
    assert cache.size == 0


def test_pieces_stored_and_read_together_are_kept_as_one_at_a_time():
    """`set_many` and `get_many` hold the lock once for a list's pieces: the bytes are
    counted, what expired is not read, and what is read is kept as recently used."""
    cache = _cache(100_000, "test-bounded-many")
    cache.set_many({f"piece-{n}": "x" * 30_000 for n in range(3)}, timeout=60)
    held = cache.size
    assert 90_000 <= held <= 100_000
    cache.set_many({"piece-0": "x" * 30_000}, timeout=60)
    assert cache.size == held
    assert cache.get_many(["piece-0", "piece-1", "nothing"]) == {
        "piece-0": "x" * 30_000,
        "piece-1": "x" * 30_000,
    }
    cache.set("piece-3", "x" * 30_000)  # past the bound: the least recently used goes
    assert cache.get_many([f"piece-{n}" for n in range(4)]).keys() == {
        "piece-0",
        "piece-1",
        "piece-3",
    }
    later = mock.Mock(time=mock.Mock(return_value=time.time() + 61))
    with mock.patch("django.core.cache.backends.locmem.time", later):
        assert cache.get_many(["piece-0", "piece-3"]) == {"piece-3": "x" * 30_000}
    assert cache.size == held * 2 // 3  # the expired piece read is gone, its bytes too


def test_a_key_memcached_would_refuse_is_still_warned_of():
    cache = _cache(1_000, "test-bounded-keys")
    with pytest.warns(CacheKeyWarning):
        cache.set_many({"a key with spaces": 1})
    with pytest.warns(CacheKeyWarning):
        cache.get_many(["k" * 300])


def test_keys_carry_the_release():
    with translation.override("es"):
        with override_settings(CRONICA_RELEASE="one"):
            first = fragment_key("sheet-grid", 1)
        with override_settings(CRONICA_RELEASE="two"):
            assert fragment_key("sheet-grid", 1) != first


def _settings_in_fresh_interpreter(**env: str) -> str:
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.CACHES['fragments']['BACKEND'], s.CRONICA_RELEASE)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="1", **env)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_cache_url_selects_djangos_redis_backend_and_the_default_stays_in_process():
    assert _settings_in_fresh_interpreter().startswith("config.cache.BoundedLocMemCache ")
    shared = _settings_in_fresh_interpreter(CACHE_URL="redis://127.0.0.1:6379/0")
    assert shared.startswith("config.cache.RedisFragmentCache ")
    assert issubclass(RedisFragmentCache, RedisCache)


def test_the_release_is_the_environments_or_a_digest_of_the_code():
    assert _settings_in_fresh_interpreter(CRONICA_RELEASE="2026.12.3").endswith(" 2026.12.3")
    digest = _settings_in_fresh_interpreter().split()[-1]
    assert len(digest) == 16
    assert digest == _settings_in_fresh_interpreter().split()[-1]


@pytest.mark.django_db
def test_read_rest_fills_the_fields_a_keyed_list_left_out_in_one_query(
    campaign, gm, django_assert_num_queries
):
    character = make_character(campaign, None, name="Lucía")
    for amount in (3, -1):
        services.xp_adjust(character=character, user=gm, amount=amount, reason="Inicio")
    entries = list(XpEntry.objects.filter(character=character).only("id").order_by("pk"))
    with django_assert_num_queries(1):
        read_rest({entry.pk: entry for entry in entries}, ("amount", "balance_after"))
    with django_assert_num_queries(0):
        assert [(e.amount, e.balance_after) for e in entries] == [(3, 3), (-1, 2)]
    with django_assert_num_queries(0):
        read_rest({}, ("amount",))


@pytest.fixture(scope="module")
def _demo(module_rows):
    with module_rows.unblock():
        return site.build_demo()


@pytest.fixture
def demo(_demo, db):
    return read_again(_demo)


def _round_trips(world, *, warm: bool):
    """(page, response, [the keys of each read]) for every page of the benchmark: a
    `get` or a `get_many` is one round trip to a shared cache, whatever the in-process
    cache does with it."""
    cache = caches[CACHE]
    get = cache.get
    trips = []

    def spy_get(key, *args, **kwargs):
        trips.append([key])
        return get(key, *args, **kwargs)

    def spy_get_many(keys, *args, **kwargs):
        trips.append(list(keys))  # the in-process cache gets them one by one
        return {key: value for key in keys if (value := get(key)) is not None}

    for page, request in each_page(world, warm=warm):
        trips.clear()
        with (
            mock.patch.object(cache, "get", spy_get),
            mock.patch.object(cache, "get_many", spy_get_many),
        ):
            response = request()
        yield page, response, [list(trip) for trip in trips]


@pytest.mark.parametrize("warm", [False, True], ids=["nothing cached", "cached"])
def test_a_page_asks_the_cache_for_each_fragment_once(demo, warm):
    """With a shared cache every read is a round trip: a piece the view read already,
    found or not, is not asked for again by the template that draws it."""
    twice = {}
    for page, _response, trips in _round_trips(demo, warm=warm):
        asked = [key for trip in trips for key in trip]
        if repeated := sorted({key.partition(":")[0] for key in asked if asked.count(key) > 1}):
            twice[page.name, page.who] = repeated
    assert twice == {}, "fragments asked for twice in one request, per page"


@pytest.mark.parametrize("warm", [False, True], ids=["nothing cached", "cached"])
def test_a_page_reads_its_chrome_in_one_round_trip(demo, warm):
    """The five pieces of base.html's chrome are read together ({% read_fragments_ahead %}):
    one round trip to a shared cache, not five."""
    chrome = {"base-head", "base-scripts", "base-nav", "base-nav-end", "base-footer"}
    full_pages = 0
    for page, response, trips in _round_trips(demo, warm=warm):
        if b"<!doctype html>" not in response.content[:200]:
            continue
        full_pages += 1
        read = [{key.partition(":")[0] for key in trip} & chrome for trip in trips]
        assert [names for names in read if names] == [chrome], (page.name, page.who)
    assert full_pages >= 10


# Round trips to a shared cache (a `get` or a `get_many`) of each benchmarked page, with
# nothing cached and with its fragments cached: the view's pieces, the chrome's, and what
# the pieces' own tags read (nothing cached: also what the pieces inside read).
TRIPS = {
    "sheet (": (7, 4),
    "campaign page": (7, 4),
    "dashboard": (1, 1),
    "scene list": (4, 3),
    "scene page": (8, 2),
    # What an open page asks at a change: the parts it draws again, no chrome.
    "scene live refresh": (6, 1),
    "sheet live refresh": (4, 2),
    "roll panel": (5, 1),
    "odds partial": (2, 1),
    "roll POST": (4, 3),
    "feed poll": (0, 0),
    "health poll": (0, 0),
    "XP log": (8, 2),
    "roll log": (6, 2),
}


@pytest.mark.parametrize("warm", [False, True], ids=["nothing cached", "cached"])
def test_a_page_reads_the_cache_in_few_round_trips(demo, warm):
    over = {}
    for page, _response, trips in _round_trips(demo, warm=warm):
        [budget] = [both[warm] for name, both in TRIPS.items() if page.name.startswith(name)]
        if len(trips) > budget:
            over[page.name, page.who] = trips
    assert over == {}
