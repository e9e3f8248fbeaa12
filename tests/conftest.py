"""Shared test setup: real PostgreSQL (pytest-django creates and drops its own database)
and real Redis (keys under a per-run prefix, deleted at the end)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("TESTING", "1")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (issue 55): xdist hands out whole files as workers free up
    (``--dist loadfile``, with ``--no-loadscope-reorder`` so that this order holds rather
    than most tests first, which left the single-test browser and `make run` files, the
    longest, to the end on one worker). The browser tests and those marked slow go first,
    the rest keep their order."""
    items.sort(
        key=lambda i: 0 if i.get_closest_marker("e2e") or i.get_closest_marker("slow") else 1
    )


# Where the suite's time goes (issue 55): each part's worker time (setup, call and
# teardown of its tests, summed over the workers), printed at the end of every run.
_PART_SECONDS: dict[str, float] = {}
_PART_TESTS: dict[str, int] = {}
# When each worker reported its last test, from the run's start: a worker idle long
# before the other is time the run spends on one core.
_STARTED = time.monotonic()
_WORKER_DONE: dict[str, float] = {}
_WORKER_BUSY: dict[str, float] = {}


def _part(nodeid: str) -> str:
    parts = nodeid.split("::")[0].split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "tests" else parts[0]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    part = _part(report.nodeid)
    _PART_SECONDS[part] = _PART_SECONDS.get(part, 0.0) + report.duration
    node = getattr(report, "node", None)  # the xdist worker that ran it
    worker = getattr(getattr(node, "gateway", None), "id", "main")
    _WORKER_DONE[worker] = time.monotonic() - _STARTED
    _WORKER_BUSY[worker] = _WORKER_BUSY.get(worker, 0.0) + report.duration
    if report.when == "call":
        _PART_TESTS[part] = _PART_TESTS.get(part, 0) + 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _PART_SECONDS:
        return
    terminalreporter.section("time by part (worker seconds)")
    total = sum(_PART_SECONDS.values())
    for part, seconds in sorted(_PART_SECONDS.items(), key=lambda kv: -kv[1]):
        terminalreporter.write_line(
            f"{part:<14} {seconds:8.1f} s  {_PART_TESTS.get(part, 0):5d} tests  "
            f"{100 * seconds / total:5.1f}%"
        )
    terminalreporter.write_line(f"{'all':<14} {total:8.1f} s")
    for worker, done in sorted(_WORKER_DONE.items()):
        terminalreporter.write_line(
            f"{worker}: {_WORKER_BUSY[worker]:.1f} s in tests, its last done at {done:.1f} s"
        )


@pytest.fixture(scope="session", autouse=True)
def _redis_cleanup() -> Iterator[None]:
    yield
    try:
        from django.conf import settings

        from club.infra import redis as club_redis

        r = club_redis.client()
        keys = list(r.scan_iter(match=f"{settings.REDIS_PREFIX}*", count=1000))
        if keys:
            r.delete(*keys)
    except Exception:  # noqa: BLE001 - cleanup is best effort; Redis may be stopped by a fault test
        pass


@pytest.fixture
def redis_client():  # type: ignore[no-untyped-def]
    from club.infra import redis as club_redis

    return club_redis.client()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """pytest-django's database setup, plus: before it drops the test database, end any
    session a server thread or subprocess left open on it, so the drop never fails (the
    suite creates and drops its own database and leaves nothing behind)."""
    yield
    with django_db_blocker.unblock():
        from django.db import connection

        if connection.vendor == "postgresql":
            if connection.connection is not None and not connection.is_usable():
                connection.close()  # a browser test's cut ended it (tests/e2e/conftest.py)
            with connection.cursor() as cur:
                cur.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture(autouse=True)
def _no_club_profile_kept() -> None:
    """Each test starts with no club row kept in the process (club.services.profile), and
    with no query for it: the settings answer until a test starts a club (the row's save
    clears what is kept). A club one test started never shows in the next."""
    from club.services import profile

    profile.assume_no_club()


@pytest.fixture(autouse=True)
def _language_of_its_own() -> Iterator[None]:
    """A test that asked for a page in Spanish leaves no language active in its thread
    (Django's locale middleware activates one a request and leaves it): the next test
    starts in the settings' language."""
    yield
    from django.utils import translation

    translation.deactivate()
