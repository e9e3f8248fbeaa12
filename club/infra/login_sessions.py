"""Login sessions read from Redis and kept in PostgreSQL (Django's ``cached_db``), made to
survive a Redis that is down (issue 59).

Every request of a logged-in member read its session from PostgreSQL: a query a request,
about a quarter of a phone's refresh. Django's ``cached_db`` reads it from the cache and
keeps the database the record, but its ``load`` writes to the cache unguarded and its
``delete`` too, so with Redis down every page would fail. Here:

* a cache failure is logged and the database answers; the cache is then left alone for
  ``PAUSE`` seconds in this process, so a Redis that is down costs one connect timeout a
  while, not one a request;
* a session is kept in the cache for ``KEEP`` seconds at most (its login lasts weeks):
  if a logout's delete from the cache fails (Redis down at that moment), the copy left
  there dies within minutes rather than keeping the login alive when Redis comes back.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import cached_db
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

LEGACY_BACKEND = "django.contrib.auth.backends.ModelBackend"  # the logins' backend before
CLUB_BACKEND = "club.pages.auth.ClubBackend"

KEEP = 300  # seconds a session stays in the cache
PAUSE = 10.0  # seconds the cache is left alone after a failure

_paused_until = 0.0  # per process


def _cache_usable() -> bool:
    return time.monotonic() >= _paused_until


def _cache_failed(what: str) -> None:
    global _paused_until
    _paused_until = time.monotonic() + PAUSE
    log.warning("session cache unavailable (%s); the database answers for %.0f s", what, PAUSE)


def _renamed(data: dict[str, Any]) -> dict[str, Any]:
    """A login kept under Django's ModelBackend, read as kept under ClubBackend, its
    subclass that reads the user the same way in a cheaper statement (club/pages/auth.py):
    Django logs out a session whose backend is no longer listed, and a club upgraded
    mid-evening would have had every phone logged out."""
    if data.get(BACKEND_SESSION_KEY) == LEGACY_BACKEND:
        data[BACKEND_SESSION_KEY] = CLUB_BACKEND
    return data


class SessionStore(cached_db.SessionStore):
    def _keep_for(self, expiry: Any = None) -> int:
        age = self.get_expiry_age(expiry=expiry) if expiry is not None else self.get_expiry_age()
        return max(0, min(int(age), KEEP))

    def load(self) -> dict[str, Any]:
        if _cache_usable():
            try:
                data = self._cache.get(self.cache_key)
            except RedisError:
                _cache_failed("read")
            else:
                if data is not None:
                    return _renamed(dict(data))
        s = self._get_session_from_db()
        if not s:
            return {}
        data = self.decode(s.session_data)
        if _cache_usable():
            try:
                self._cache.set(self.cache_key, data, self._keep_for(s.expire_date))
            except RedisError:
                _cache_failed("write")
        return _renamed(dict(data))

    def exists(self, session_key: str) -> bool:
        """Whether a new key is taken: the database says (the record; the cache may be
        down, and cached_db asks it unguarded)."""
        return bool(super(cached_db.SessionStore, self).exists(session_key))

    def save(self, must_create: bool = False) -> None:
        super(cached_db.SessionStore, self).save(must_create)  # the database: the record
        if _cache_usable():
            try:
                self._cache.set(self.cache_key, self._session, self._keep_for())
            except RedisError:
                _cache_failed("write")

    def delete(self, session_key: str | None = None) -> None:
        super(cached_db.SessionStore, self).delete(session_key)
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        try:
            self._cache.delete(self.cache_key_prefix + session_key)
        except RedisError:  # the copy there dies within KEEP seconds
            _cache_failed("delete")
