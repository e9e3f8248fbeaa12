"""The games app's one door to the club app (issue 80, item 4): seats, the washbook, the
next dealer, the evening, the table's rows, the club's live streams and its queue.

Everything play needs of the club is named here, and nothing else in ``games/`` imports
from ``club`` but Django's and Celery's wiring (``games/admin.py``, ``games/tasks.py``):
tests/foundation/test_shape.py holds it so. The club's services are the contract; the
read-only helpers below are this door's own.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Sum
from django.utils import translation

from club.infra import redis as club_redis
from club.infra.after_response import after_response
from club.infra.db import one_snapshot, snapshot
from club.infra.locale import club_language, reader_catalog, supported
from club.infra.rows import fetch as fetch_rows
from club.live.notices import publish_session, session_of_table
from club.live.streams import (
    MAX_AGE,
    check_token,
    events_base,
    grant,
    open_stream,
    refuse_outside_events_process,
)
from club.models import Member, Table
from club.pages.inputs import parse_id, parse_whole
from club.pages.web import sentence
from club.services.base import (
    DEAL_PROGRESS,
    FRESH_GAMES,
    PLAY_CHECKS,
    REDEALS,
    TABLE_STOPS,
    TABLE_TELLERS,
    ClubError,
    DealProgress,
    deal_line,
    lock_tables,
)
from club.services.practice import close_practice_tables, create_practice_table
from club.services.seating import (
    SeatInfo,
    locked_seating_params,
    seating_json_sql,
    seating_of,
    seats_from_rows,
    table_seating,
    with_seating_sql,
)
from club.services.tables import TableTurn, advance_after_deal, current_dealer
from club.services.washbook import post_online_deal
from games.engine.errors import InvalidActionError

__all__ = [
    "club_language",
    "reader_catalog",
    "supported",
    "ClubError",
    "DealProgress",
    "DEAL_PROGRESS",
    "FRESH_GAMES",
    "PLAY_CHECKS",
    "REDEALS",
    "TABLE_STOPS",
    "TABLE_TELLERS",
    "MAX_AGE",
    "Member",
    "Table",
    "check_token",
    "events_base",
    "grant",
    "open_stream",
    "refuse_outside_events_process",
    "one_snapshot",
    "snapshot",
    "parse_id",
    "parse_whole",
    "sentence",
    "redis_client",
    "redis_key",
    "table_notes",
    "queue_task",
    "after_response",
    "fetch_rows",
    "SeatInfo",
    "TableTurn",
    "advance_after_deal",
    "close_practice_tables",
    "create_practice_table",
    "current_dealer",
    "lock_tables",
    "post_online_deal",
    "publish_session",
    "session_of_table",
    "table_seating",
    "locked_seating_params",
    "seating_json_sql",
    "seating_of",
    "seats_from_rows",
    "with_seating_sql",
    "washbook_totals",
    "line_number",
    "evening_notice",
    "console_lines",
    "table_rules",
    "house_rules_for",
    "house_rule_sets",
]


def queue_task(name: str, args: list[Any], *, countdown: float | None = None) -> None:
    """Queue a games task by its name through the club's one queue (club/dispatch.py)."""
    from club import dispatch

    dispatch.queue(name, args, countdown=countdown)


def washbook_totals(table_id: int) -> dict[int, int]:
    """Running totals by member id (the club's washbook, read-only)."""
    from club.models import WashbookEntry

    rows = (
        WashbookEntry.objects.filter(line__table_id=table_id)
        .values("member_id")
        .annotate(total=Sum("points"))
    )
    return {r["member_id"]: r["total"] for r in rows}


def line_number(line_id: int | None) -> int | None:
    """The number of a washbook line within its table (read-only), or None."""
    if line_id is None:
        return None
    from club.models import WashbookLine

    return WashbookLine.objects.filter(pk=line_id).values_list("number", flat=True).first()


def evening_notice(table_id: int) -> str | None:
    """What the table's players must know of their evening (read-only): that it is
    closing, as soon as the secretary asks (issue 38), or that it has closed."""
    from django.utils import timezone

    from club.models import ClubSession

    session = ClubSession.objects.filter(tables__pk=table_id).first()
    if session is None:
        return None  # a practice table
    if session.is_closing_after_deals:
        at = timezone.localtime(session.close_requested_at).strftime("%H:%M")
        return (
            f"The evening is closing (asked at {at}): no new deal will be dealt at this "
            "table, and the evening closes and is balanced when the deals in progress end."
        )
    if session.status != ClubSession.OPEN:
        return f"The evening has closed ({session.get_status_display()}): play has stopped."
    return None


def table_rules(table_id: int, variant: str) -> tuple[Any, list[Any]] | None:
    """(the table, the options it plays under) for a table of ``variant``; None when
    there is no such table or its options do not fit the game (issue 43)."""
    from club.models import Table
    from club.services import house_rules

    table = Table.objects.filter(pk=table_id, variant=variant).first()
    if table is None:
        return None
    try:
        return table, house_rules.in_force(table)
    except (InvalidActionError, KeyError):  # options of old that no longer fit: none shown
        return None


def house_rules_for(rules_id: int) -> Any:
    """A set of the club's house rules by id (the practice form may start from one)."""
    from club.models import HouseRules

    return HouseRules.objects.filter(pk=rules_id).first()


def house_rule_sets() -> list[Any]:
    """Every set of house rules, by game and name."""
    from club.models import HouseRules

    return list(HouseRules.objects.order_by("variant", "name"))


def console_lines(deal: Any, seating: list[SeatInfo]) -> dict[str, str]:
    """The secretary's console's line of a deal in play (the club's words; no card), in
    each of the club's languages: each console swaps in its reader's (issue 82)."""
    progress = DealProgress(
        deal.game_number, deal.deal_in_game, deal.to_move, deal.version, deal.finished,
        deal.variant, deal.options,
    )  # fmt: skip
    names = {s.position: s.display_name for s in seating}
    lines = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            lines[code] = deal_line(names, progress)
    return lines


def redis_client() -> Any:
    """The club's Redis connection (the games' test seeds, a table's last notice)."""
    return club_redis.client()


def redis_key(*parts: object) -> str:
    """A key in the club's Redis namespace."""
    return club_redis.key(*parts)


def table_notes(table_id: int) -> dict[str, Any]:
    """What the table page's club panel says beside the seats (read-only): the active
    substitutes (substitute, leaver), the table's last five events and its washbook's
    number of lines."""
    from club.models import Substitution, TableEvent, WashbookLine

    return {
        "substitutions": list(
            Substitution.objects.filter(table_id=table_id, status="active").values_list(
                "substitute__display_name", "leaver__display_name"
            )
        ),
        "table_events": list(
            TableEvent.objects.filter(table_id=table_id).values_list("text", flat=True)[:5]
        ),
        "lines": WashbookLine.objects.filter(table_id=table_id).count(),
    }
