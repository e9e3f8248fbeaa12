"""Shared test setup: real PostgreSQL (pytest-django creates and drops its own database)
and real Redis (keys under a per-run prefix, deleted at the end)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("TESTING", "1")


@pytest.fixture(scope="session", autouse=True)
def _redis_cleanup() -> Iterator[None]:
    yield
    try:
        from django.conf import settings

        from club import redis as club_redis

        r = club_redis.client()
        keys = list(r.scan_iter(match=f"{settings.REDIS_PREFIX}*", count=1000))
        if keys:
            r.delete(*keys)
    except Exception:  # noqa: BLE001 - cleanup is best effort; Redis may be stopped by a fault test
        pass


@pytest.fixture
def redis_client():  # type: ignore[no-untyped-def]
    from club import redis as club_redis

    return club_redis.client()
