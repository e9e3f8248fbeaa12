"""The club's services: they hold the transactions; views and tasks stay thin.

The games app calls exactly these (see each docstring):

* ``table_seating(table_id) -> list[SeatInfo]``
* ``post_online_deal(table_id, *, deal_key, points, detail) -> WashbookLine``
* ``advance_after_deal(table_id) -> TableTurn`` and ``current_dealer(table_id) -> int``
* ``create_practice_table(member, variant, players, options) -> Table``
"""

from .base import ClubError, DealProgress, bots, create_member, deal_progress, member_for
from .ledger import (
    BalanceResult,
    account_for,
    balance_of,
    balance_session,
    member_history,
    money_from_points,
    record_payment,
    session_money,
    session_points,
    staked_tables,
    verify_balances,
)
from .sessions import (
    VOIDABLE,
    cancel_session,
    check_in,
    check_out,
    close_session,
    deals_in_progress,
    open_session,
    played_at,
    void_session,
)
from .tables import (
    SeatInfo,
    TableTurn,
    advance_after_deal,
    cancel_table,
    consent_substitute,
    create_practice_table,
    current_dealer,
    current_seat,
    demand_redraw,
    form_table,
    join_queue,
    open_due_redraw_windows,
    practice_tables,
    propose_substitute,
    table_queue,
    table_seating,
    void_table,
    waiting_members,
)
from .washbook import (
    PhysicalResult,
    correct_line,
    count_pips,
    enter_physical_result,
    post_online_deal,
)

__all__ = [
    "current_seat",
    "practice_tables",
    "BalanceResult",
    "ClubError",
    "PhysicalResult",
    "SeatInfo",
    "TableTurn",
    "account_for",
    "advance_after_deal",
    "balance_of",
    "balance_session",
    "bots",
    "check_in",
    "check_out",
    "cancel_session",
    "cancel_table",
    "close_session",
    "played_at",
    "void_session",
    "deals_in_progress",
    "VOIDABLE",
    "void_table",
    "DealProgress",
    "deal_progress",
    "consent_substitute",
    "correct_line",
    "count_pips",
    "create_member",
    "create_practice_table",
    "current_dealer",
    "demand_redraw",
    "enter_physical_result",
    "form_table",
    "join_queue",
    "member_for",
    "member_history",
    "money_from_points",
    "open_due_redraw_windows",
    "open_session",
    "post_online_deal",
    "propose_substitute",
    "record_payment",
    "session_money",
    "session_points",
    "staked_tables",
    "table_queue",
    "table_seating",
    "verify_balances",
    "waiting_members",
]
