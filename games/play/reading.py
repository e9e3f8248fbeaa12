"""Reading a deal: the latest at a table, its engine state (snapshot or replay), why play
stopped, what a screen has shown of it, and a member's seat. Nothing here writes (a move
reads its deal here with the rows it will write locked, :func:`lock_deal_and_seating`)."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from django.db import connection

from games.engine.protocol import DealState
from games.engine.snapshot import SnapshotError

from ..models import Deal, DealAction
from . import club_api, engine_api

log = logging.getLogger(__name__)


def current_deal(table_id: int) -> Deal | None:
    return Deal.objects.filter(table_id=table_id).order_by("-number").first()


# What a refresh leaves undecoded: the engine state it renders is kept in the web
# process for its version (games.play.kept), so the snapshot (the largest of the deal's
# JSON columns: decoding them was 5.6% of the web's samples at 150 tables, py-spy) comes
# as its text, decoded only when the state is not kept (:func:`load_state`); the pack,
# which only a replay reads, is left to Django's deferred loading.
_SNAPSHOT_TEXT = "snapshot_text"


def _deal_columns(row: str) -> str:
    """The deal's columns as a read selects them from ``row``: the snapshot as its text,
    the pack left deferred (the phone's read and the move's alike)."""
    q = connection.ops.quote_name
    columns = [f"{row}.{q(f.column)}" for f in Deal._meta.concrete_fields
               if f.name not in ("snapshot", "pack")]  # fmt: skip
    return ", ".join([*columns, f"{row}.{q('snapshot')}::text AS {_SNAPSHOT_TEXT}"])


@lru_cache(maxsize=1)
def _deal_and_seating_sql() -> tuple[str, tuple[Any, ...]]:
    columns = _deal_columns("row_")
    return club_api.with_seating_sql(
        Deal._meta.db_table,
        "table_id",
        "WHERE row_.table_id = %s ORDER BY row_.number DESC LIMIT 1",
        columns,
    )


def deal_and_seating(table_id: int) -> tuple[Deal | None, list[club_api.SeatInfo]]:
    """The table's latest deal and its seating, read in one statement: one instant, one
    round trip (issue 59: every phone's refresh read them in two, and a transaction to
    make the two one instant, five round trips in all). The statement is written once a
    process, not compiled by the ORM on every refresh (1.3 ms of CPU a call, 0.6 raw);
    the deal's snapshot is decoded by :func:`load_state` only if it must."""
    sql, params = _deal_and_seating_sql()
    found = club_api.fetch_rows(Deal, sql, [*params, table_id])
    if not found:
        return None, club_api.table_seating(table_id)
    return found[0], club_api.seating_of(found[0])


@lru_cache(maxsize=1)
def _lock_sql() -> str:
    """games migration 0006: the table locked, its seating read, then its latest deal
    locked. Its snapshot comes as text, as a refresh reads it: a move applies itself to a
    copy of the state kept for the deal's version (games.play.kept), so decoding the
    snapshot on every move's read was wasted (6% of a move's request in process, py-spy,
    issue 59); the pack, which only a replay reads, is left deferred."""
    return (
        f"SELECT f.o_seating AS seating_rows, {_deal_columns('(f.o_deal)')} "
        "FROM games_lock_table_deal(%s, %s) f"
    )


def lock_deal_and_seating(table_id: int) -> tuple[Deal | None, list[club_api.SeatInfo]]:
    """Inside a move's transaction: the table locked, its seating as whoever held the lock
    left it, and its latest deal locked (the app's lock order: the table, then its deal),
    in one round trip (issue 59: two before). The deal is read after the table's lock,
    so a deal dealt by whoever held it is the one found (migration 0006 says why one
    plain statement would not find it)."""
    (deal,) = club_api.fetch_rows(Deal, _lock_sql(), club_api.locked_seating_params(table_id))
    return (deal if deal.pk is not None else None), club_api.seating_of(deal)


def stopped_reason(deal: Deal) -> str:
    """Why play stopped at this deal's table (the club cancelled or voided it), or ""."""
    outcome = deal.outcome if deal.finished and isinstance(deal.outcome, dict) else {}
    return str(outcome.get("stopped") or "")


def stamp(deal: Deal) -> str:
    """What a screen has shown of the deal: it changes with every action, and when the
    club stops play at the table (the deal's version does not move then)."""
    return f"{deal.pk}:{deal.version}" + (":stopped" if stopped_reason(deal) else "")


def previous_deal(deal: Deal) -> Deal | None:
    if deal.number <= 1:
        return None
    return (
        Deal.objects.filter(table_id=deal.table_id, number=deal.number - 1)
        .defer("snapshot", "pack")
        .first()
    )


def _snapshot(deal: Deal) -> Any:
    """The deal's snapshot: decoded from the text :func:`deal_and_seating` read, or the
    field's (read by Django if the deal was read without it)."""
    if "snapshot" in deal.get_deferred_fields() and hasattr(deal, _SNAPSHOT_TEXT):
        field = Deal._meta.get_field("snapshot")  # its own decoder, as the ORM reads it
        deal.snapshot = field.from_db_value(getattr(deal, _SNAPSHOT_TEXT), None, connection)  # type: ignore[attr-defined]
    return deal.snapshot


def load_state(deal: Deal) -> DealState:
    """The engine state after the deal's last action: from its snapshot, else (none, an
    unreadable one, or one behind the deal's version) replayed from its pack and log."""
    snapshot = _snapshot(deal)
    if snapshot is not None:
        try:
            state = engine_api.from_snapshot(snapshot, what=f"deal {deal.pk}")
        except SnapshotError as e:
            log.warning("%s; replaying the deal from its log", e)
        else:
            if state.version == deal.version:
                return state
            log.warning(
                "deal %s: snapshot at version %s, the deal at %s; replaying",
                deal.pk, state.version, deal.version,
            )  # fmt: skip
    # Up to the deal's version: a deal read outside a transaction may have moved on since.
    return replay(deal, upto=deal.version)


def replay(deal: Deal, upto: int | None = None) -> DealState:
    state = engine_api.new_state(
        deal.variant,
        deal.options,
        deal.players,
        deal.dealer,
        seed=deal.seed,
        pack=list(deal.pack),
        carry_in=deal.carry_in,
        scores_in=tuple(deal.scores_in or ()),
    )
    rows = DealAction.objects.filter(deal=deal).order_by("index").values_list("seat", "action")
    for i, (seat, data) in enumerate(rows):
        if upto is not None and i >= upto:
            break
        state.apply(engine_api.parse_action(data, state.legal_actions(seat), state))
    return state


def seat_of(seating: list[club_api.SeatInfo], member_id: int | None) -> int | None:
    for s in seating:
        if member_id is not None and s.member_id == member_id:
            return s.position
    return None


def member_of_user(seating: list[club_api.SeatInfo], user_id: int | None) -> int | None:
    """The member the user plays as at this table (a substitute, his own member), from
    the seating (each seat carries its user: no query); None for anyone not seated."""
    return next((s.member_id for s in seating if s.user_id == user_id), None)
