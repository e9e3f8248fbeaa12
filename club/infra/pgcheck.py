"""The pooled connection's check before a request uses it, without a round trip.

psycopg's ``ConnectionPool.check_connection`` (Django's default with CONN_HEALTH_CHECKS)
sends an empty query to PostgreSQL each time a connection leaves the pool: one round trip
on every request (issue 59: about a twelfth of the web workers' samples at 100 tables).
A connection PostgreSQL has ended is one whose socket has something to read while no
query is out: a restart or a terminated backend sends its FATAL message and closes, and
a crashed server's socket reads end of file. So the full check runs only then; a
connection whose socket is quiet is handed out as it is (tests/reliability/test_faults.py
restarts PostgreSQL under the pool and fails without that check).

No Django here: settings.py names this module's function for the pool.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool


def _has_input(conn: psycopg.Connection[Any]) -> bool:
    poller = select.poll()  # not select(): a descriptor past 1024 is refused there
    poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    return bool(poller.poll(0))


def check(conn: psycopg.Connection[Any]) -> None:
    """Raise where the connection is not fit to hand out (the pool drops it and takes
    another); return quietly otherwise."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the pooled connection is closed")
    if conn.info.transaction_status != TransactionStatus.IDLE:
        # The pool rolls back what it is given back: never so here, but never handed out.
        raise psycopg.OperationalError("the pooled connection is not idle")
    if _has_input(conn):
        ConnectionPool.check_connection(conn)
