"""Browser tests: Chromium (Debian's) through Playwright against live servers.

Pages come from pytest-django's live server (in this process, so its settings can be
pointed at the events server); events from a real uvicorn (ASGI) process; computer
players from a real Celery worker. All share the test database and the test Redis prefix.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .servers import celery_worker, free_port, uvicorn

ARTIFACTS = Path(__file__).parent / "artifacts"
# The computer players' pause before a move: short, so that a whole deal against bots is
# not mostly waiting (tests/games/test_bot_pace.py checks the club's own pace).
BOT_DELAY = "0.05,0.1"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
# still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One Chromium a test file (issue 55: browsers shared where a test does not need its
    own). Not one a worker: Playwright's sync API keeps an event loop running in the
    worker's thread while it is open, and a later file's asyncio.run then fails."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The file's Chromium; the contexts a test opens (its cookies, its pages) are
    closed after it, before its rows are flushed."""
    yield chromium
    for ctx in list(chromium.contexts):
        ctx.close()


def seeds_key() -> str:
    from club import redis as club_redis

    return club_redis.key("e2e-deal-seeds")


@pytest.fixture(autouse=True)
def seeded_deals(request: pytest.FixtureRequest, settings: Any) -> Iterator[None]:
    """Every deal dealt in a browser test is shuffled from a known seed (issue 55: a whole
    deal's length is then known, not drawn anew each run): the first from the test's
    ``deal_seed`` mark (1 unless marked; E2E_DEAL_SEED overrides it, to try others), each
    next deal the following number, in whichever process deals it: the pages' server here
    or the worker (settings.GAMES_TEST_SEEDS names the counter both read). A computer
    player's choices already follow the deal's seed and version."""
    from club import redis as club_redis

    mark = request.node.get_closest_marker("deal_seed")
    first = int(os.environ.get("E2E_DEAL_SEED") or (mark.args[0] if mark else 1))
    settings.GAMES_TEST_SEEDS = seeds_key()
    club_redis.client().set(seeds_key(), first - 1)
    yield
    club_redis.client().delete(seeds_key())


@pytest.fixture
def live(transactional_db: Any, live_server: Any, settings: Any) -> Iterator[dict[str, Any]]:
    """The live server for pages (this process), uvicorn for events and a Celery worker
    for bots, both of the test's own: they are killed (their transactions with them)
    before the test's rows are flushed. Shared between tests, each deadlocked the flush's
    TRUNCATE, twice in a few runs (PostgreSQL's log: a seat read by a bot's move, a
    washbook read by a live refresh), so the one or two seconds they take to start stay."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = free_port()
    events = f"http://127.0.0.1:{port}"
    settings.EVENTS_URL = events
    csp = dict(settings.SECURE_CSP)
    csp["connect-src"] = [*csp["connect-src"], events]
    settings.SECURE_CSP = csp
    settings.GAMES_BOT_DELAY = BOT_DELAY  # the live server (this process) queues bot moves
    extra = {"GAMES_BOT_DELAY": BOT_DELAY, "GAMES_TEST_SEEDS": seeds_key()}
    with (
        # Killed after the test: a graceful stop waits on the page's open event stream
        # and the worker's warm shutdown, about two seconds a test for nothing.
        uvicorn(port, log=ARTIFACTS / "uvicorn.log", kill=True),
        celery_worker(extra=extra, log=ARTIFACTS / "celery.log", kill=True),
    ):
        yield {"url": live_server.url, "events": events}


def login(context: Any, base_url: str, member: Any) -> None:
    """Log a browser context in as ``member`` (a session made by Django's test client)."""
    from django.conf import settings
    from django.test import Client

    c = Client()
    c.force_login(member.user)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": c.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base_url,
            }
        ]
    )


def wait_balanced(session: Any, timeout: float = 30) -> Any:
    """The evening, once the real worker has balanced it (polled; fails after ``timeout``)."""
    import time

    from club.models import ClubSession

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        session.refresh_from_db()
        if session.status == ClubSession.BALANCED:
            return session
        time.sleep(0.2)
    raise AssertionError(f"the worker did not balance the evening: {session.status}")


from tests.games.conftest import make_member, make_table  # noqa: E402, F401 - shared fixtures
