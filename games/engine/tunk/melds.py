"""Tunk's melds (K4, KO2), kept in the hand until someone tunks: the grouping with the
lowest unmatched count (KO5) and the last turn's lay-offs on the Tunker's melds (K8,
KO10). A meld is a spread of :mod:`games.engine.spreads` with every two wild (K1) and no
natural minimum (KO2).

>>> from games.engine.cards import parse_cards
>>> g = grouping(parse_cards("5H 6H 7H KS KD 2C 9D"))
>>> [[p.code for p in m] for m in g.melds], [c.code for c in g.unmatched], g.points
([['5H', '6H', '7H'], ['KD', 'KS', '2C=KC']], ['9D'], 9)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from ..cards import IN_ORDER, Card
from ..combinations import Combination, Placed
from ..errors import IllegalActionError
from ..spreads import (
    SUITS,
    TUNK,
    VALUE_BY_ORDER,
    count,
    hit_spread,
    hits_for,
    make_spread,
    may_spread,
)


class Grouping(NamedTuple):
    """A hand as melds and unmatched cards; ``points``: the unmatched cards' values (K6)."""

    melds: tuple[tuple[Placed, ...], ...]
    unmatched: tuple[Card, ...]
    points: int


class Groupings:
    """The lowest-count grouping (KO5) of a hand and of the hand less any one card: one
    search over (natural cards left, twos left), its answers kept, so that the count of
    the hand less each discard costs little more than one search.

    Twos are wild and alike (K1), so a meld is its natural cards and a number of twos
    (:class:`_Meld`); which two goes where is chosen only when the melds are laid
    (:func:`_laid`). Every meld the rules allow is searched: a run may name a card held
    elsewhere in the hand, and two melds may each take twos."""

    def __init__(self, hand: Sequence[Card]) -> None:
        self.cards = sorted(hand, key=IN_ORDER)
        self.naturals = [c for c in self.cards if c.rank != 2]
        self.twos = [c for c in self.cards if c.rank == 2]
        self.by_bit = {1 << c.order: c for c in self.naturals}
        self.melds = _melds(self.naturals, len(self.twos))
        self.by_low: dict[int, list[_Meld]] = {}
        for m in self.melds:
            if m.naturals:
                self.by_low.setdefault(m.naturals & -m.naturals, []).append(m)
        self.memo: dict[tuple[int, int], tuple[int, tuple[tuple[_Meld, int], ...]]] = {}

    def _best(self, rest: int, twos: int) -> tuple[int, tuple[tuple[_Meld, int], ...]]:
        """The lowest count of the naturals ``rest`` and ``twos`` twos, and its melds
        (each with the twos it takes)."""
        if rest == 0:  # three twos or four are a set of twos; fewer count two each
            return (0, ((_TWOS_SET, twos),)) if twos >= 3 else (2 * twos, ())
        key = (rest, twos)
        found = self.memo.get(key)
        if found is not None:
            return found
        low = rest & -rest
        left, melds = self._best(rest & ~low, twos)  # the lowest natural unmatched
        best = (left + VALUE_BY_ORDER[low.bit_length() - 1], melds)
        for m in self.by_low.get(low, ()):
            if m.naturals & rest == m.naturals:
                for j in range(m.least, min(m.most, twos) + 1):
                    sub, more = self._best(rest & ~m.naturals, twos - j)
                    if sub < best[0]:
                        best = (sub, ((m, j), *more))
        self.memo[key] = best
        return best

    def _start(self, without: Card | None) -> tuple[int, list[Card]]:
        rest = sum(self.by_bit)
        twos = list(self.twos)
        if without is not None:
            if without.rank == 2:
                twos = [t for t in twos if t != without]
            else:
                rest &= ~(1 << without.order)
        return rest, twos

    def points(self, without: Card | None = None) -> int:
        """The lowest unmatched count of the hand, less ``without`` if given."""
        rest, twos = self._start(without)
        return self._best(rest, len(twos))[0]

    def of(self, without: Card | None = None) -> Grouping:
        """The lowest-count grouping of the hand, less ``without`` if given."""
        rest, twos = self._start(without)
        n, chosen = self._best(rest, len(twos))
        melds, spare = self.laid(chosen, twos)
        used = {p.card for meld in melds for p in meld}
        left = tuple(c for c in self.cards if c not in used and c != without)
        assert n == count(left), (n, left)
        return Grouping(tuple(melds), left, n)

    def laid(
        self, chosen: Sequence[tuple[_Meld, int]], twos: Sequence[Card]
    ) -> tuple[list[tuple[Placed, ...]], list[Card]]:
        """The melds as laid, each two named (:func:`_laid`), and the twos left over."""
        spare = list(twos)
        out = []
        for m, j in chosen:
            cards = [c for bit, c in self.by_bit.items() if m.naturals & bit]
            out.append(_laid(cards, spare[:j]))
            del spare[:j]
        return out, spare


def _laid(cards: Sequence[Card], twos: Sequence[Card]) -> tuple[Placed, ...]:
    """Natural cards and wild twos as a meld laid (K1, KO2): three twos or four as they
    stand; one rank, four cards or fewer, a set (the twos named as the missing suits);
    else a run from the lowest start its length allows (the ace low, KO1), a two of the
    run's suit standing as itself where the run passes its place, the others filling
    the gaps upward."""
    if not cards:
        return tuple(Placed(t, t) for t in twos)
    ranks = {c.rank for c in cards}
    if len(ranks) == 1 and len(cards) + len(twos) <= 4:
        rank = cards[0].rank
        free = [s for s in SUITS if all(c.suit is not s for c in cards)]
        named = [Placed(t, Card(rank, free[i])) for i, t in enumerate(twos)]
        return tuple(Placed(c, c) for c in cards) + tuple(named)
    suit = cards[0].suit
    length = len(cards) + len(twos)
    lo = max(1, max(ranks) - length + 1)
    gaps = [r for r in range(lo, lo + length) if r not in ranks]
    spare = list(twos)
    placed = [Placed(c, c) for c in cards]
    own = next((t for t in spare if t.suit is suit), None)
    if own is not None and 2 in gaps:
        placed.append(Placed(own, own))
        spare.remove(own)
        gaps.remove(2)
    placed += [Placed(t, Card(r, suit)) for t, r in zip(spare, gaps, strict=True)]
    return tuple(sorted(placed, key=lambda p: p.named.rank))


class _Meld(NamedTuple):
    """A meld's natural cards (bits over the hand's naturals), their count, and how
    many wild twos it takes at least and at most (K1, KO2): a set three or four cards,
    a run three to thirteen long with no gap its twos do not fill."""

    naturals: int
    worth: int
    least: int
    most: int


def tunk_discards(hand: Sequence[Card], barred: Card | None, limit: int) -> list[Card]:
    """The discards after which the cards left count ``limit`` or less unmatched (K7,
    KO3), each judged on the seven cards it leaves.

    Twos are wild and alike (K1: any two may stand where another stands, and each
    counts two unmatched, K6), so a meld is its natural cards and a number of twos,
    and at most two melds fit in seven cards. The search is over pairs of melds'
    naturals (:func:`_melds`), best first, cut off where even the highest discard
    could not bring the count down to ``limit``. It agrees with the lowest grouping
    of :class:`Groupings` on the seven cards (a property test holds it to that).
    Most hands, with no two and no meld, are answered by their count alone."""
    naturals = []
    total = highest = 0
    for c in hand:  # one pass: a loop cost less here than three comprehensions
        if c.rank != 2:
            naturals.append(c)
            v = VALUE_BY_ORDER[c.order]
            total += v
            if v > highest:
                highest = v
    twos = len(hand) - len(naturals)
    need = total - highest - limit  # what the melds' naturals must count at least
    if not twos and not may_spread(hand):
        if need > 0:
            return []  # not even the highest discard leaves few enough
        return [c for c in hand if c is not barred and total - VALUE_BY_ORDER[c.order] <= limit]
    if need > 0 and twos < 2 and _meldable_worth(naturals, twos) < need:
        return []  # even every natural that could be in some meld would not count enough
    worth = [(1 << c.order, VALUE_BY_ORDER[c.order]) for c in naturals]
    melds = _melds(naturals, twos)
    if twos >= 3:
        melds.append(_TWOS_SET)
    melds.sort(key=lambda m: -m.worth)
    choices: list[_Meld] = [_Meld(0, 0, 0, 0)] if need <= 0 else []
    for i, a in enumerate(melds):
        if a.worth + (melds[0].worth if melds else 0) < need:
            break
        if a.worth >= need:
            choices.append(a)
        for b in melds[i + 1 :]:
            if a.worth + b.worth < need:
                break
            if not a.naturals & b.naturals and a.least + b.least <= twos:
                choices.append(
                    _Meld(a.naturals | b.naturals, a.worth + b.worth, a.least + b.least,
                          a.most + b.most)
                )  # fmt: skip
    fit = 0  # the naturals whose discard leaves a Tunk
    two_fits = False
    for m in choices:
        left = total - m.worth
        over = left + 2 * (twos - min(twos, m.most)) - limit  # a natural discard's value at least
        if over <= highest:
            for bit, w in worth:
                if w >= over and not m.naturals & bit:
                    fit |= bit
        if twos and m.least < twos and left + 2 * (twos - 1 - min(twos - 1, m.most)) <= limit:
            two_fits = True
    if not fit and not two_fits:
        return []
    order = sorted(hand, key=IN_ORDER)
    return [
        c for c in order if c is not barred and (fit >> c.order & 1 if c.rank != 2 else two_fits)
    ]


def _meldable_worth(naturals: Sequence[Card], twos: int) -> int:
    """At least what the naturals of any one meld, or two apart, count (K1, KO2), found
    without making the melds: the count of every natural that is in some meld. With no
    wild two, a natural is in a meld if its rank has three naturals or it is one of three
    in a row of its suit; with one two, if its rank has two, or a natural of its suit is
    beside it or one from it (the two fills the gap or the end). With two twos or more
    every natural is (a lone card and two twos make a run), so that case is not asked.
    With one two and no meld of naturals alone, every meld takes the two, so the hand
    makes one meld at most: the best of one rank's naturals or one suit's bounds it.
    Cards are bits by rank in a plane a suit, as :func:`..spreads.may_spread` reads them."""
    planes = [0, 0, 0, 0]
    for c in naturals:
        o = c.order
        planes[o & 3] |= 1 << (o >> 2)
    a, b, c_, d = planes
    if twos == 0:
        in_set = (a & b & c_) | (a & b & d) | (a & c_ & d) | (b & c_ & d)
    else:
        in_set = a & b | a & c_ | a & d | b & c_ | b & d | c_ & d
    fits = []
    for p in planes:
        starts = p & (p >> 1) & (p >> 2) if twos == 0 else p & (p >> 1) | p & (p >> 2)
        fits.append((starts | starts << 1 | starts << 2 | in_set) & p)
    if twos == 1 and not (
        (a & b & (c_ | d)) | (c_ & d & (a | b)) or any(p & p >> 1 & p >> 2 for p in planes)
    ):
        # No meld of naturals alone: every meld takes the one two, so one meld at most,
        # and it is one rank's pair or one suit's run: the best such group bounds it.
        groups = [0] * 18  # 0-3: a suit's run; 4-17: a rank's pair
        for c in naturals:
            o = c.order
            r, v = o >> 2, VALUE_BY_ORDER[o]
            if fits[o & 3] >> r & 1:
                groups[o & 3] += v
            if in_set >> r & 1:
                groups[4 + r] += v
        return max(groups)
    worth = 0
    for c in naturals:  # a loop: a generator in sum() cost a tenth more here
        o = c.order
        if fits[o & 3] >> (o >> 2) & 1:
            worth += VALUE_BY_ORDER[o]
    return worth


def _melds(naturals: Sequence[Card], twos: int) -> list[_Meld]:
    """The naturals of every meld the cards and ``twos`` wild twos can make (K1, KO2):
    two natural cards or more of a rank, with twos to three or four cards; natural
    cards of a suit whose span their twos can fill (a lone card with two twos or more
    included), three to thirteen long. Three twos or four alone (:data:`_TWOS_SET`) are
    a set of twos, added by the searches themselves. A meld's naturals are bits by
    each card's ``order`` (rank * 4 + suit); the melds of a rank's suits or a suit's
    ranks are worked out once (:func:`_sets`, :func:`_runs`)."""
    by_suit = [0, 0, 0, 0]
    by_rank: dict[int, int] = {}
    for c in naturals:
        o = c.order
        by_suit[o & 3] |= 1 << (o >> 2)
        by_rank[o >> 2] = by_rank.get(o >> 2, 0) | 1 << (o & 3)
    out: list[_Meld] = []
    for rank, suits in by_rank.items():
        if suits & (suits - 1):  # two suits or more
            out += _sets(rank, suits, twos)
    for suit, ranks in enumerate(by_suit):
        if ranks:
            out += _runs(suit, ranks, twos)
    return out


@cache
def _sets(rank: int, suits: int, twos: int) -> tuple[_Meld, ...]:
    """The sets of two or more of ``suits`` (bits 0-3) of ``rank``, with twos."""
    worth = VALUE_BY_ORDER[rank * 4]
    out = []
    for pick in range(3, 16):
        s = pick.bit_count()
        if pick & suits == pick and s >= 2 and s + twos >= 3:
            out.append(_Meld(pick << rank * 4, worth * s, max(0, 3 - s), 4 - s))
    return tuple(out)


@cache
def _runs(suit: int, ranks: int, twos: int) -> tuple[_Meld, ...]:
    """The runs of ``suit`` that take some of ``ranks`` (bit r for rank r) and fill the
    span between them with twos."""
    held = [r for r in range(1, 14) if ranks >> r & 1]
    out = []
    for pick in range(1, 1 << len(held)):
        chosen = [r for j, r in enumerate(held) if pick >> j & 1]
        s = len(chosen)
        least = max(3, chosen[-1] - chosen[0] + 1) - s
        if least <= twos:
            bits = sum(1 << (r * 4 + suit) for r in chosen)
            worth = sum(VALUE_BY_ORDER[r * 4] for r in chosen)
            out.append(_Meld(bits, worth, least, 13 - s))
    return tuple(out)


_TWOS_SET = _Meld(0, 0, 3, 4)


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


_Offs = tuple[int, tuple[tuple[int, Placed], ...], tuple[Combination, ...]]


class _LayOffs:
    """The lay-offs of a last turn that leave the lowest count (K8, KO5, KO10): every
    sequence of them searched, each card on every place it may go (a wild two at either
    end of a run, a natural card before or after the two that would stand for it), the
    answers kept by the cards left and the Tunker's melds as they stand, so that the
    many groupings of one hand share one search."""

    def __init__(self, table: Sequence[Combination]) -> None:
        self.memo: dict[tuple[tuple[Card, ...], tuple[Combination, ...]], _Offs] = {}
        # The suits with a run and the ranks with a set: a lay-off grows a meld, never
        # changes its suit or rank, so a natural card of neither never goes on one.
        self.runs = self.sets = 0
        for m in table:
            if m.kind == "set":
                self.sets |= 1 << m.rank
            else:
                self.runs |= 1 << m.suit

    def may_go(self, c: Card) -> bool:
        """Whether a lay-off could ever take ``c`` (a wild two goes on any meld)."""
        return c.rank == 2 or bool(self.runs >> (c.order & 3) & 1 or self.sets >> c.rank & 1)

    def best(self, cards: tuple[Card, ...], melds: tuple[Combination, ...]) -> _Offs:
        """The lowest count of ``cards`` after lay-offs on ``melds``, the lay-offs (meld
        id, card) in order, and the melds after them."""
        key = (cards, melds)
        found = self.memo.get(key)
        if found is not None:
            return found
        best: _Offs = (count(cards), (), melds)
        if best[0]:
            runs, sets = self.runs, self.sets
            for i, c in enumerate(cards):
                if c.rank != 2 and not (runs >> (c.order & 3) & 1 or sets >> c.rank & 1):
                    continue  # no meld of its suit or rank: nothing takes it
                if c in cards[:i]:
                    continue
                for sid, p in hits_for([c], melds, wild=True):
                    after = tuple(
                        hit_spread(m, p, wild=True, laws=TUNK) if m.id == sid else m for m in melds
                    )
                    n, offs, end = self.best(cards[:i] + cards[i + 1 :], after)
                    if n < best[0]:
                        best = (n, ((sid, p), *offs), end)
                        if n == 0:
                            break
                if best[0] == 0:
                    break
        self.memo[key] = best
        return best


def last_turn(hand: Sequence[Card], tunker: Sequence[Combination], lay_off: bool) -> LastTurn:
    """The last turn with the lowest count left (KO5: laying down and laying off only
    lower it): every choice of the hand's own melds (each with every number of twos it
    may take), then every sequence of lay-offs on what it leaves (:class:`_LayOffs`);
    ``lay_off`` False when the Tunker had no unmatched card (K8)."""
    g = Groupings(hand)
    options = [*g.melds, _TWOS_SET]
    best: LastTurn | None = None
    table = tuple(tunker)
    search = _LayOffs(table)
    # What no lay-off can take (:meth:`_LayOffs.may_go`) a choice leaves counts at least
    # that much: a choice whose count it cannot bring below the best found is not
    # searched (the first lowest is kept, as before).
    stuck = [
        (bit, VALUE_BY_ORDER[c.order])
        for bit, c in g.by_bit.items()
        if not (lay_off and search.may_go(c))
    ]

    def visit(rest: int, twos: int, chosen: tuple[tuple[_Meld, int], ...], after: int) -> None:
        nonlocal best
        if best is not None and best.points == 0:
            return  # nothing counts lower, and the first found is kept
        least = 0
        if best is not None:
            for bit, w in stuck:
                if rest & bit:
                    least += w
        if best is None or least < best.points:
            used = sum(j for _, j in chosen)
            spare = g.twos[used:]
            cards = tuple(
                sorted([c for bit, c in g.by_bit.items() if rest & bit] + spare, key=IN_ORDER)
            )
            n, offs, end = search.best(cards, table) if lay_off else (count(cards), (), table)
            if best is None or n < best.points:
                melds, _spare = g.laid(chosen, g.twos)
                laid = {p.card for _, p in offs}
                left = tuple(c for c in cards if c not in laid)
                best = LastTurn(tuple(melds), offs, left, n, end)
        for k in range(after, len(options)):  # each choice once: melds in the list's order
            m = options[k]
            if m.naturals & rest == m.naturals:
                for j in range(m.least, min(m.most, twos) + 1):
                    visit(rest & ~m.naturals, twos - j, (*chosen, (m, j)), k + 1)

    visit(sum(g.by_bit), len(g.twos), (), 0)
    assert best is not None
    return best


def tunker_melds(owner: int, melds: Sequence[tuple[Placed, ...]]) -> list[Combination]:
    """The Tunker's melds as the table shows them, numbered from 0."""
    try:
        return [
            make_spread(m, wild=True, owner=owner, sid=i, laws=TUNK) for i, m in enumerate(melds)
        ]
    except IllegalActionError as e:  # the search makes melds only
        raise AssertionError(f"not a meld: {e}") from None
