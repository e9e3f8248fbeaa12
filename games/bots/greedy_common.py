"""Helpers the greedy players of both families share."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.actions import Action
from games.engine.cards import Card

from .base import View, caps, is_wild, wild_mode
from .hands import conquian_pips, fits_something, rummy_pips


def highest_discard(
    actions: Sequence[Action], cards: Sequence[Card], hand: list[Card], view: View
) -> Action:
    conquian = caps(view).say
    wild = wild_mode(view)

    def key(i: int) -> tuple[int, int, int, int, str]:
        c = cards[i]
        pips = conquian_pips(c) if conquian else rummy_pips([c], view)
        useless = not fits_something(c, hand, wild, view)
        return (int(useless), int(not is_wild(c, wild)), pips, c.rank, c.code)

    best = max(range(len(actions)), key=key)
    return actions[best]


def stock_top(view: View) -> Card | None:
    stock = view.get("stock") or []
    return Card.from_code(stock[-1]) if stock else None


def text_of(a: Action) -> str:
    return a.text
