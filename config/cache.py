"""The fragment cache's two backends (config/settings.py).

- `BoundedLocMemCache`, the default, in each process: fragments weigh from 2 to 100 KB,
  so Django's `MAX_ENTRIES` bounds nothing useful; this is LocMemCache evicting its least
  recently used entries once their pickled size passes `OPTIONS["MAX_BYTES"]`.
- `RedisFragmentCache`, with `CACHE_URL`, shared by every process and server: Django's
  Redis backend, which the site can do without. While the server cannot be reached a read
  misses and a write is dropped, so pages are rendered as if nothing were cached rather
  than failing; the server is asked again `RETRY_SECONDS` later, not at every read.
  Within a request (`deferred_writes`, config.middleware) what is stored waits, pickled,
  and goes in one round trip once the response is ready: a page drawn with nothing cached
  stores a dozen pieces or more, each a round trip of its own otherwise. A read in the
  same request finds what waits.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import re
from contextvars import ContextVar
from time import monotonic

from django.core.cache.backends.base import DEFAULT_TIMEOUT, MEMCACHE_MAX_KEY_LENGTH
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
# This request's writes to Redis, by full key: (pickled value, seconds or None).
_waiting: ContextVar[dict[str, tuple[bytes, int | None]] | None] = ContextVar(
    "fragment_writes", default=None
)

_sizes: dict[str, list[int]] = {}
# Django's pattern of the characters memcached refuses in a key, compiled here: its own,
# behind a lazy object, cost more than the read or write it checks a key for.
_MEMCACHED_REFUSES = re.compile(r"[\x00-\x20\x7f]")


class BoundedLocMemCache(LocMemCache):
    def __init__(self, name, params):
        options = params.get("OPTIONS", {})
        self._max_bytes = int(options.get("MAX_BYTES", 64 * 2**20))
        # Entries are bounded by bytes alone.
        params = {**params, "OPTIONS": {**options, "MAX_ENTRIES": 2**62}}
        params["OPTIONS"].pop("MAX_BYTES", None)
        super().__init__(name, params)
        self._size = _sizes.setdefault(name, [0])

    @property
    def size(self) -> int:
        """The bytes held (pickled values)."""
        return self._size[0]

    def _set(self, key, value, timeout=None):
        self._delete(key)
        self._size[0] += len(value)
        super()._set(key, value, timeout)
        while self._size[0] > self._max_bytes and len(self._cache) > 1:
            old, pickled = self._cache.popitem()  # the least recently used
            self._expire_info.pop(old, None)
            self._size[0] -= len(pickled)

    def validate_key(self, key):
        """Django's warnings, only for a key they concern: most keys a page uses (a
        hundred with nothing cached) need none."""
        if len(key) > MEMCACHE_MAX_KEY_LENGTH or _MEMCACHED_REFUSES.search(key):
            super().validate_key(key)

    def _delete(self, key):
        # Most keys a page stores are new: no KeyError raised and caught for them.
        pickled = self._cache.pop(key, None)
        if pickled is None:
            return False
        self._expire_info.pop(key, None)
        self._size[0] -= len(pickled)
        return True

    # A page's list (rows, a chart's lines) reads and stores its pieces dozens at a time:
    # one hold of the lock for them all, not one `get` or `set` each.
    def get_many(self, keys, version=None):
        made = {self.make_and_validate_key(key, version=version): key for key in keys}
        found = {}
        with self._lock:
            for key, asked in made.items():
                if key not in self._cache:
                    continue
                if self._has_expired(key):
                    self._delete(key)
                    continue
                self._cache.move_to_end(key, last=False)
                found[asked] = self._cache[key]
        return {asked: pickle.loads(pickled) for asked, pickled in found.items()}

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        pickled = {
            self.make_and_validate_key(key, version=version): pickle.dumps(
                value, self.pickle_protocol
            )
            for key, value in data.items()
        }
        with self._lock:
            for key, value in pickled.items():
                self._set(key, value, timeout)
        return []

    def clear(self):
        with self._lock:
            self._cache.clear()
            self._expire_info.clear()
            self._size[0] = 0


class _ForgivingClient(RedisCacheClient):
    """Django's Redis client, each call of which answers as an empty cache would while
    the server cannot be reached (Redis's own errors: refused, timed out, out of memory)."""

    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._skip_until = 0.0
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        """A server's client, made once: Django makes one per call, whose set-up (some
        two hundred reply handlers) costs as much as the round trip on loopback."""
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def _try(self, call, *args, absent=None):
        if monotonic() < self._skip_until:
            return absent
        try:
            return call(*args)
        except self._lib.RedisError as error:
            self._skip_until = monotonic() + RETRY_SECONDS
            logger.warning(
                "The fragment cache (CACHE_URL) failed: %s; pages are rendered without it "
                "for the next %.0f s.",
                error,
                RETRY_SECONDS,
            )
            return absent

    def get(self, key, default):
        waiting = _waiting.get()
        if waiting is not None and key in waiting:
            return self._serializer.loads(waiting[key][0])
        return self._try(super().get, key, default, absent=default)

    def get_many(self, keys):
        waiting = _waiting.get() or {}
        found = {key: self._serializer.loads(waiting[key][0]) for key in keys if key in waiting}
        asked = [key for key in keys if key not in waiting]
        if asked:
            found |= self._try(super().get_many, asked, absent={})
        return found

    def has_key(self, key):
        return key in (_waiting.get() or ()) or self._try(super().has_key, key, absent=False)

    def add(self, key, value, timeout):
        return self._try(super().add, key, value, timeout, absent=False)

    def set(self, key, value, timeout):
        if not self._wait({key: value}, timeout):
            self._try(super().set, key, value, timeout)

    def set_many(self, data, timeout):
        if not self._wait(data, timeout):
            self._try(super().set_many, data, timeout)

    def _wait(self, data: dict, timeout: int | None) -> bool:
        """Keep these writes for the end of the request, if one is deferring them."""
        waiting = _waiting.get()
        if waiting is None:
            return False
        for key, value in data.items():
            waiting[key] = (self._serializer.dumps(value), timeout)
        return True

    def incr(self, key, delta):
        value = self._try(super().incr, key, delta)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return value

    def touch(self, key, timeout):
        return self._try(super().touch, key, timeout, absent=False)

    def delete(self, key):
        (_waiting.get() or {}).pop(key, None)
        return self._try(super().delete, key, absent=False)

    def delete_many(self, keys):
        waiting = _waiting.get() or {}
        for key in keys:
            waiting.pop(key, None)
        self._try(super().delete_many, keys)

    def clear(self):
        (_waiting.get() or {}).clear()
        return self._try(super().clear, absent=False)

    def store(self, waiting: dict[str, tuple[bytes, int | None]]) -> None:
        """What a request left waiting, in one round trip (a pipeline, no transaction)."""

        def send():
            pipeline = self.get_client(None, write=True).pipeline(transaction=False)
            for key, (pickled, timeout) in waiting.items():
                if timeout == 0:
                    pipeline.delete(key)
                else:
                    pipeline.set(key, pickled, ex=timeout)
            pipeline.execute()

        if waiting:
            self._try(send)


class RedisFragmentCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ForgivingClient

    @contextlib.contextmanager
    def deferred_writes(self):
        """What is stored in this block waits and goes in one round trip at its end (not
        if the block fails: what a failed request drew is not kept)."""
        token = _waiting.set({})
        try:
            yield
            waiting = _waiting.get()
        finally:
            _waiting.reset(token)
        self._cache.store(waiting)
