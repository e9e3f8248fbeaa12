"""The seating of a table as the games app reads it: who plays each seat (a live
substitute in his leaver's seat, L6), in one query, alone, under the table's lock, or as
an expression inside another app's query (issue 59)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.db import connection

from club.models import Member, Seat, Substitution


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the games app sees it. ``member_id`` is who plays the seat (a substitute,
    L6, if one is appointed); ``playing_for_id`` is then the member whose account he plays
    on (None when the seat's own member plays)."""

    position: int
    member_id: int
    display_name: str
    is_bot: bool
    playing_for_id: int | None = None
    user_id: int | None = None  # the login of whoever plays the seat (for request checks)


def table_seating(table_id: int) -> list[SeatInfo]:
    """The seats of a table in position order (0..size-1, each on the previous one's left).

    One query, in SQL written out: every turn action asks for the seating, and building
    the same query through the ORM (with an active substitute, L6, joined in) costs
    several milliseconds of Python a request. At most one substitution per leaver is
    live (a database constraint), so the join never doubles a seat.

    A move reads the seating with the table's lock instead, through the club's database
    function ``club_lock_table_seating`` (migration 0019 says why one statement would read
    stale seats), called inside the games app's own with its deal (games migration 0006;
    :func:`locked_seating_params`). The seats themselves are not locked; whoever changes
    them locks the table first.
    """
    with connection.cursor() as cur:
        cur.execute(_seating_sql(), [Substitution.ACTIVE, table_id])
        return seats_from_rows(cur.fetchall())


def seats_from_rows(rows: Iterable[Sequence[Any]]) -> list[SeatInfo]:
    """The seating from its rows as :func:`table_seating`'s query (or
    :func:`seating_json_sql`'s array) gives them: a live substitute in his leaver's seat."""
    out = []
    for position, member_id, name, is_bot, user_id, sub_id, sub_name, sub_bot, sub_user in rows:
        sub = sub_id is not None  # who plays the seat: the substitute, for its member
        out.append(
            SeatInfo(
                position=position,
                member_id=sub_id if sub else member_id,
                display_name=sub_name if sub else name,
                is_bot=bool(sub_bot if sub else is_bot),
                playing_for_id=member_id if sub else None,
                user_id=sub_user if sub else user_id,
            )
        )
    return out


def seating_json_sql(table_column: str) -> tuple[str, list[Any]]:
    """The seating of the table whose id is ``table_column`` (a column of the outer
    query) as an SQL expression: a JSON array of :func:`table_seating`'s rows, for
    :func:`seats_from_rows`. So another app reads its own row and the table's seating in
    one statement, one instant, one round trip (issue 59: a phone's refresh)."""
    sql = (
        f"(SELECT coalesce(json_agg(json_build_array({_COLUMNS}) ORDER BY s.position),"
        f" '[]'::json){_seating_from(table_column)})"
    )
    return sql, [Substitution.ACTIVE]


@functools.cache
def with_seating_sql(
    db_table: str, table_id_column: str, rest: str, columns: str = "row_.*"
) -> tuple[str, tuple[Any, ...]]:
    """A statement reading the rows of ``db_table`` (aliased ``row_``: the seating's own
    query takes ``s``, ``m`` and ``x``) each with its table's seating as a
    ``seating_rows`` column, for :func:`seating_of`; ``table_id_column`` is the column of
    ``row_`` holding the table's id, ``rest`` the WHERE (and ORDER) that
    follows, ``columns`` what of ``row_`` it reads (all of it unless said). Written once
    a process; its parameters go before the caller's."""
    q = connection.ops.quote_name
    seating, params = seating_json_sql(f"row_.{q(table_id_column)}")
    return f"SELECT {columns}, {seating} AS seating_rows FROM {q(db_table)} row_ {rest}", tuple(
        params
    )


def seating_of(row: Any) -> list[SeatInfo]:
    """The seating a row read by :func:`with_seating_sql` (or a function returning
    ``seating_rows``) carries."""
    rows = getattr(row, "seating_rows")  # noqa: B009 - a column of the raw query
    return seats_from_rows(json.loads(rows) if isinstance(rows, str) else rows)


def locked_seating_params(table_id: int) -> list[Any]:
    """The arguments of the club's database function that locks a table and reads its
    seating (migration 0019), for another app's database function that calls it first
    in its own (the games app's move: the lock, the seating and the deal in one round
    trip, games migration 0006)."""
    return [table_id, Substitution.ACTIVE]


_COLUMNS = (
    "s.position, s.member_id, m.display_name, m.is_bot, m.user_id,"
    " x.substitute_id, xm.display_name, xm.is_bot, xm.user_id"
)


def _seating_from(table: str) -> str:
    """The seats of ``table`` (a placeholder or a column), each with its live substitute:
    the status of a live substitution is the query's first parameter."""
    q = connection.ops.quote_name
    seat, member, sub = (q(m._meta.db_table) for m in (Seat, Member, Substitution))
    return (
        f" FROM {seat} s JOIN {member} m ON m.id = s.member_id"
        f" LEFT JOIN {sub} x ON x.table_id = s.table_id AND x.leaver_id = s.member_id"
        f" AND x.status = %s"
        f" LEFT JOIN {member} xm ON xm.id = x.substitute_id"
        f" WHERE s.table_id = {table}"
    )


@lru_cache(maxsize=1)
def _seating_sql() -> str:
    return f"SELECT {_COLUMNS}{_seating_from('%s')} ORDER BY s.position"
