"""What a move answers (issue 80, item 4): one call from the act view that applies the
move and returns everything the page renders, so nothing is done after it returns.

``services.act`` applies the move in its transaction; :func:`answer` adds what the player's
page shows next: the state kept for the table's other phones, the seating the next deal
has after a deal's end, or on a refusal the table as it is now and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from games.engine.actions import Action
from games.engine.protocol import DealState
from games.engine.words import speaking

from ..models import Deal
from . import club_api, kept, presenters, reading, services
from .moves import Move, Rejection

DEAL_OVER = gettext_lazy(
    "The deal is over: the hands are shown below and the washbook line is posted."
)
ALREADY_DONE = gettext_lazy("Already done (that click was counted once).")


@dataclass
class Answer:
    """The page after a move: its status and sentence (``law``: the rule a refusal cites),
    the deal and state to show, to whom (``member_id``) at which seating, and the choices
    an ambiguous intent asks between."""

    status: int
    message: str
    deal: Deal | None
    state: DealState | None
    seating: list[club_api.SeatInfo]
    member_id: int | None
    law: str | None = None
    choices: list[Action] = field(default_factory=list)
    question: str = ""


def answer(move: Move) -> Answer:
    """Apply ``move`` and say what its player sees next; a refusal changes nothing and
    shows the table as it is, with the reason."""
    try:
        with speaking(presenters.reader()):  # the engine's refusals in the player's language
            result = services.act(move)
    except Rejection as e:
        return refused(move.table_id, move.user_id, e)
    seating, deal, state, message = result.seating, result.deal, result.state, ""
    if result.next_deal is not None:
        # The deal's end can change who sits where (a substitute's appointment lapses,
        # L6; rotation, L5; a redraw, L4): show the next deal to the seating it has.
        deal, seating = result.next_deal, club_api.table_seating(move.table_id)
        state, message = kept.state_of(result.next_deal), str(DEAL_OVER)
    elif result.applied:
        # The state this move made is the deal's at its new version: kept for the table's
        # other phones, whose refreshes this process may serve (games.play.kept).
        state = kept.keep(deal, state)
    elif result.duplicate:
        message = str(ALREADY_DONE)
    return Answer(
        200, message, deal, state, seating, result.member_id,
        choices=result.choices, question=result.question,
    )  # fmt: skip


def refused(table_id: int, user_id: int | None, rejection: Rejection) -> Answer:
    """The table as it is now, for the user whose move was refused, with the reason as a
    sentence, as the club's refusals are ("Stale: the table has moved on, ...")."""
    seating = club_api.table_seating(table_id)
    deal = reading.current_deal(table_id)
    return Answer(
        rejection.status, club_api.sentence(rejection.message), deal,
        reading.load_state(deal) if deal else None,
        seating, reading.member_of_user(seating, user_id),
        law=rejection.law,
    )  # fmt: skip
