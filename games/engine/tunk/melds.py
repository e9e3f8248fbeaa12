"""Tunk's melds (K4, KO2), kept in the hand until someone tunks: the grouping with the
lowest unmatched count (KO5) and the last turn's lay-offs on the Tunker's melds (K8,
KO10). A meld is a spread of :mod:`games.engine.spreads` with every two wild (K1) and no
natural minimum (KO2).

>>> from games.engine.cards import parse_cards
>>> g = grouping(parse_cards("5H 6H 7H KS KD 2C 9D"))
>>> [[p.code for p in m] for m in g.melds], [c.code for c in g.unmatched], g.points
([['KD', 'KS', '2C=KC'], ['5H', '6H', '7H']], ['9D'], 9)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..cards import IN_ORDER, Card
from ..combinations import Combination, Placed
from ..errors import IllegalActionError
from ..spreads import TUNK, count, hit_spread, hits_for, make_spread, may_spread, spreads_in, value


class Grouping(NamedTuple):
    """A hand as melds and unmatched cards; ``points``: the unmatched cards' values (K6)."""

    melds: tuple[tuple[Placed, ...], ...]
    unmatched: tuple[Card, ...]
    points: int


class Groupings:
    """The lowest-count grouping (KO5) of a hand and of each part of it: one search, its
    answers kept, so that the count of the hand less each discard costs one search."""

    def __init__(self, hand: Sequence[Card]) -> None:
        self.cards = sorted(hand, key=IN_ORDER)
        self.bit = {c: 1 << i for i, c in enumerate(self.cards)}
        self._bit_of = {c.order: 1 << i for i, c in enumerate(self.cards)}
        self.by_low: dict[int, list[tuple[int, tuple[Placed, ...]]]] = {}
        for meld in spreads_in(self.cards, wild=True, naturals=TUNK.naturals):
            m = 0
            for p in meld:
                m |= self.bit[p.card]
            self.by_low.setdefault(m & -m, []).append((m, meld))
        self.memo: dict[int, tuple[int, tuple[tuple[Placed, ...], ...]]] = {0: (0, ())}
        self._fits: dict[tuple[int, int], bool] = {}

    def _best(self, rest: int) -> tuple[int, tuple[tuple[Placed, ...], ...]]:
        found = self.memo.get(rest)
        if found is not None:
            return found
        low = rest & -rest
        card = self.cards[low.bit_length() - 1]
        left, melds = self._best(rest & ~low)  # the lowest card unmatched
        best = (left + value(card), melds)
        for m, meld in self.by_low.get(low, ()):
            if m & rest == m:
                sub, more = self._best(rest & ~m)
                if sub < best[0]:
                    best = (sub, (meld, *more))
        self.memo[rest] = best
        return best

    def fits(self, without: Card, limit: int) -> bool:
        """Whether the hand less ``without`` counts ``limit`` or less unmatched: the
        search of :meth:`points` cut off wherever the count passes ``limit`` (a card
        worth more must be in a meld), which most hands soon do."""
        return self._fit((1 << len(self.cards)) - 1 & ~self._bit_of[without.order], limit)

    def _fit(self, rest: int, budget: int) -> bool:
        if rest == 0:
            return True
        key = (rest, budget)
        found = self._fits.get(key)
        if found is not None:
            return found
        low = rest & -rest
        worth = value(self.cards[low.bit_length() - 1])
        ok = worth <= budget and self._fit(rest & ~low, budget - worth)
        if not ok:
            for m, _meld in self.by_low.get(low, ()):
                if m & rest == m and self._fit(rest & ~m, budget):
                    ok = True
                    break
        self._fits[key] = ok
        return ok

    def points(self, without: Card | None = None) -> int:
        """The lowest unmatched count of the hand, less ``without`` if given."""
        rest = (1 << len(self.cards)) - 1
        if without is not None:
            rest &= ~self._bit_of[without.order]
        return self._best(rest)[0]

    def of(self, without: Card | None = None) -> Grouping:
        """The lowest-count grouping of the hand, less ``without`` if given."""
        rest = (1 << len(self.cards)) - 1
        if without is not None:
            rest &= ~self.bit[without]
        n, melds = self._best(rest)
        used = {p.card for meld in melds for p in meld}
        left = tuple(c for c in self.cards if c not in used and c is not without)
        return Grouping(melds, left, n)


def tunk_discards(hand: Sequence[Card], barred: Card | None, limit: int) -> list[Card]:
    """The discards after which the cards left count ``limit`` or less unmatched (K7,
    KO3). Most hands are answered without the search: one with no two and no meld by its
    count; any other when a bound shows no discard can do it (:func:`_lonely_floor`)."""
    twos = sum(1 for c in hand if c.rank == 2)
    if not twos and not may_spread(hand):
        total = count(hand)
        return [c for c in hand if c is not barred and total - value(c) <= limit]
    if _lonely_floor(hand, twos) > limit:
        return []
    g = Groupings(hand)
    return [c for c in g.cards if c is not barred and g.fits(c, limit)]


def _lonely_floor(hand: Sequence[Card], twos: int) -> int:
    """A floor under the unmatched count of the hand less any one card. A natural card
    with no other natural of its rank, nor of its suit within ``twos + 1`` ranks, is in
    no meld but one of itself and two wild twos; so the lonely cards count, less the
    largest ``twos // 2`` of them (their melds of twos) and one more (the discard)."""
    reach = twos + 1
    naturals = [c for c in hand if c.rank != 2]
    lonely = sorted(
        (
            value(c)
            for c in naturals
            if not any(
                o is not c
                and (o.rank == c.rank or (o.suit is c.suit and abs(o.rank - c.rank) <= reach))
                for o in naturals
            )
        ),
        reverse=True,
    )
    return sum(lonely[twos // 2 + 1 :])


def grouping(hand: Sequence[Card]) -> Grouping:
    """The hand's grouping with the lowest unmatched count (KO5)."""
    return Groupings(hand).of()


class LastTurn(NamedTuple):
    """A player's last turn (K8): the melds he lays down, his lay-offs (meld, card) on
    the Tunker's melds, the cards left unmatched and their count, and the Tunker's melds
    after them."""

    melds: tuple[tuple[Placed, ...], ...]
    lay_offs: tuple[tuple[int, Placed], ...]
    unmatched: tuple[Card, ...]
    points: int
    tunker_melds: tuple[Combination, ...]


def _lay_off(
    cards: list[Card], melds: list[Combination]
) -> tuple[list[tuple[int, Placed]], list[Card]]:
    """Lay off what will go on ``melds`` (changed in place), naturals before twos, until
    nothing more goes: a card on a run's end may open the next (K8, KO10)."""
    done: list[tuple[int, Placed]] = []
    left = sorted(cards, key=lambda c: (c.rank == 2, c.order))
    moved = True
    while moved:
        moved = False
        for c in left:
            hits = hits_for([c], melds, wild=True)
            if hits:
                sid, p = hits[0]
                melds[sid] = hit_spread(melds[sid], p, wild=True, laws=TUNK)
                done.append((sid, p))
                left.remove(c)
                moved = True
                break
    return done, left


def last_turn(hand: Sequence[Card], tunker: Sequence[Combination], lay_off: bool) -> LastTurn:
    """The last turn with the lowest count left (KO5: laying down and laying off only
    lower it): every choice of the hand's own melds, then every lay-off it leaves;
    ``lay_off`` False when the Tunker had no unmatched card (K8)."""
    g = Groupings(hand)
    best: LastTurn | None = None

    def visit(rest: int, chosen: tuple[tuple[Placed, ...], ...]) -> None:
        nonlocal best
        cards = [c for c in g.cards if g.bit[c] & rest]
        melds = list(tunker)
        offs, left = _lay_off(cards, melds) if lay_off else ([], cards)
        n = count(left)
        if best is None or n < best.points:
            best = LastTurn(chosen, tuple(offs), tuple(sorted(left, key=IN_ORDER)), n, tuple(melds))
        for low_melds in g.by_low.values():
            for m, meld in low_melds:
                # each choice once: melds taken in the order of their lowest card
                if m & rest == m and (not chosen or _low(g, meld) > _low(g, chosen[-1])):
                    visit(rest & ~m, (*chosen, meld))

    visit((1 << len(g.cards)) - 1, ())
    assert best is not None
    return best


def _low(g: Groupings, meld: tuple[Placed, ...]) -> int:
    return min(g.bit[p.card] for p in meld)


def tunker_melds(owner: int, melds: Sequence[tuple[Placed, ...]]) -> list[Combination]:
    """The Tunker's melds as the table shows them, numbered from 0."""
    try:
        return [
            make_spread(m, wild=True, owner=owner, sid=i, laws=TUNK) for i, m in enumerate(melds)
        ]
    except IllegalActionError as e:  # the search makes melds only
        raise AssertionError(f"not a meld: {e}") from None
