"""Computer players for the games where a player may drop (Tonk: T4–T10).

``greedy``: calls Tonk when it may, drops on a count of 5 or less, plucks the stock's
top card when it spreads or hits at once, spreads and hits whatever it can, and discards
its highest card. ``club``: a table player's judgement besides. It drops when its count
is well below what the others are likely to hold (their cards counted at the unseen
cards' average value, a player with few cards left feared more), keeps pairs and
two-card runs that may become spreads, plucks a low card that lowers its count, and
refuses the stock with the pack empty only when it holds the lowest count it can judge.
Both read only their own view: the hand, the table, the counts of the others' hands and
the public log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.spreads import count, hits_for, spreads_in, value
from games.engine.tonk.actions import Discard, Hit, Spread

from .base import View, caps


def _hand(view: View) -> list[Card]:
    return [Card.from_code(c) for c in view.get("hand") or []]


def _placed_cards(a: Action) -> list[Card]:
    """The hand's cards an action plays (none for a draw, a drop or a call)."""
    if isinstance(a, Spread):
        return [p.card for p in a.cards]
    if isinstance(a, Hit):
        return [a.card.card]
    if isinstance(a, Discard):
        return [a.card]
    return []


def _of(legal: Sequence[Action], kind: str) -> list[Action]:
    return [a for a in legal if a.type == kind]


def _best_play(legal: Sequence[Action]) -> Action | None:
    """The spread or hit that sheds the most count (a whole spread before a hit)."""
    plays = _of(legal, "spread") + _of(legal, "hit")
    if not plays:
        return None
    return max(plays, key=lambda a: (sum(value(c) for c in _placed_cards(a)), a.type == "spread"))


def _useful(card: Card, hand: list[Card], view: View) -> bool:
    """Whether ``card`` added to ``hand`` spreads or hits at once."""
    wild = caps(view).wild_cards
    from games.engine.from_view import combination_from_view

    table = [combination_from_view(c) for c in view.get("combinations") or []]
    more = [*hand, card]
    if any(card in [p.card for p in s] for s in spreads_in(more, wild=wild)):
        return True
    return any(p.card == card for _, p in hits_for([card], table, wild=wild))


def greedy_tonk(view: View, legal: Sequence[Action]) -> Action:
    hand = _hand(view)
    phase = view.get("phase")
    if phase == "call":
        return (_of(legal, "call") or list(legal))[0]
    if phase == "draw":
        if count(hand) <= 5 and _of(legal, "drop"):
            return _of(legal, "drop")[0]
        top = view.get("stock") or []
        if top and _of(legal, "pluck") and _useful(Card.from_code(top[-1]), hand, view):
            return _of(legal, "pluck")[0]
        return (_of(legal, "draw") or _of(legal, "pluck") or _of(legal, "refuse") or list(legal))[0]
    play = _best_play(legal)
    if play is not None:
        return play
    discards = _of(legal, "discard")
    return max(discards, key=lambda a: value(_placed_cards(a)[0])) if discards else legal[0]


# ---------------------------------------------------------------- the club player


UNSEEN_AVERAGE = 340 / 52  # T11: a 52-card pack counts 340


def _unseen_average(view: View, hand: list[Card]) -> float:
    """The average count of the cards this seat has not seen (the pack, the others'
    hands, the stock under its top)."""
    seen = list(hand)
    for c in view.get("combinations") or []:
        seen += [Card.from_code(x["card"]) for x in c["cards"]]
    seen += [Card.from_code(c) for c in view.get("stock") or []]
    left = 52 - len(seen)
    return (340 - count(seen)) / left if left > 0 else UNSEEN_AVERAGE


def _others_low(view: View, hand: list[Card]) -> float:
    """The lowest count another player is likely to hold: his cards at the unseen
    average, less what he is known to have picked up from the stock."""
    me = int(view["seat"])
    avg = _unseen_average(view, hand)
    counts = view["hand_counts"]
    return min(counts[s] * avg for s in range(int(view["players"])) if s != me)


def _keeps(card: Card, hand: list[Card]) -> int:
    """How many cards ``card`` works with toward a spread (a pair, a two-card run)."""
    return sum(
        1
        for c in hand
        if c != card
        and (c.rank == card.rank or (c.suit is card.suit and abs(c.rank - card.rank) <= 2))
    )


def _discard(legal: Sequence[Action], hand: list[Card]) -> Action:
    """The card whose keeping helps least for its count: high cards that fit nothing go
    first; a pair or a near run is kept unless its cards are high."""
    discards = _of(legal, "discard")
    return max(
        discards,
        key=lambda a: value(_placed_cards(a)[0]) - 4 * _keeps(_placed_cards(a)[0], hand),
    )


class TonkClub:
    """The club level for the dropping games (see the module's docstring)."""

    drop_share = 0.45  # drop when the count is below this share of the others' likely low

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        hand = _hand(view)
        phase = view.get("phase")
        if phase == "call":
            # a lone call wins; after another's, calling draws the deal instead of losing
            return (_of(legal, "call") or list(legal))[0]
        if phase == "draw":
            return self._start(view, legal, hand)
        play = _best_play(legal)
        if play is not None:
            return play
        return _discard(legal, hand) if _of(legal, "discard") else legal[0]

    def _start(self, view: View, legal: Sequence[Action], hand: list[Card]) -> Action:
        mine = count(hand)
        low = _others_low(view, hand)
        if _of(legal, "drop") and (mine <= 3 or mine < self.drop_share * low):
            return _of(legal, "drop")[0]
        top = view.get("stock") or []
        if top and _of(legal, "pluck"):
            card = Card.from_code(top[-1])
            worst = max((value(c) for c in hand), default=0)
            if _useful(card, hand, view) or (value(card) <= 3 and worst >= 9):
                return _of(legal, "pluck")[0]
        if _of(legal, "draw"):
            return _of(legal, "draw")[0]
        # the pack is empty: refusing ends the deal, the lowest count winning (T10)
        if _of(legal, "refuse") and mine < low:
            return _of(legal, "refuse")[0]
        return (_of(legal, "pluck") or _of(legal, "refuse") or list(legal))[0]


def ranked_alternatives(view: View, legal: Sequence[Action], k: int) -> list[Action]:
    """The club player's ``k`` most plausible actions besides its own (for the expert)."""
    hand = _hand(view)
    phase = view.get("phase")
    if phase == "draw":
        order = ["drop", "pluck", "draw", "refuse"]
        return sorted(legal, key=lambda a: order.index(a.type) if a.type in order else 9)[:k]
    plays = sorted(
        legal,
        key=lambda a: (
            -(value(_placed_cards(a)[0]) - 4 * _keeps(_placed_cards(a)[0], hand))
            if a.type == "discard"
            else -100 - sum(value(c) for c in _placed_cards(a))
        ),
    )
    return plays[:k]
