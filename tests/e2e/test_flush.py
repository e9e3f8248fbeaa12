"""The browser tests' teardown: a flush stopped by a shared server's session is retried
once that session is cut (CI at 03f8fb2 failed a test's teardown: "deadlock detected" on
the flush's TRUNCATE, a server process still reading; the retry never ran, for Django's
flush command reports the database's error as a CommandError)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection

from club.models import Member

from .conftest import SERVER_APP, flush_despite_the_servers


@pytest.fixture
def a_server_reading(transactional_db: Any, make_member: Any) -> Iterator[psycopg.Connection[Any]]:
    """A shared server's session (named as theirs are) in the middle of a read: its
    transaction holds the members' table, as a live refresh's would."""
    make_member("Rita Reader")
    params = connection.get_connection_params() | {"application_name": SERVER_APP}
    params.pop("cursor_factory", None)
    params.pop("context", None)
    holder = psycopg.connect(**params)
    holder.execute(f"SELECT count(*) FROM {Member._meta.db_table}").fetchone()
    yield holder
    holder.close()


def _flush() -> None:
    """The flush as Django's TransactionTestCase runs it after a test."""
    call_command(
        "flush", verbosity=0, interactive=False, database=DEFAULT_DB_ALIAS,
        reset_sequences=False, allow_cascade=False, inhibit_post_migrate=False,
    )  # fmt: skip


def test_a_flush_a_server_session_stops_is_retried_after_the_cut(
    a_server_reading: psycopg.Connection[Any],
) -> None:
    # The flush waits on the reader's lock a moment, not for ever: stopped as a deadlock
    # would stop it, with the database's error.
    with connection.cursor() as c:
        c.execute("SET lock_timeout = '300ms'")
    try:
        flush_despite_the_servers(_flush)
    finally:
        with connection.cursor() as c:
            c.execute("RESET lock_timeout")
    assert Member.objects.count() == 0, "the flush was retried and emptied the tables"
    with pytest.raises(psycopg.OperationalError):  # the server's session was cut
        a_server_reading.execute("SELECT 1")


def test_a_flush_that_fails_for_another_reason_is_not_retried(transactional_db: Any) -> None:
    calls = []

    def broken() -> None:
        calls.append(1)
        raise ValueError("not the database")

    with pytest.raises(ValueError):
        flush_despite_the_servers(broken)
    assert calls == [1]
