"""Django's Redis cache with one connection pool per process instead of one per request.

Django keeps a cache object per execution context, and under ASGI every HTTP request runs in a
context (and a thread) of its own, so the stock ``RedisCache`` built a new client, a new
connection pool and a new Redis connection for every request that touched the cache: every room
page, vote and controls fetch does (the wrong-code throttle, ``deliberation.rooms.throttle``).
That was 7% of a web process's request CPU with 30 rooms (BENCHMARKS.md). redis-py's
pools are thread-safe and notice a fork, so the client is shared by every context of the process.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients: dict[tuple[str, ...], RedisCacheClient] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @property
    def _cache(self) -> Any:  # the stock backend's cached_property, shared process-wide
        key = (*self._servers, repr(sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.setdefault(key, self._class(self._servers, **self._options))
        return client
