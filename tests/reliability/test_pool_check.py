"""The pooled connection's check (club/infra/pgcheck.py): no round trip for a quiet connection,
the full check for one PostgreSQL has ended (issue 59)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from club.infra import pgcheck

pytestmark = pytest.mark.django_db


@pytest.fixture
def raw() -> Iterator[psycopg.Connection[Any]]:
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as conn:
        yield conn


def _last_query(pid: int) -> str:
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other:
        row = other.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    assert row is not None
    return str(row[0])


def test_a_quiet_connection_is_handed_out_without_a_round_trip(
    raw: psycopg.Connection[Any],
) -> None:
    raw.execute("SELECT 1 AS the_last_query_sent")
    pgcheck.check(raw)
    # PostgreSQL shows each backend's last statement: the full check's empty query would
    # have replaced it.
    assert _last_query(raw.info.backend_pid) == "SELECT 1 AS the_last_query_sent"


def test_a_connection_whose_backend_was_ended_is_refused(raw: psycopg.Connection[Any]) -> None:
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [raw.info.backend_pid])
    deadline = time.monotonic() + 5
    while not pgcheck._has_input(raw) and time.monotonic() < deadline:
        time.sleep(0.01)  # the FATAL message on its way: a loop on a condition, not a wait
    with pytest.raises(psycopg.OperationalError):
        pgcheck.check(raw)


def test_a_connection_in_a_transaction_is_refused(raw: psycopg.Connection[Any]) -> None:
    raw.autocommit = False
    raw.execute("SELECT 2 AS inside_a_transaction")
    with pytest.raises(psycopg.OperationalError, match="not idle"):
        pgcheck.check(raw)
