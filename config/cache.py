"""The fragment cache's two backends (config/settings.py).

- `BoundedLocMemCache`, the default, in each process: fragments weigh from 2 to 100 KB,
  so Django's `MAX_ENTRIES` bounds nothing useful; this is LocMemCache evicting its least
  recently used entries once their pickled size passes `OPTIONS["MAX_BYTES"]`.
- `RedisFragmentCache`, with `CACHE_URL`, shared by every process and server: Django's
  Redis backend, which the site can do without. While the server cannot be reached a read
  misses and a write is dropped, so pages are rendered as if nothing were cached rather
  than failing; the server is asked again `RETRY_SECONDS` later, not at every read.
"""

from __future__ import annotations

import logging
from time import monotonic

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0

_sizes: dict[str, list[int]] = {}


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

    def _delete(self, key):
        pickled = self._cache.get(key)
        if pickled is not None:
            self._size[0] -= len(pickled)
        return super()._delete(key)

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
        return self._try(super().get, key, default, absent=default)

    def get_many(self, keys):
        return self._try(super().get_many, keys, absent={})

    def has_key(self, key):
        return self._try(super().has_key, key, absent=False)

    def add(self, key, value, timeout):
        return self._try(super().add, key, value, timeout, absent=False)

    def set(self, key, value, timeout):
        self._try(super().set, key, value, timeout)

    def incr(self, key, delta):
        value = self._try(super().incr, key, delta)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return value

    def set_many(self, data, timeout):
        self._try(super().set_many, data, timeout)

    def touch(self, key, timeout):
        return self._try(super().touch, key, timeout, absent=False)

    def delete(self, key):
        return self._try(super().delete, key, absent=False)

    def delete_many(self, keys):
        self._try(super().delete_many, keys)

    def clear(self):
        return self._try(super().clear, absent=False)


class RedisFragmentCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ForgivingClient
