"""Login sessions read from Redis, kept in PostgreSQL (club/sessions.py, issue 59): a
request reads no session row while Redis answers; with Redis down the database answers
and nothing fails; a logout ends the login wherever its copy was."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from club import sessions
from club.models import Member

pytestmark = pytest.mark.django_db

PAGE = "/sessions/"  # the evenings: for members logged in only


def _session_reads(c: Client) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as q:
        r = c.get(PAGE)
    return r.status_code, sum("django_session" in x["sql"] for x in q.captured_queries)


def test_the_session_is_read_from_the_cache_not_the_database(
    make_members: Callable[..., list[Member]],
) -> None:
    assert settings.SESSION_ENGINE == "club.sessions"
    (ann,) = make_members(1)
    c = Client()
    c.force_login(ann.user)
    assert _session_reads(c) == (200, 0)


def test_a_logout_ends_the_login_the_cache_held(make_members: Callable[..., list[Member]]) -> None:
    (ann,) = make_members(1)
    c = Client()
    c.force_login(ann.user)
    cookie = c.cookies[settings.SESSION_COOKIE_NAME].value
    assert c.get(PAGE).status_code == 200
    c.post("/logout/")
    again = Client()
    again.cookies[settings.SESSION_COOKIE_NAME] = cookie
    r = again.get(PAGE)
    assert r.status_code == 302 and "/login/" in r["Location"]


@pytest.fixture
def dead_cache(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sessions' cache on a port where nothing answers: Redis down."""
    settings.CACHES = {
        **settings.CACHES,
        "dead": {
            "BACKEND": "club.cache.KeptClientRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    }
    settings.SESSION_CACHE_ALIAS = "dead"
    monkeypatch.setattr(sessions, "_paused_until", 0.0)


def test_with_redis_down_the_database_answers_and_the_cache_is_left_alone_a_while(
    make_members: Callable[..., list[Member]], dead_cache: None
) -> None:
    (ann,) = make_members(1)
    c = Client()
    c.force_login(ann.user)  # saved in the database; the cache's failure only logged
    assert time.monotonic() < sessions._paused_until <= time.monotonic() + sessions.PAUSE
    status, reads = _session_reads(c)
    assert status == 200 and reads == 1  # the member is still logged in, from PostgreSQL
    r = c.post("/logout/")
    assert r.status_code in (200, 302)
    assert c.get(PAGE).status_code == 302  # logged out


def test_a_session_stays_in_the_cache_minutes_not_the_logins_weeks(
    make_members: Callable[..., list[Member]],
) -> None:
    from django.core.cache import caches

    (ann,) = make_members(1)
    c = Client()
    c.force_login(ann.user)
    key = sessions.SessionStore.cache_key_prefix + c.cookies[settings.SESSION_COOKIE_NAME].value
    cache = caches[settings.SESSION_CACHE_ALIAS]
    ttl = cache._cache.get_client(key).ttl(cache.make_and_validate_key(key))  # type: ignore[attr-defined]
    assert 0 < ttl <= sessions.KEEP < settings.SESSION_COOKIE_AGE
