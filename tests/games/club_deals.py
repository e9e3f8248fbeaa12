"""Deals at a club table for tests of games kept over many deals (Tunk's K10, Conquián's
C-opt-4): a first deal dealt from given game scores, and a deal played to its end through
the club's service, as members' moves are."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from club.services.seating import table_seating
from games.engine.actions import Action
from games.engine.protocol import DealState
from games.models import Deal
from games.play import call_round, engine_api, reading, services, timers
from games.play.moves import Move


def first_deal(
    table: Any,
    variant: str,
    options: dict[str, Any],
    scores: tuple[int, ...] = (),
    seed: int = 0,
    *,
    pack: list[str] | None = None,
    dealer: int = 0,
) -> Deal:
    """Deal number 1 at ``table`` from the game's ``scores`` (``pack``: stacked, top
    first), as the service deals it (a call round opened, TO5)."""
    state = engine_api.new_state(
        variant, options, table.size, dealer, seed=seed, pack=pack, scores_in=scores
    )
    return Deal.objects.create(
        table=table, number=1, variant=variant, options=dict(state.rules.options),
        players=table.size, dealer=dealer, seed=seed, pack=engine_api.pack_codes(state),
        version=0, to_move=state.to_move(), snapshot=engine_api.to_snapshot(state),
        scores_in=list(scores), **call_round.opening(state),
    )  # fmt: skip


def finish(
    table: Any,
    deal: Deal,
    seed: int,
    choose: Callable[[Sequence[Action], random.Random], Action] | None = None,
) -> DealState:
    """Play ``deal`` to its end by the seats' members (``choose``: at random), and return
    its finished state."""
    rng = random.Random(seed)
    timers.close_round(deal.pk, early=True)  # a call round (TO5) closes first
    while True:
        deal = Deal.objects.get(pk=deal.pk)
        state = reading.load_state(deal)
        if state.is_over():
            return state
        seat = state.to_move()
        legal = state.legal_actions(seat)
        action = choose(legal, rng) if choose else rng.choice(legal)
        services.act(Move(table.pk, member_id=table_seating(table.pk)[seat].member_id, version=deal.version, deal_id=deal.pk, action=action.to_json()))  # fmt: skip
