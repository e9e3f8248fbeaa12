"""Greedy for the rummy family (foster, foster-three, colonel)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.actions import Action
from games.engine.rummy import moves

from .base import View, cards_of, wild_mode
from .greedy_common import highest_discard, stock_top, text_of
from .hands import makes_layout, rummy_pips, took_back_this_turn


def greedy_rummy(view: View, legal: Sequence[Action]) -> Action:
    """Greedy for foster, foster-three and colonel."""
    hand = cards_of(view.get("hand") or [])
    wild = wild_mode(view)
    # Colonel's challenge: accept a challenge only with a small hand; never challenge.
    if any(isinstance(a, moves.Accept) for a in legal):
        small = rummy_pips(hand, view) <= 10
        want = moves.Accept if small else moves.Decline
        return next(a for a in legal if isinstance(a, want))
    draws = [a for a in legal if isinstance(a, moves.Draw)]
    if draws:
        for a in draws:
            if a.source == "stock":
                card = a.card if a.card is not None else stock_top(view)
                if card is not None and makes_layout(hand, card, wild, view):
                    return a
        pack = [a for a in draws if a.source == "pack"]
        return pack[0] if pack else draws[0]
    rest = [a for a in legal if not isinstance(a, moves.Challenge)]
    if not took_back_this_turn(view):
        lays = [a for a in rest if isinstance(a, moves.Layout)]
        if lays:
            return max(lays, key=lambda a: (len(a.cards), -_wilds(a), text_of(a)))
        adds = [a for a in rest if isinstance(a, (moves.Add, moves.MoveJoker))]
        if adds:
            return min(
                adds, key=lambda a: (a.card.is_wild, isinstance(a, moves.MoveJoker), text_of(a))
            )
    discards = [a for a in rest if isinstance(a, moves.Discard)]
    if discards:
        return highest_discard(discards, [a.card for a in discards], hand, view)
    return rest[0] if rest else legal[0]


def _wilds(a: moves.Layout) -> int:
    return sum(1 for p in a.cards if p.is_wild)
