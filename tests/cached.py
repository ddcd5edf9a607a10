"""What the fragment cache holds, whichever backend holds it: the in-process one, or
Redis when the suite runs under scripts/with-redis.sh."""

from __future__ import annotations

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from campaigns.fragments import CACHE


def cached_keys() -> list[str]:
    cache = caches[CACHE]
    if isinstance(cache, RedisCache):
        return [key.decode() for key in cache._cache.get_client().scan_iter()]
    return list(cache._cache)
