"""One Redis client per process (broker, pub/sub and cache share REDIS_URL)."""

from __future__ import annotations

from functools import cache

import redis
from django.conf import settings


@cache
def client() -> redis.Redis:
    return redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=2, health_check_interval=30
    )


def key(*parts: object) -> str:
    """A key under this installation's prefix: ``key("heartbeat")`` → ``cooncan:heartbeat``."""
    return ":".join([settings.REDIS_PREFIX, *map(str, parts)])
