"""Combinations of two-player Conquián on the engine's card ids (no jokers, so no wild
cards), each pack's sequence order read from :mod:`.order`.

A card is ``(rank - 1) * 4 + suit``; a set is three or four cards of one rank (one pack:
the suits all differ); a sequence three or more cards of one suit in the pack's order:
``A 2 .. 10`` (Foster, 2-hand law 1), ``A 2 .. 7 J Q K`` (the Spanish pack, J following
7) or ``A .. K``; K-A-2 never connects (L16, CO1: the ace is low only). A combination's
cards are kept sorted by id, which within a suit is its sequence order.

>>> from .order import ORDERS
>>> from ..combinations import CARD_ID
>>> from ..cards import parse_cards
>>> def ids(text): return [CARD_ID[c] for c in parse_cards(text)]
>>> forty, spanish = ORDERS["forty"], ORDERS["spanish"]
>>> is_combination(ids("AH 2H 3H"), forty), is_combination(ids("10H AH 2H"), forty)
(True, False)
>>> is_combination(ids("6H 7H JH"), spanish), is_combination(ids("4C 4D 4S"), forty)
(True, True)
>>> seven = tuple(sorted(ids("AC 2C 3C 4C 5C 6C 7C")))
>>> [len(p) for p in pieces_after_borrow(seven, set(ids("4C")), forty)]  # two threes
[3, 3]
>>> pieces_after_borrow(seven[:6], set(ids("4C")), forty) is None  # a six does not split
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from itertools import combinations

from ..cards import Card, PackKind
from .order import ORDERS, PackOrder

# A combination on the table: (owner, is_sequence, cards sorted by id).
Combo = tuple[int, bool, tuple[int, ...]]

# The packs by the option's name, and their kinds (for the deal's check of a given pack).
KINDS = {"forty": PackKind.FORTY_FOSTER, "spanish": PackKind.FORTY_SPANISH, "full": PackKind.SINGLE}
_ORDER_OF_KIND = {kind: ORDERS[name] for name, kind in KINDS.items()}


def pack_cards(kind: PackKind) -> tuple[Card, ...]:
    """The cards of a Conquián pack, suit by suit in sequence order."""
    return _ORDER_OF_KIND[kind].cards()


def pip_value(card: Card, courts: str = "ten") -> int:
    """What a card left in the loser's hand pays under pips scoring.

    Foster's pack: face value, A 1 .. 10 (book p.55). Spanish pack: A 1 .. 7 at face
    value, J Q K 10 each (the encyclopedia's "face value" system for a Spanish pack); or,
    with ``courts="spanish"`` (C-opt-3, seed 003), the sota 10, caballo 11, rey 12; with
    ``courts="ace-fifteen"`` (seed 003, line 80), the courts 10 and the ace 15.

    >>> from ..cards import Card
    >>> [pip_value(Card.from_code(c)) for c in ("AC", "7D", "10H", "JS", "KS")]
    [1, 7, 10, 10, 10]
    >>> [pip_value(Card.from_code(c), "spanish") for c in ("7D", "JS", "QS", "KS")]
    [7, 10, 11, 12]
    >>> [pip_value(Card.from_code(c), "ace-fifteen") for c in ("AD", "7D", "JS", "KS")]
    [15, 7, 10, 10]
    """
    if courts == "spanish" and card.rank > 10:
        return card.rank - 1
    if courts == "ace-fifteen" and card.rank == 1:
        return 15  # seed 003, line 80: the French pack without 8, 9, 10
    return min(card.rank, 10)


def is_sequence(cards: Sequence[int], order: PackOrder) -> bool:
    """Three or more cards of one suit in unbroken order (cards given sorted)."""
    if len(cards) < 3:
        return False
    suit = cards[0] & 3
    place = order.place
    return (
        all(c & 3 == suit for c in cards)
        and place[cards[0]] >= 0
        and place[cards[-1]] - place[cards[0]] == len(cards) - 1
    )


def is_set(cards: Sequence[int]) -> bool:
    """Three or four cards of one rank (one pack: the suits all differ)."""
    return 3 <= len(cards) <= 4 and len({c >> 2 for c in cards}) == 1


def is_combination(cards: Iterable[int], order: PackOrder) -> bool:
    s = sorted(cards)
    return is_sequence(s, order) or is_set(s)


def fits(card: int, combo: Combo, order: PackOrder, cap: int = 0) -> bool:
    """Whether ``card`` can be added to ``combo``: the fourth of a set, or next at an end
    of a sequence not yet ``cap`` long (0: no cap; C-opt-5 sets eight)."""
    _, is_seq, cs = combo
    if not is_seq:
        return len(cs) < 4 and card >> 2 == cs[0] >> 2
    if cap and len(cs) >= cap:
        return False
    return order.up[cs[-1]] == card or order.down[cs[0]] == card


def pieces_after_borrow(
    cards: tuple[int, ...], removed: Collection[int], order: PackOrder
) -> list[tuple[int, ...]] | None:
    """What is left of a sequence after borrowing ``removed``, split where it broke; None
    when a piece would have fewer than three cards or nothing would be left (book p.54)."""
    rest = [c for c in cards if c not in removed]
    if not rest:
        return None
    up = order.up
    pieces: list[tuple[int, ...]] = []
    start = 0
    for i in range(1, len(rest) + 1):
        if i == len(rest) or rest[i] != up[rest[i - 1]]:
            if i - start < 3:
                return None
            pieces.append(tuple(rest[start:i]))
            start = i
    return pieces


def borrow_ok(
    borrowed: Sequence[int], where: Sequence[int], combos: dict[int, Combo], order: PackOrder
) -> bool:
    """Every combination borrowed from keeps complete combinations (book p.53-54)."""
    if not borrowed:
        return True
    by_combo: dict[int, list[int]] = {}
    for c in borrowed:
        by_combo.setdefault(where[c], []).append(c)
    for cid, cards in by_combo.items():
        _, is_seq, cs = combos[cid]
        if is_seq:
            if pieces_after_borrow(cs, cards, order) is None:
                return False
        elif len(cs) - len(cards) < 3:
            return False
    return True


def new_combinations(
    hand: Collection[int],
    own: Collection[int],
    where: Sequence[int],
    combos: dict[int, Combo],
    card: int | None,
    order: PackOrder,
    cap: int = 0,
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every new combination a player can lay down, as (hand cards, borrowed cards).

    With ``card`` (the card in play) each combination contains it; without, each contains
    at least one hand card. ``own`` is the set of cards in the player's own combinations
    (the only ones he may borrow, book p.54); ``where`` maps a laid card to its combination.
    A sequence is at most ``cap`` cards long (0: no cap; C-opt-5 sets eight).
    """
    longest = cap or len(order.ranks)
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    held = set(hand)
    pool = held.union(own)
    avail = pool.__contains__
    up, down = order.up, order.down
    if card is not None:
        # Most cards in play make nothing: fewer than two others of the rank at hand or
        # laid, and no run of three through the card (one look, before the search).
        r4 = card & ~3
        if (
            avail(r4) + avail(r4 + 1) + avail(r4 + 2) + avail(r4 + 3) - avail(card) < 2
            and not (avail(d := down[card]) and (avail(down[d]) or avail(up[card])))
            and not (avail(u := up[card]) and avail(up[u]))
        ):
            return out

    def emit(cards: Sequence[int]) -> None:
        h = tuple(x for x in cards if x in held)
        b = tuple(x for x in cards if x in own)
        if card is None and not h:
            return
        if borrow_ok(b, where, combos, order):
            out.append((h, b))

    # Without a card in play, only a rank or a suit of a hand card with three cards or
    # more at hand or in own combinations makes one: the others are not looked at.
    by_rank, by_suit = [0] * 13, [0, 0, 0, 0]  # by_suit: the suit's cards as bits by place
    if card is None:
        place = order.place
        for x in pool:
            by_rank[x >> 2] += 1
            by_suit[x & 3] |= 1 << place[x]
    # sets
    if card is not None:
        ranks = [card >> 2]
    else:
        ranks = sorted({r for x in held if by_rank[r := x >> 2] >= 3})
    for r in ranks:
        others = [r * 4 + s for s in range(4) if r * 4 + s != card and avail(r * 4 + s)]
        need = 2 if card is not None else 3
        for k in range(need, len(others) + 1):
            for sub in combinations(others, k):
                emit(sub)
    # sequences
    if card is not None:
        run = [card]
        x = down[card]
        while x >= 0 and avail(x):
            run.insert(0, x)
            x = down[x]
        at = len(run) - 1  # the card's place in the run
        x = up[card]
        while x >= 0 and avail(x):
            run.append(x)
            x = up[x]
        for a in range(at + 1):
            for b in range(max(at, a + 2), min(len(run) - 1, a + longest - 1) + 1):
                emit([x for x in run[a : b + 1] if x != card])
    else:
        # a suit with three in a row of its sequence order at hand or laid (one look)
        for suit in sorted({u for x in held if (m := by_suit[u := x & 3]) & (m >> 1) & (m >> 2)}):
            run = []
            for x in (*order.suits[suit], -1):
                if x >= 0 and avail(x):
                    run.append(x)
                    continue
                n = len(run)
                for i in range(n - 2):
                    for j in range(i + 3, min(n, i + longest) + 1):
                        emit(run[i:j])
                run = []
    return out
