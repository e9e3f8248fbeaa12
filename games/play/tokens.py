"""A client token makes an action applied once: a double click or a replayed request
finds the token already used at the deal and is answered as done (issue 36), with one
query on the common path (issue 59: the action's INSERT finds it, ON CONFLICT)."""

from __future__ import annotations

import json
from typing import Any

from django.db import connection

from ..models import Deal, DealAction


def used(deal: Deal, token: str | None) -> bool:
    """Whether ``token`` was used at this deal already (a replayed request)."""
    return bool(token) and DealAction.objects.filter(deal_id=deal.pk, client_token=token).exists()


def _insert(row: DealAction) -> tuple[str, list[Any]]:
    """The action's INSERT, doing nothing where its token was used at the deal (ON
    CONFLICT on the unique pair deal_action_token_once), and its parameters."""
    sql = (
        f'INSERT INTO {DealAction._meta.db_table} (deal_id, "index", seat, action, '
        "client_token, by_member_id, created_at) VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s) "
        "ON CONFLICT (deal_id, client_token) DO NOTHING"
    )
    params = [row.deal_id, row.index, row.seat, json.dumps(row.action), row.client_token,
              row.by_member_id, row.created_at]  # fmt: skip
    return sql, params


def move_once(row: DealAction, moved: dict[str, Any]) -> bool:
    """Insert an action carrying a client token and move its deal to ``moved`` (version,
    to_move, snapshot, moved_at, bot_turn), in one statement, unless the token was used at
    this deal (then neither): True if both were done. One round trip where the insert
    and the deal's save were two (issue 59)."""
    insert, params = _insert(row)
    with connection.cursor() as c:
        c.execute(
            f"WITH done AS ({insert} RETURNING 1) UPDATE {Deal._meta.db_table} SET version = %s,"
            " to_move = %s, snapshot = %s::jsonb, moved_at = %s, bot_turn = %s"
            " WHERE id = %s AND EXISTS (SELECT 1 FROM done)",
            [*params, moved["version"], moved["to_move"], json.dumps(moved["snapshot"]),
             moved["moved_at"], moved["bot_turn"], row.deal_id],
        )  # fmt: skip
        return bool(c.rowcount == 1)


def insert_once(row: DealAction) -> bool:
    """Insert an action carrying a client token unless the token was used at this deal:
    True if it was inserted."""
    with connection.cursor() as c:
        c.execute(*_insert(row))
        return bool(c.rowcount == 1)
