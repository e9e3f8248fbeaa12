"""Django's Redis cache with one Redis client per connection pool, not one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` on every cache
call; its constructor fills a table of some two hundred response callbacks each time:
half of a cache read's CPU in the web process, about 3% of the web workers' CPU at 100
tables of the paced bench (issue 59, py-spy). A ``redis.Redis`` is safe to share between
threads (each command takes a connection from the pool), so the client is kept.
Subclassed rather than django-redis: the one change is this, on Django's own backend.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class KeptClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        kept = self._clients.get(index)
        if kept is None:
            if index not in self._pools:  # as Django's _get_connection_pool, for this index
                self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            kept = self._clients.setdefault(index, self._client(connection_pool=self._pools[index]))
        return kept


class KeptClientRedisCache(RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient
