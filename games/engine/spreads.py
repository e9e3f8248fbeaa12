"""Spreads, hits and counts of the one-pack games with wild twos: Tonk's (T6, T7, T11,
TO1, TO2, Deuces Wild T-opt-3) and Tunk's melds (K4, K6, K8, KO1, KO2, KO10).

A spread is a set (three or four cards of a rank) or a run (three or more of a suit in
order, the ace low only: A 2 3, never Q K A, TO1, KO1). Where twos are wild, every two
may stand for any card: it is named when laid (``2C=9H``) and keeps that name (TO7,
KO10). Tonk's spread holds at least two natural cards (T-opt-3); Tunk sets no minimum
(KO2). A two laid as itself is a natural card. Spreads are
:class:`~games.engine.combinations.Combination` values: a set's ``rank``, a run's
``suit`` index and low end ``lo`` (1 for an ace). Each game's errors cite its own laws
(:class:`Laws`).

>>> from games.engine.cards import parse_cards
>>> [p.code for p in spread_of([Placed.from_code(c) for c in ("9H", "7H", "2C=8H")], wild=True)]
['7H', '2C=8H', '9H']
>>> count(parse_cards("AS 2C 10D KH"))
23
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from .cards import IN_ORDER, Card, Suit
from .combinations import SUIT_INDEX, Combination, Placed, TableCard
from .errors import IllegalActionError
from .words import gettext, name_of

SUITS = tuple(Suit)


class Laws(NamedTuple):
    """The laws a game's refusals cite: what a spread is, the ace in a run, wild twos,
    and the hit; ``naturals``, the natural cards a spread holds at least when twos are
    wild."""

    spread: str
    ace: str
    wild: str
    hit: str
    naturals: int


TONK = Laws(spread="TO2", ace="TO1", wild="T-opt-3", hit="T7", naturals=2)
TUNK = Laws(spread="KO2", ace="KO1", wild="K1", hit="K8", naturals=0)


def value(card: Card) -> int:
    """T11, TO1: courts and tens 10, two to nine their face, the ace 1 (a two 2, wild
    or not: T-opt-3)."""
    return 10 if card.rank >= 10 else card.rank


def count(cards: Iterable[Card]) -> int:
    """A hand's count (T9, T10, TO11): every card left in it (read by each card's
    ``order``, in C: a count ends every dropped deal).

    >>> from games.engine.cards import parse_cards
    >>> count(parse_cards("AS 2C 9D 10H KS"))
    32
    """
    return sum(map(VALUE_BY_ORDER.__getitem__, map(IN_ORDER, cards)))


VALUE_BY_ORDER = [min(order // 4, 10) for order in range(14 * 4)]  # T11 by a card's order


def is_wild(card: Card, wild: bool) -> bool:
    return wild and card.rank == 2


def spread_of(cards: Sequence[Placed], *, wild: bool, laws: Laws = TONK) -> list[Placed]:
    """The cards in their spread's order (a run low to high), or
    :class:`IllegalActionError` with the law when they are not a spread."""
    if len(cards) < 3:
        raise IllegalActionError(gettext("a spread is three cards or more"), law=laws.spread)
    naturals = 0
    for p in cards:
        if p.card == p.named:
            naturals += 1
        elif not is_wild(p.card, wild):
            raise IllegalActionError(
                (
                    gettext("%(card)s is not wild; only a two is named")
                    if wild
                    else gettext("%(card)s is not wild; only a two is named (with Deuces Wild)")
                )
                % {"card": p.card.code},
                law=laws.wild,
            )
    if wild and naturals < laws.naturals:
        raise IllegalActionError(
            (
                gettext("a spread holds at least one natural card")
                if laws.naturals == 1
                else gettext("a spread holds at least %(count)s natural cards")
                % {"count": laws.naturals}
            ),
            law=laws.wild,
        )
    named = [p.named for p in cards]
    if len(set(named)) != len(named):
        raise IllegalActionError(gettext("a spread names each card once"), law=laws.spread)
    ranks = {c.rank for c in named}
    if len(ranks) == 1:
        if len(cards) > 4:
            raise IllegalActionError(
                gettext("a set is three or four cards of a rank"), law=laws.spread
            )
        return sorted(cards, key=lambda p: SUIT_INDEX[p.named.suit])  # type: ignore[index]
    if len({c.suit for c in named}) != 1:
        raise IllegalActionError(
            gettext("a spread is a set of one rank or a run of one suit"), law=laws.spread
        )
    ordered = sorted(cards, key=lambda p: p.named.rank)
    if ordered[-1].named.rank - ordered[0].named.rank != len(cards) - 1:
        raise IllegalActionError(
            gettext("a run is in order with no gap; the ace is low only"), law=laws.ace
        )
    return ordered


def make_spread(
    cards: Sequence[Placed], *, wild: bool, owner: int, sid: int, laws: Laws = TONK
) -> Combination:
    """The spread the cards make (:func:`spread_of` checks them)."""
    ordered = spread_of(cards, wild=wild, laws=laws)
    table = tuple(TableCard(p.card, p.named) for p in ordered)
    first = ordered[0].named
    if first.rank == ordered[-1].named.rank:
        return Combination(sid, owner, "set", table, rank=first.rank)
    assert first.suit is not None
    return Combination(sid, owner, "sequence", table, suit=SUIT_INDEX[first.suit], lo=first.rank)


def hit_spread(s: Combination, p: Placed, *, wild: bool, laws: Laws = TONK) -> Combination:
    """The spread with ``p`` added at its place (T7, K8), or :class:`IllegalActionError`
    (a natural card where a two stands for it included, KO10)."""
    if p.card != p.named and not is_wild(p.card, wild):
        raise IllegalActionError(
            gettext("%(card)s is not wild; only a two is named") % {"card": p.card.code},
            law=laws.wild,
        )
    tc = TableCard(p.card, p.named)
    if s.kind == "set":
        if p.named.rank != s.rank or len(s.cards) >= 4:
            raise IllegalActionError(
                gettext("a set takes a fourth card of its rank only"), law=laws.spread
            )
        if any(t.named == p.named for t in s.cards):
            raise IllegalActionError(
                gettext("the set has the %(card)s already") % {"card": name_of(p.named.code)},
                law=laws.spread,
            )
        return Combination(s.id, s.owner, "set", s.cards + (tc,), rank=s.rank)
    suit = SUITS[s.suit]
    hi = s.lo + len(s.cards) - 1
    if p.named.suit is suit and p.named.rank == s.lo - 1:
        return Combination(s.id, s.owner, "sequence", (tc, *s.cards), suit=s.suit, lo=s.lo - 1)
    if p.named.suit is suit and p.named.rank == hi + 1:
        return Combination(s.id, s.owner, "sequence", (*s.cards, tc), suit=s.suit, lo=s.lo)
    raise IllegalActionError(
        gettext("a run takes the card below or above its ends only"), law=laws.hit
    )


# ---------------------------------------------------------------- what a hand can do


def spreads_in(hand: Sequence[Card], *, wild: bool, naturals: int = 2) -> list[tuple[Placed, ...]]:
    """Every spread the hand can lay (each once: a set's wild two named as the first free
    suit, wild twos used in the hand's order), each with ``naturals`` natural cards at
    least (one at least: three wild twos are a set of twos as they stand). ``hand`` holds
    each card once (one pack)."""
    least = max(naturals, 1)
    out: list[tuple[Placed, ...]] = []
    if not wild and not may_spread(hand):
        return out
    twos = [c for c in hand if c.rank == 2] if wild else []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[Suit, dict[int, Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, {})[c.rank] = c  # type: ignore[arg-type]
    # sets: three or four of a rank, a wild two making up a missing suit
    for rank, group in by_rank.items():
        k_max = len(group) + (len(twos) if rank != 2 else 0)
        if k_max < 3:
            continue
        for k in (3, 4):
            if len(group) >= k:
                out += [tuple(Placed(c, c) for c in nat) for nat in combinations(group, k)]
        if rank == 2 or not twos:
            continue
        for k in (3, 4):
            for w in range(1, min(len(twos), k - least) + 1):
                for nat in combinations(group, k - w):
                    free = [s for s in SUITS if all(c.suit is not s for c in nat)]
                    out.append(
                        tuple(Placed(c, c) for c in nat)
                        + tuple(Placed(twos[i], Card(rank, free[i])) for i in range(w))
                    )
    # runs: windows of a suit, gaps filled by wild twos
    for suit, held in by_suit.items():
        if len(held) + len(twos) < 3:
            continue
        if not twos:
            _plain_runs(held, out)
        else:
            _wild_runs(suit, held, twos, out, least)
    return out


def may_spread(hand: Sequence[Card]) -> bool:
    """Whether a hand without wild cards holds a set or a run at all (most hands hold
    neither: the answer is quick, and the search is skipped). One bit a card, sixteen a
    suit (ranks 1-13), read from the card's ``order`` (rank * 4 + suit)."""
    m = 0
    for c in hand:
        o = c.order
        m |= 1 << ((o & 3) * 16 + (o >> 2))
    if m & (m >> 1) & (m >> 2):  # three ranks in a row in one suit
        return True
    a, b, c_, d = m & 0xFFFF, (m >> 16) & 0xFFFF, (m >> 32) & 0xFFFF, m >> 48
    return bool((a & b & (c_ | d)) | (c_ & d & (a | b)))  # a rank in three suits


def _plain_runs(held: dict[int, Card], out: list[tuple[Placed, ...]]) -> None:
    """Every run of three or more within each stretch of consecutive ranks held."""
    ranks = sorted(held)
    start = 0
    for i in range(1, len(ranks) + 1):
        if i < len(ranks) and ranks[i] == ranks[i - 1] + 1:
            continue
        stretch = [Placed(held[r], held[r]) for r in ranks[start:i]]
        for a in range(len(stretch) - 2):
            for b in range(a + 3, len(stretch) + 1):
                out.append(tuple(stretch[a:b]))
        start = i


def _wild_runs(
    suit: Suit,
    held: dict[int, Card],
    twos: list[Card],
    out: list[tuple[Placed, ...]],
    least: int,
) -> None:
    """Every window of the suit with ``least`` natural cards or more, each gap filled by
    a wild two (the suit's own two, held, stands as itself)."""
    own = held.get(2)
    spare_all = [t for t in twos if t is not own]
    w = len(twos)
    lo_min, hi_max = max(1, min(held) - w), min(13, max(held) + w)
    for lo in range(lo_min, hi_max - 1):
        for hi in range(lo + 2, hi_max + 1):
            gaps = [r for r in range(lo, hi + 1) if r not in held]
            spare = spare_all if own is not None and lo <= 2 <= hi else twos
            if hi - lo + 1 - len(gaps) < least or len(gaps) > len(spare):
                continue
            fill = dict(zip(gaps, spare, strict=False))
            out.append(
                tuple(
                    Placed(held[r], held[r]) if r in held else Placed(fill[r], Card(r, suit))
                    for r in range(lo, hi + 1)
                )
            )


def hits_for(
    hand: Sequence[Card], spreads: Sequence[Combination], *, wild: bool
) -> list[tuple[int, Placed]]:
    """Every (spread, card) hit the hand can make (T7). ``hand`` holds each card once."""
    out: list[tuple[int, Placed]] = []
    if not spreads:
        return out
    twos = [c for c in hand if c.rank == 2] if wild else []
    for s in spreads:
        if s.kind == "set":
            if len(s.cards) >= 4:
                continue
            taken = [t.named.suit for t in s.cards]
            for c in hand:
                if c.rank == s.rank and c.suit not in taken:
                    out.append((s.id, Placed(c, c)))
            if twos and s.rank != 2:
                named = Card(s.rank, next(x for x in SUITS if x not in taken))
                out += [(s.id, Placed(t, named)) for t in twos]
            continue
        suit = SUITS[s.suit]
        hi = s.lo + len(s.cards) - 1
        for r in (s.lo - 1, hi + 1):
            if not 1 <= r <= 13:
                continue
            natural = next((c for c in hand if c.rank == r and c.suit is suit), None)
            if natural is not None:
                out.append((s.id, Placed(natural, natural)))
            if twos:
                want = Card(r, suit)
                out += [(s.id, Placed(t, want)) for t in twos if t is not natural]
    return out
