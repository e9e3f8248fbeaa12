"""Login sessions read from Redis, kept in PostgreSQL (club/infra/login_sessions.py, issue 59): a
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

from club.infra import login_sessions as sessions
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
    assert settings.SESSION_ENGINE == "club.infra.login_sessions"
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
            "BACKEND": "club.infra.cache.KeptClientRedisCache",
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


def _login_kept_under(user: Any, backend: str, *, cached: bool) -> Client:
    """A login as a session of an earlier release would hold it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.core.cache import caches

    store = sessions.SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    if not cached:
        caches[settings.SESSION_CACHE_ALIAS].delete(store.cache_key)
    c = Client()
    c.cookies[settings.SESSION_COOKIE_NAME] = store.session_key or ""
    return c


@pytest.mark.parametrize("cached", [True, False])
def test_a_login_kept_under_djangos_model_backend_stays_logged_in(
    make_members: Callable[..., list[Member]], cached: bool
) -> None:
    """The user is read by club.pages.auth.ClubBackend (issue 59); a login made before, under
    ModelBackend, is not logged out by the upgrade, from the cache or the database."""
    (ann,) = make_members(1)
    c = _login_kept_under(ann.user, sessions.LEGACY_BACKEND, cached=cached)
    r = c.get(PAGE)
    assert r.status_code == 200 and r.wsgi_request.user == ann.user


def test_a_login_under_an_unknown_backend_is_still_refused(
    make_members: Callable[..., list[Member]],
) -> None:
    (ann,) = make_members(1)
    c = _login_kept_under(ann.user, "somewhere.else.Backend", cached=True)
    assert c.get(PAGE).status_code == 302


def test_the_club_backend_reads_the_user_as_model_backend_does(
    make_members: Callable[..., list[Member]],
) -> None:
    from django.contrib.auth.backends import ModelBackend

    from club.pages.auth import ClubBackend

    (ann,) = make_members(1)
    club, model = ClubBackend(), ModelBackend()
    for user_id in (ann.user.pk, str(ann.user.pk), 10**9, None):
        assert club.get_user(user_id) == model.get_user(user_id), user_id
    assert club.get_user("x7") is None  # ModelBackend raises here; Django never asks it
    found = club.get_user(str(ann.user.pk))
    assert found.username == ann.user.username and found.password == ann.user.password
    ann.user.is_active = False
    ann.user.save()
    assert club.get_user(ann.user.pk) is None  # as ModelBackend: an inactive user is no one
    c = Client()
    ann.user.is_active = True
    ann.user.save()
    c.force_login(ann.user)
    with CaptureQueriesContext(connection) as q:
        assert c.get(PAGE).status_code == 200
    assert sum('FROM "auth_user" WHERE "id" = ' in x["sql"] for x in q.captured_queries) == 1
