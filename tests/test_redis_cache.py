"""The shared fragment cache (CACHE_URL, config/cache.py): the site goes on serving when
its Redis server is down, and two sites sharing a server never read each other's pieces.
The tests marked `redis` need a server: they run under scripts/with-redis.sh (make test)."""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
import redis.connection
from django.conf import settings
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from bench.processes import free_port
from campaigns.fragments import CACHE
from config import cache as fragment_cache
from config.cache import RedisFragmentCache
from tests.factories import make_character

ROOT = Path(__file__).resolve().parents[1]


def _unreachable() -> RedisFragmentCache:
    """The backend, on a loopback port where nothing listens (refused at once)."""
    return RedisFragmentCache(
        f"redis://127.0.0.1:{free_port()}/0", {"OPTIONS": {"socket_connect_timeout": 0.5}}
    )


# Each call of the cache's API, and what it answers while the server is down: a read
# misses, a write is dropped (False where the API says whether it wrote).
DOWN = [
    ("get", ("k",), None),
    ("get", ("k", "default"), "default"),
    ("get_many", (["k", "l"],), {}),
    ("has_key", ("k",), False),
    ("add", ("k", "v"), False),
    ("set", ("k", "v"), None),
    ("set_many", ({"k": "v"},), []),
    ("touch", ("k",), False),
    ("delete", ("k",), False),
    ("delete_many", (["k"],), None),
    ("clear", (), False),
]


@pytest.mark.parametrize(("method", "args", "answer"), DOWN, ids=[d[0] for d in DOWN])
def test_a_cache_server_down_answers_as_an_empty_cache_and_drops_writes(method, args, answer):
    assert getattr(_unreachable(), method)(*args) == answer


def test_a_cache_server_down_counts_as_a_missing_key_for_incr():
    with pytest.raises(ValueError, match="not found"):
        _unreachable().incr("k")


def test_a_cache_server_down_is_asked_again_only_after_a_while(caplog):
    cache = _unreachable()
    client = cache._cache
    connect = mock.Mock(wraps=client.get_client)
    clock = [1000.0]
    with (
        mock.patch.object(client, "get_client", connect),
        mock.patch.object(fragment_cache, "monotonic", side_effect=lambda: clock[0]),
        caplog.at_level(logging.WARNING, logger="config.cache"),
    ):
        for _ in range(5):
            cache.get("k")
        assert connect.call_count == 1
        assert len(caplog.records) == 1
        assert "rendered without it" in caplog.records[0].getMessage()
        clock[0] += fragment_cache.RETRY_SECONDS + 0.1
        cache.get("k")
        assert connect.call_count == 2


@pytest.mark.django_db
def test_pages_are_served_while_the_cache_server_is_down(campaign, gm, player, caplog):
    character = make_character(campaign, player, name="Lucía")
    fragments = {
        "BACKEND": "config.cache.RedisFragmentCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
    }
    sheet = reverse("characters:sheet", args=[campaign.pk, character.pk])
    with (
        override_settings(CACHES={**settings.CACHES, "fragments": fragments}),
        caplog.at_level(logging.WARNING, logger="config.cache"),
    ):
        assert isinstance(caches[CACHE], RedisFragmentCache)
        for user in (gm, player):
            client = Client()
            client.force_login(user)
            for url in (reverse("campaigns:detail", args=[campaign.pk]), sheet):
                response = client.get(url)
                assert response.status_code == 200
                assert "Lucía" in response.text
    assert any("CACHE_URL" in record.getMessage() for record in caplog.records)


def test_each_server_has_one_client_for_every_call():
    client = _unreachable()._cache
    assert client.get_client("k") is client.get_client("l", write=True)


def test_a_request_finds_what_it_stored_before_the_writes_go(caplog):
    """Within `deferred_writes` a write waits, pickled as it would be sent: a read finds
    it as it was stored, even with the server down; at the end of the block it goes."""
    cache = _unreachable()
    rows = [1]
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        with cache.deferred_writes():
            cache.set("rows", rows)
            cache.set_many({"a": "A", "b": "B"})
            rows.append(2)
            assert cache.get("rows") == [1]
            assert cache.get_many(["a", "rows", "missing"]) == {"a": "A", "rows": [1]}
            assert cache.has_key("b")
            cache.delete("b")
            assert cache.get("b") is None
        assert len(caplog.records) == 1  # the one round trip of the writes, refused
    assert cache.get("rows") is None  # nothing waits once the block is over


def test_a_failed_request_stores_nothing():
    cache = _unreachable()

    def fail():
        with cache.deferred_writes():
            cache.set("piece", "<p>drawn before the failure</p>")
            raise RuntimeError

    with mock.patch.object(cache._cache, "store") as store:
        with pytest.raises(RuntimeError):
            fail()
        with cache.deferred_writes():
            cache.set("piece", "<p>drawn</p>")
    store.assert_called_once()
    assert list(store.call_args.args[0]) == [cache.make_and_validate_key("piece")]


def _prefix_in_fresh_interpreter(secret: str) -> str:
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.CACHES['fragments']['KEY_PREFIX'])"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_SECRET_KEY=secret,
        CACHE_URL="redis://127.0.0.1:6379/0",
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_two_sites_sharing_a_redis_server_keep_their_fragments_apart():
    one = _prefix_in_fresh_interpreter("the-first-site-" + "x" * 40)
    assert one == _prefix_in_fresh_interpreter("the-first-site-" + "x" * 40)
    assert one != _prefix_in_fresh_interpreter("the-second-site-" + "x" * 40)
    assert "the-first-site" not in one


def _read_in_another_process(key: str, secret: str) -> str:
    code = (
        "import django; django.setup(); from django.core.cache import caches;"
        f"print(caches['fragments'].get({key!r}, 'missing'))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_SECRET_KEY=secret,
        CACHE_URL=settings.CACHES["fragments"]["LOCATION"],
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.redis
def test_every_process_of_a_site_shares_the_fragments_and_another_site_does_not():
    cache = caches[CACHE]
    assert isinstance(cache, RedisFragmentCache)
    cache.set("piece", "<p>rendered once</p>")
    assert _read_in_another_process("piece", settings.SECRET_KEY) == "<p>rendered once</p>"
    assert _read_in_another_process("piece", "another-site-" + "x" * 40) == "missing"


@contextlib.contextmanager
def _sends_to_redis():
    """How many times this process writes to a Redis server in the block."""
    sent = []
    send = redis.connection.AbstractConnection.send_packed_command

    def counted(connection, *args, **kwargs):
        sent.append(args)
        return send(connection, *args, **kwargs)

    with mock.patch.object(redis.connection.AbstractConnection, "send_packed_command", counted):
        yield sent


@pytest.mark.redis
def test_a_requests_writes_go_in_one_round_trip_at_its_end():
    cache = caches[CACHE]
    server = cache._cache.get_client()
    with _sends_to_redis() as sent, cache.deferred_writes():
        cache.set("a", "A", 60)
        cache.set_many({"b": "B", "c": "C"}, 60)
        cache.set("gone", "G", 0)
        waiting = list(sent)
    assert waiting == []
    assert len(sent) == 1
    assert cache.get_many(["a", "b", "c", "gone"]) == {"a": "A", "b": "B", "c": "C"}
    assert 0 < server.ttl(cache.make_and_validate_key("b")) <= 60


@pytest.mark.redis
@pytest.mark.django_db
def test_a_page_drawn_with_nothing_cached_stores_its_pieces_in_one_round_trip(campaign, player):
    character = make_character(campaign, player, name="Lucía")
    client = Client()
    client.force_login(player)
    sheet = reverse("characters:sheet", args=[campaign.pk, character.pk])
    with _sends_to_redis() as cold:
        assert "Lucía" in client.get(sheet).text
    with _sends_to_redis() as warm:
        assert "Lucía" in client.get(sheet).text
    cold_writes = [sent for sent in cold if b"\r\nSET\r\n" in b"".join(sent[0])]
    assert len(cold_writes) == 1
    assert b"".join(cold_writes[0][0]).count(b"\r\nSET\r\n") >= 5  # the sheet's pieces
    assert not [sent for sent in warm if b"\r\nSET\r\n" in b"".join(sent[0])]
