"""Computer players for the games where a low hand knocks (Tunk: K5, K7, K9).

``greedy``: takes the stock's top card when it lowers its best count at once, discards
the card whose loss leaves its lowest count (KO5's grouping), and calls Tunk as soon as
it may. ``club``: a table player's judgement besides: of discards that leave the same
count it throws the one that keeps the fewest chances of a meld (pairs and near runs, a
wild two above all), and it takes a wild two from the stock. It calls Tunk at once, as
greedy does: holding the call back for a lower count lost 0.53 points a deal to greedy
over 1,000 deals (seed 7), and calling at once won 0.30.
Both read only their own view: the hand, the stock's top card, the counts of cards and
the public log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.spreads import value
from games.engine.tunk.actions import Discard, Tunk
from games.engine.tunk.melds import Groupings

from .base import View


def _hand(view: View) -> list[Card]:
    return [Card.from_code(c) for c in view.get("hand") or []]


def _of(legal: Sequence[Action], kind: str) -> list[Action]:
    return [a for a in legal if a.type == kind]


def _best_left(hand: list[Card], barred: Card | None = None) -> int:
    """The lowest count of the hand less its best discard (``barred`` may not go)."""
    g = Groupings(hand)
    return min(g.points(c) for c in hand if c != barred)


def _takes_stock(view: View, hand: list[Card], legal: Sequence[Action]) -> bool:
    top = view.get("stock") or []
    if not top or not _of(legal, "pluck"):
        return False
    card = Card.from_code(top[-1])
    return _best_left([*hand, card], barred=card) < Groupings(hand).points()


def _discards(legal: Sequence[Action], hand: list[Card]) -> list[tuple[int, Discard]]:
    """Each discard with the count the hand is left with (KO5)."""
    g = Groupings(hand)
    return [(g.points(a.card), a) for a in legal if isinstance(a, Discard)]


def _end_turn(legal: Sequence[Action], hand: list[Card], keeps: bool) -> Action:
    """Tunk at once when offered, on the discard that leaves the lowest count; else the
    discard that leaves the lowest count, the highest card of those (``keeps``: of
    those, the one with the fewest chances of a meld first)."""
    tunks = [a for a in legal if isinstance(a, Tunk)]
    if tunks:
        g = Groupings(hand)
        return min(tunks, key=lambda a: (g.points(a.card), -value(a.card)))
    found = _discards(legal, hand)
    if not found:
        return legal[0]
    return min(
        found,
        key=lambda pa: (pa[0], _chances(pa[1].card, hand) if keeps else 0, -value(pa[1].card)),
    )[1]


def greedy_tunk(view: View, legal: Sequence[Action]) -> Action:
    hand = _hand(view)
    if view.get("phase") == "draw":
        if _takes_stock(view, hand, legal):
            return _of(legal, "pluck")[0]
        return (_of(legal, "draw") or list(legal))[0]
    return _end_turn(legal, hand, keeps=False)


def _chances(card: Card, hand: list[Card]) -> int:
    """How much keeping ``card`` may make a meld later: a wild two most; a card of the
    same rank, or of its suit within two ranks."""
    if card.rank == 2:
        return 4
    return sum(
        1
        for o in hand
        if o is not card
        and (o.rank == card.rank or (o.suit is card.suit and abs(o.rank - card.rank) <= 2))
    )


class TunkClub:
    """The club level for the knocking games (see the module's docstring)."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        hand = _hand(view)
        if view.get("phase") == "draw":
            top = view.get("stock") or []
            wild = bool(top) and Card.from_code(top[-1]).rank == 2
            if _of(legal, "pluck") and (wild or _takes_stock(view, hand, legal)):
                return _of(legal, "pluck")[0]
            return (_of(legal, "draw") or list(legal))[0]
        return _end_turn(legal, hand, keeps=True)


def ranked_alternatives(view: View, legal: Sequence[Action], k: int) -> list[Action]:
    """The club player's ``k`` most plausible actions (for the expert)."""
    if view.get("phase") == "draw":
        return list(legal)[:k]
    hand = _hand(view)
    g = Groupings(hand)
    ranked = sorted(
        legal,
        key=lambda a: (
            (g.points(a.card) - (1 if isinstance(a, Tunk) else 0), -value(a.card))
            if isinstance(a, Discard | Tunk)
            else (99, 0)
        ),
    )
    return ranked[:k]
