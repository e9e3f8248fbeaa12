"""Reading a page from one instant of the database.

PostgreSQL's default isolation (READ COMMITTED) gives each statement its own snapshot, so
a page built from several queries can straddle another request's commit: a table's
panel read across the end of a deal showed the deal's new washbook line beside the deal
before it (no summary of the deal just ended) until the next refresh. A REPEATABLE READ
transaction reads every query from the snapshot its first one took.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
from django.db import connection, transaction


@contextmanager
def snapshot() -> Iterator[None]:
    """Every query inside reads the database as it was at the first one (read-only use:
    a write inside may fail to serialise). Inside an outer transaction (a test's, or a
    write's) it joins that one, whose reads are its own business.

    On PostgreSQL the transaction opens as ``BEGIN ISOLATION LEVEL REPEATABLE READ READ
    ONLY``: psycopg begins with the connection's level and mode, set here while no
    transaction is open and put back after, one round trip where BEGIN and SET
    TRANSACTION were two (issue 59: every console's line, every table's panel)."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor != "postgresql":
        with transaction.atomic():
            yield
        return
    connection.ensure_connection()
    raw = connection.connection
    level, read_only = raw.isolation_level, raw.read_only
    try:
        with transaction.atomic():
            raw.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            raw.read_only = True
            yield
    finally:
        with contextlib.suppress(psycopg.Error):  # a broken connection is dropped anyway
            raw.isolation_level, raw.read_only = level, read_only


def one_snapshot[**P, R](view: Callable[P, R]) -> Callable[P, R]:
    """A read-only view whose queries all see one instant (see :func:`snapshot`)."""

    @functools.wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        with snapshot():
            return view(*args, **kwargs)

    return wrapped
