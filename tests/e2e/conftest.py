"""Browser tests: Chromium (Debian's) through Playwright against live servers.

Pages come from pytest-django's live server (in this process, so its settings can be
pointed at the events server); events from a real uvicorn (ASGI) process; computer
players from a real Celery worker. All share the test database and the test Redis prefix.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .servers import celery_worker, free_port, uvicorn
from .waits import until

ARTIFACTS = Path(__file__).parent / "artifacts"
# The computer players' pause before a move: short, so that a whole deal against bots is
# not mostly waiting (tests/games/test_bot_pace.py checks the club's own pace).
BOT_DELAY = "0.05,0.1"
# Tonk's call round (TO5) in browser tests: open a second, not the club's five.
CALL_ROUND = "1"
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
    from club.infra import redis as club_redis

    return club_redis.key("e2e-deal-seeds")


@pytest.fixture(autouse=True)
def seeded_deals(request: pytest.FixtureRequest, settings: Any) -> Iterator[None]:
    """Every deal dealt in a browser test is shuffled from a known seed (issue 55: a whole
    deal's length is then known, not drawn anew each run): the first from the test's
    ``deal_seed`` mark (1 unless marked; E2E_DEAL_SEED overrides it, to try others), each
    next deal the following number, in whichever process deals it: the pages' server here
    or the worker (settings.GAMES_TEST_SEEDS names the counter both read). A computer
    player's choices already follow the deal's seed and version."""
    from club.infra import redis as club_redis

    mark = request.node.get_closest_marker("deal_seed")
    first = int(os.environ.get("E2E_DEAL_SEED") or (mark.args[0] if mark else 1))
    settings.GAMES_TEST_SEEDS = seeds_key()
    club_redis.client().set(seeds_key(), first - 1)
    yield
    club_redis.client().delete(seeds_key())


# The shared servers' sessions on the test database are named (libpq's PGAPPNAME), so that
# a cut ends theirs and never this process's own (a later test's here, in another
# context of Playwright's greenlets, was ended by a cut of every other session).
SERVER_APP = "cooncan-test-server"


def cut_other_connections() -> None:
    """End the shared servers' sessions on this test database: each reconnects on its
    next request or task (CONN_HEALTH_CHECKS)."""
    from django.db import connection

    fresh_connection()
    with connection.cursor() as c:
        c.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [SERVER_APP],
        )


def fresh_connection() -> None:
    """Close this context's connection if the server ended it, so that the next query
    opens a new one."""
    from django.db import connection

    if connection.connection is not None and not connection.is_usable():
        connection.close()


def flush_despite_the_servers(flush: Callable[[], None], attempts: int = 5) -> None:
    """Run a test's flush, retried once the other sessions are cut when a shared server's
    query stopped its TRUNCATE (a deadlock, or a lock it could not take: a bot's move, a
    live refresh reading during it). The flush runs in a transaction: a failed one leaves
    nothing half done. Django's flush command reports the database's error as a
    CommandError (the OperationalError its cause): catching OperationalError alone never
    retried (CI at 03f8fb2: "deadlock detected" on TRUNCATE failed a test's teardown)."""
    from django.core.management.base import CommandError
    from django.db import OperationalError

    for attempt in range(attempts):
        try:
            flush()
            return
        except (CommandError, OperationalError) as e:
            stopped = e if isinstance(e, OperationalError) else e.__cause__
            if attempt == attempts - 1 or not isinstance(stopped, OperationalError):
                raise
            cut_other_connections()  # a fresh connection first, then the cut


def _flush_despite_the_servers() -> None:
    """Every transactional test's flush through :func:`flush_despite_the_servers`."""
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown
    if getattr(original, "retries_deadlocks", False):
        return

    def teardown(self: TransactionTestCase) -> None:
        flush_despite_the_servers(lambda: original(self))

    teardown.retries_deadlocks = True  # type: ignore[attr-defined]
    TransactionTestCase._fixture_teardown = teardown  # type: ignore[method-assign]


def _name_server_threads(sender: Any, connection: Any, **_: Any) -> None:
    """The live server's request threads (this process, not the test's thread) name
    their sessions as the servers do: a page's last refresh, still being answered as
    the test ended, deadlocked the flush five times running in one make test, its
    session never cut."""
    if threading.current_thread() is not threading.main_thread():
        with connection.cursor() as c:
            c.execute("SELECT set_config('application_name', %s, false)", [SERVER_APP])


@pytest.fixture(scope="session")
def servers(django_db_setup: Any) -> Iterator[str]:
    """uvicorn for events and a Celery worker for the computer players, one of each a
    test worker (issue 55: each test started its own, a second and a half of setup and
    two Django start-ups of CPU a test). Their sessions are cut before each test's rows
    are flushed, and the flush retries if one came back and deadlocked it. Yields the
    events server's address."""
    from django.db.backends.signals import connection_created

    ARTIFACTS.mkdir(exist_ok=True)
    _flush_despite_the_servers()
    connection_created.connect(_name_server_threads, dispatch_uid="e2e-server-threads")
    port = free_port()
    extra = {
        "GAMES_BOT_DELAY": BOT_DELAY, "GAMES_TEST_SEEDS": seeds_key(), "PGAPPNAME": SERVER_APP,
        "GAMES_CALL_ROUND_SECONDS": CALL_ROUND,
    }  # fmt: skip
    with (
        # Killed at the end: a graceful stop waits on open event streams and the
        # worker's warm shutdown, for nothing.
        uvicorn(port, log=ARTIFACTS / "uvicorn.log", kill=True),
        celery_worker(extra=extra, log=ARTIFACTS / "celery.log", kill=True),
    ):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def live(
    transactional_db: Any, live_server: Any, settings: Any, servers: str
) -> Iterator[dict[str, Any]]:
    """The live server for pages (this process), the shared events server and worker;
    their sessions cut after the test, before its rows are flushed."""
    settings.EVENTS_URL = servers
    csp = dict(settings.SECURE_CSP)
    csp["connect-src"] = [*csp["connect-src"], servers]
    settings.SECURE_CSP = csp
    settings.GAMES_BOT_DELAY = BOT_DELAY  # the live server (this process) queues bot moves
    settings.GAMES_CALL_ROUND_SECONDS = float(CALL_ROUND)  # and opens Tonk's call rounds
    yield {"url": live_server.url, "events": servers}
    cut_other_connections()


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
    from club.models import ClubSession

    def balanced() -> Any:
        session.refresh_from_db()
        return session if session.status == ClubSession.BALANCED else None

    return until(balanced, "the worker to balance the evening", timeout, every=0.2)


from tests.games.conftest import make_member, make_table  # noqa: E402, F401 - shared fixtures
