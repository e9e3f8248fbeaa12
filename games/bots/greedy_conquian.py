"""Greedy for Conquián: uses what it can, melds what it can, never forces."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.actions import Action
from games.engine.conquian import actions as conquian

from .base import View, cards_of
from .greedy_common import highest_discard, text_of


def greedy_conquian(view: View, legal: Sequence[Action]) -> Action:
    """Greedy for Conquián: uses what it can, melds what it can, never forces."""
    hand = cards_of(view.get("hand") or [])
    trades = [a for a in legal if isinstance(a, conquian.TradeAction)]
    if trades:
        return highest_discard(trades, [a.card for a in trades], hand, view)
    uses = [a for a in legal if isinstance(a, conquian.UseAction)]
    if uses:
        return max(uses, key=lambda a: (len(a.hand), -len(a.borrow), a.to is None, text_of(a)))
    melds = [a for a in legal if isinstance(a, conquian.MeldAction)]
    if melds:
        return max(melds, key=lambda a: (len(a.hand), -len(a.borrow), text_of(a)))
    discards = [a for a in legal if isinstance(a, conquian.ThrowAction)]
    if discards:
        return highest_discard(discards, [a.card for a in discards], hand, view)
    passes = [a for a in legal if isinstance(a, conquian.PassAction)]
    if passes:
        return passes[0]
    rest = [a for a in legal if not isinstance(a, conquian.ForceAction)]
    return rest[0] if rest else legal[0]
