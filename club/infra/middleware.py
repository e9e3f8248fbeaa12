"""Responses no cache may keep.

A table page, its state fragment and every act response carry the viewer's hand; the
practice table, the balances and the statements are private too. So every response the
app makes (static files are served before this, by WhiteNoise) is ``Cache-Control:
no-store``, unless its view set its own caching (the event stream). Public pages pay
nothing for it that matters; a page that carries a hand can never be missed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import add_never_cache_headers


class HybridMiddleware:
    """Sync and async alike: the events process stays async (no thread per stream)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)


class NoStoreMiddleware(HybridMiddleware):
    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self._acall(request)
        return _no_store(self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        response: Awaitable[HttpResponseBase] = self.get_response(request)
        return _no_store(await response)


def _no_store(response: HttpResponseBase) -> HttpResponseBase:
    if not response.has_header("Cache-Control"):
        add_never_cache_headers(response)
    return response


class ClubTimeZoneMiddleware(HybridMiddleware):
    """Pages show times in the club's own time zone, chosen when it was started (issue 78;
    `club.services.profile`, kept in the process). The events process asks no query for it."""

    def __call__(self, request: HttpRequest) -> Any:
        from django.utils import timezone

        from club.services.profile import profile

        if iscoroutinefunction(self):
            return self._async(request)
        timezone.activate(profile().time_zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()  # the thread's next request (or a test) starts afresh

    async def _async(self, request: HttpRequest) -> Any:
        from django.utils import timezone

        from club.services.profile import profile

        timezone.activate(profile(read=False).time_zone)
        try:
            return await self.get_response(request)
        finally:
            timezone.deactivate()


# Where a browser applies Cross-Origin-Opener-Policy: https, or a loopback address (a
# "potentially trustworthy" origin). Elsewhere (http on the club's Wi-Fi address,
# `make run HOST=0.0.0.0`) Chromium ignores the header and logs an error on every page.
TRUSTWORTHY_HOSTS = ("localhost", "127.0.0.1", "[::1]")


class OpenerPolicyWhereItAppliesMiddleware(HybridMiddleware):
    """Drops SecurityMiddleware's COOP header where a browser would ignore it (issue 79).
    Listed before SecurityMiddleware, so it sees the response after the header is set."""

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self._acall(request)
        return _opener_policy(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        response: Awaitable[HttpResponseBase] = self.get_response(request)
        return _opener_policy(request, await response)


def _opener_policy(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    if request.is_secure() or not response.has_header("Cross-Origin-Opener-Policy"):
        return response
    host = request.META.get("HTTP_HOST", "").lower()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if name not in TRUSTWORTHY_HOSTS and not name.endswith(".localhost"):
        del response["Cross-Origin-Opener-Policy"]
    return response
