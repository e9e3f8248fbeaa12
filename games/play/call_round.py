"""A round every player answers at once, at a club table: Tonk's call round (TO5).

The engine asks the players in turn (T4, TO5); a table cannot, for whose turn it is would
tell everyone that a hand may call Tonk, and a hand of courts would be told apart by how
long its owner thinks (issue 58). So at a table the round is open to every player at once
for the same GAMES_CALL_ROUND_SECONDS after the deal: a hand that may call has a button
to call (and to take the call back), every other hand simply lets the round close, and
nobody clicks to pass a deal. A call is kept on the deal (``Deal.called``), unpublished
and without a version, until the round closes; then :func:`games.play.rounds.close`
applies every player's answer through the engine in turn and the table moves on.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from games.engine.actions import Action
from games.engine.protocol import CallRound, DealState

from ..models import Deal

LAW = "TO5"


def has_round(state: DealState) -> bool:
    """Whether the deal begins with a round every player answers at once."""
    rules = state.rules
    return (
        rules.spec.capabilities(rules).call_round
        and state.version == 0
        and not state.is_over()
        and bool(cast(CallRound, state).call_options(state.to_move() or 0))
    )


def opening(state: DealState) -> dict[str, Any]:
    """A new deal's fields for its round: when it closes (nothing without one)."""
    if not has_round(state):
        return {}
    seconds = timedelta(seconds=settings.GAMES_CALL_ROUND_SECONDS)
    return {"call_round_until": timezone.now() + seconds, "bot_turn": False}


def is_open(deal: Deal) -> bool:
    """The deal's round is open: it has one, and nothing has been applied yet."""
    return deal.call_round_until is not None and deal.version == 0 and not deal.finished


def seconds_left(deal: Deal) -> float:
    if deal.call_round_until is None:
        return 0.0
    return max(0.0, (deal.call_round_until - timezone.now()).total_seconds())


def options_for(state: DealState, seat: int, called: bool) -> list[Action]:
    """What ``seat`` is offered while the round is open: to call, with a hand that may
    (T4), or, having called, to take it back; nothing for any other hand."""
    choices = cast(CallRound, state).call_options(seat)
    if len(choices) < 2:  # only "let it go": no button, the round closes by itself
        return []
    call, let_go = choices
    return [let_go] if called else [call]


def answer(deal: Deal, state: DealState, seat: int, action: Action) -> tuple[str, str] | None:
    """Keep ``seat``'s answer on the deal (secret until the round closes); the reason it
    is refused and its law, or None."""
    choices = {a.type: a for a in cast(CallRound, state).call_options(seat)}
    if action.type not in choices:
        if action.type == "call":
            return gettext("only a dealt hand of courts calls Tonk on the deal"), "T4"
        return gettext("the call round is open: play begins when it closes"), LAW
    called = [s for s in deal.called if s != seat]
    if action.type == "call":
        called.append(seat)
    deal.called = sorted(called)
    deal.save(update_fields=["called"])
    return None
