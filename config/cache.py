"""The in-process fragment cache, bounded by the bytes it holds.

Fragments weigh from 2 to 100 KB, so Django's `MAX_ENTRIES` bounds nothing useful: this
is LocMemCache evicting its least recently used entries once their pickled size passes
`OPTIONS["MAX_BYTES"]`. With several processes or servers, `CACHE_URL` selects Django's
own Redis backend instead (config/settings.py).
"""

from __future__ import annotations

from django.core.cache.backends.locmem import LocMemCache

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
