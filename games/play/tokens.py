"""A client token makes an action applied once: a double click or a replayed request
finds the token already used at the deal and is answered as done (issue 36), with one
query on the common path (issue 59: the action's INSERT finds it, ON CONFLICT)."""

from __future__ import annotations

import json

from django.db import connection

from ..models import Deal, DealAction


def used(deal: Deal, token: str | None) -> bool:
    """Whether ``token`` was used at this deal already (a replayed request)."""
    return bool(token) and DealAction.objects.filter(deal_id=deal.pk, client_token=token).exists()


def insert_once(row: DealAction) -> bool:
    """Insert an action carrying a client token unless the token was used at this deal
    (ON CONFLICT on the unique pair deal_action_token_once): True if it was inserted."""
    table = DealAction._meta.db_table
    with connection.cursor() as c:
        c.execute(
            f'INSERT INTO {table} (deal_id, "index", seat, action, client_token, by_member_id, '
            "created_at) VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s) "
            "ON CONFLICT (deal_id, client_token) DO NOTHING",
            [row.deal_id, row.index, row.seat, json.dumps(row.action), row.client_token,
             row.by_member_id, row.created_at],
        )  # fmt: skip
        return bool(c.rowcount == 1)
