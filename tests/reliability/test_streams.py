"""Event streams bound to the login (issue 37, item 2): a token dies at logout, and with
the user's rights; an open stream ends with them; at most MAX_STREAMS at once per user,
the next refused with a clear answer (the page then polls)."""

from __future__ import annotations

import asyncio
import html
import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from django.test import Client
from django.urls import reverse

from club.live.streams import MAX_STREAMS
from club.services.sessions import open_session
from tests.e2e.servers import free_port, uvicorn

from .conftest import PASSWORD
from .test_concurrency import _online_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def events() -> Iterator[str]:
    port = free_port()
    with uvicorn(port, extra={"EVENTS_KEEPALIVE": "0.3"}):
        yield f"http://127.0.0.1:{port}"


def logged_in(member: Any) -> Client:
    """Through the login page, as a browser: a login session of its own."""
    c = Client()
    r = c.post(reverse("login"), {"username": member.user.username, "password": PASSWORD})
    assert r.status_code == 302
    return c


def stream_of(page: str, events: str) -> str:
    url = html.unescape(re.search(r'sse-connect="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    return events + url[url.index("/events/") :]


def test_a_stream_token_dies_at_logout_and_its_open_stream_ends(
    make_members: Any, events: str
) -> None:
    ann, bob = make_members(2, "st")
    table = _online_table([ann, bob])
    browser = logged_in(ann)
    url = stream_of(browser.get(reverse("games:table", args=[table.pk])).content.decode(), events)
    with httpx.stream("GET", url, timeout=10) as open_stream:
        assert open_stream.status_code == 200
        lines = open_stream.iter_lines()
        assert next(lines).startswith("retry:")
        assert browser.post(reverse("logout")).status_code == 302
        rest = list(lines)  # the stream ends at its next keepalive
    assert "event: ended" in rest
    assert httpx.get(url, timeout=5).status_code == 403  # and the token opens nothing


def test_a_busy_stream_ends_at_logout_too(make_members: Any, events: str) -> None:
    """Issue 78: the grant was checked only when no message came for a keepalive, so the
    stream of a busy table (its messages faster than that) never ended, and a phone signed
    out everywhere kept receiving its table. Messages every 50 ms here, keepalive 0.3 s."""
    from club.infra import redis as club_redis

    ann, bob = make_members(2, "bz")
    table = _online_table([ann, bob])
    browser = logged_in(ann)
    url = stream_of(browser.get(reverse("games:table", args=[table.pk])).content.decode(), events)
    stop = threading.Event()

    def chatter() -> None:
        r = club_redis.client()
        while not stop.wait(0.05):
            r.publish(club_redis.key("table", table.pk), "chatter")

    talking = threading.Thread(target=chatter, daemon=True)
    talking.start()
    rest: list[str] = []
    try:
        with httpx.stream("GET", url, timeout=10) as open_stream:
            assert open_stream.status_code == 200
            lines = open_stream.iter_lines()
            assert next(lines).startswith("retry:")
            seen: list[str] = []
            deadline = time.monotonic() + 10
            for line in lines:  # keepalives or chatter come at least every 0.3 s
                seen.append(line)
                if line == "event: update" or time.monotonic() > deadline:
                    break
            assert seen[-1] == "event: update", seen[-5:]  # the table is busy
            assert browser.post(reverse("logout")).status_code == 302
            deadline = time.monotonic() + 10
            for line in lines:
                rest.append(line)
                if time.monotonic() > deadline:
                    break
    finally:
        stop.set()
        talking.join()
    assert "event: ended" in rest, f"still streaming 10 s after the logout ({len(rest)} lines)"


def test_a_console_token_dies_when_the_secretary_loses_staff_rights(
    make_members: Any, events: str
) -> None:
    (sec,) = make_members(1, "stf", staff=True)
    evening = open_session(stake="0.05", by=sec.user, second=True)
    desk = logged_in(sec)
    page = desk.get(reverse("club:console", args=[evening.pk])).content.decode()
    url = stream_of(page, events)
    with httpx.stream("GET", url, timeout=5) as r:
        assert r.status_code == 200
    sec.user.is_staff = False
    sec.user.save()
    assert httpx.get(url, timeout=5).status_code == 403


def test_the_41st_stream_of_one_user_is_refused_clearly(make_members: Any, events: str) -> None:
    ann, bob = make_members(2, "many")
    table = _online_table([ann, bob])
    url = stream_of(
        logged_in(ann).get(reverse("games:table", args=[table.pk])).content.decode(), events
    )
    with (
        ExitStack() as stack,
        httpx.Client(timeout=10, limits=httpx.Limits(max_connections=None)) as c,
    ):
        for _ in range(MAX_STREAMS):
            r = stack.enter_context(c.stream("GET", url))
            assert r.status_code == 200
        refused = c.get(url)
        assert refused.status_code == 429
        assert f"at most {MAX_STREAMS} live pages at once" in refused.text
        # Another member is not affected.
        other = stream_of(
            logged_in(bob).get(reverse("games:table", args=[table.pk])).content.decode(), events
        )
        with c.stream("GET", other) as theirs:
            assert theirs.status_code == 200
    # Once those close, a new one is admitted.
    with httpx.stream("GET", url, timeout=5) as again:
        assert again.status_code == 200


def test_one_events_process_serves_more_than_a_hundred_open_pages(
    make_members: Any, events: str
) -> None:
    """Each open stream holds a Redis connection in the events process, and redis-py's
    asyncio pool stops at 100 unless told: the paced bench's 101st phone was refused
    (503, "live updates are unavailable") with Redis well. Four members, 35 pages each
    (under MAX_STREAMS), 140 streams at once on one process: every one is served."""
    from club.live.streams import grant_for
    from games.play.events import event_token

    members = make_members(4, "crowd")
    table = _online_table(members)
    path = reverse("games:events", args=[table.pk])
    urls = [
        f"{events}{path}?t={event_token(m.user_id, table.pk, grant_for(m.user_id))}"
        for m in members
    ]
    with (
        ExitStack() as stack,
        httpx.Client(timeout=10, limits=httpx.Limits(max_connections=None)) as c,
    ):
        statuses = [
            stack.enter_context(c.stream("GET", url)).status_code for url in urls for _ in range(35)
        ]
    assert statuses == [200] * 140


def test_a_burst_of_streams_opening_at_once_waits_for_the_pools_connections(
    make_members: Any,
) -> None:
    """A room's phones reconnecting at once (the Wi-Fi back): 300 streams open together
    on an events process whose Redis pool has 8 connections. Each waits its turn for one
    to be admitted (one round trip: its grant, its ticket, its count) and all are served;
    a pool that refused past its ceiling answered the rest 503 (issue 59: the paced
    bench's 150 tables, 750 opening on a busy machine, were refused a few hundred)."""
    from club.live.streams import grant_for
    from games.play.events import event_token

    members = make_members(10, "burst")
    table = _online_table(members[:2])
    path = reverse("games:events", args=[table.pk])
    urls = [f"{path}?t={event_token(m.user_id, table.pk, grant_for(m.user_id))}" for m in members]
    port = free_port()
    opened = asyncio.Event()

    async def one(c: httpx.AsyncClient, url: str, count: list[int]) -> int:
        async with c.stream("GET", url) as r:
            count.append(r.status_code)
            if len(count) == 300:
                opened.set()
            await asyncio.wait_for(opened.wait(), 30)  # all open at once, then closed
            return r.status_code

    async def burst() -> list[int]:
        count: list[int] = []
        limits = httpx.Limits(max_connections=None)
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", timeout=30, limits=limits
        ) as c:
            return await asyncio.gather(*[one(c, u, count) for u in urls for _ in range(30)])

    with uvicorn(port, extra={"EVENTS_REDIS_CONNECTIONS": "8"}):
        statuses = asyncio.run(burst())
    assert statuses == [200] * 300


def test_the_events_process_answers_its_stream_and_health_check_only(events: str) -> None:
    """Issue 79, item 4: port 8001 (uvicorn, club.asgi) answered /login/, /admin/ and
    POST /members/<id>/payments/, though it serves the event stream only. Every other
    path is now a 404 there; the stream's own routes and /healthz still answer."""
    for method, path in (("GET", "/login/"), ("GET", "/admin/"), ("GET", "/"),
                         ("POST", "/members/1/payments/"), ("GET", "/static/css/site.css")):  # fmt: skip
        r = httpx.request(method, events + path, timeout=5)
        assert r.status_code == 404 and "live-update stream" in r.text, (path, r.status_code)
    assert httpx.get(events + "/events/tables/5/?t=forged", timeout=5).status_code == 403
    health = httpx.get(events + "/healthz?check=database", timeout=5)
    assert health.status_code == 200 and health.json()["database"]["ok"] is True
