"""Combinations of two-player Conquián on small integers (no jokers, so no wild cards).

A card of a 40-card pack is ``suit * 10 + order``: suit 0..3 is C D H S and order 0..9
is its place in the sequence order of the pack: ``A 2 .. 10`` (Foster, 2-hand law 1) or
``A 2 .. 7 J Q K`` (the Spanish pack, J following 7). So a sequence is a run of
consecutive integers in one suit, and K-A-2 (order 9 then 0) never connects (L16: the ace
is low only, there being nothing above it in either pack).

>>> is_combination([20, 21, 22]), is_combination([29, 20, 21]), is_combination([3, 13, 33])
(True, False, True)
>>> pieces_after_borrow((0, 1, 2, 3, 4, 5, 6), {3})  # middle of a seven leaves two threes
[(0, 1, 2), (4, 5, 6)]
>>> pieces_after_borrow((0, 1, 2, 3, 4, 5), {3}) is None  # the middle of a six does not
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from itertools import combinations

from ..cards import SUITS, Card, PackKind, make_pack

# A combination on the table: (owner, is_sequence, cards in order).
Combo = tuple[int, bool, tuple[int, ...]]

_SPANISH_RANKS = (1, 2, 3, 4, 5, 6, 7, 11, 12, 13)
_FORTY_RANKS = tuple(range(1, 11))


def pack_cards(kind: PackKind) -> tuple[Card, ...]:
    """The 40 cards indexed by integer (``suit * 10 + order``)."""
    ranks = _SPANISH_RANKS if kind is PackKind.FORTY_SPANISH else _FORTY_RANKS
    by_code = {c.code: c for c in make_pack(kind)}
    out = []
    for s in SUITS:
        for r in ranks:
            out.append(by_code[Card(r, s).code])
    return tuple(out)


# The packs by the option's name, and each card's place in its pack (Conquián's deal,
# its snapshot and a state built from a view read them).
_KINDS = {"forty": PackKind.FORTY_FOSTER, "spanish": PackKind.FORTY_SPANISH}
_CARDS = {k: pack_cards(k) for k in _KINDS.values()}
_INDEX = {k: {c: i for i, c in enumerate(cs)} for k, cs in _CARDS.items()}


def pip_value(card: Card, courts: str = "ten") -> int:
    """What a card left in the loser's hand pays under pips scoring.

    Foster's pack: face value, A 1 .. 10 (book p.55). Spanish pack: A 1 .. 7 at face
    value, J Q K 10 each (the encyclopedia's "face value" system for a Spanish pack); or,
    with ``courts="spanish"`` (C-opt-3, seed 003), the sota 10, caballo 11, rey 12.

    >>> from ..cards import Card
    >>> [pip_value(Card.from_code(c)) for c in ("AC", "7D", "10H", "JS", "KS")]
    [1, 7, 10, 10, 10]
    >>> [pip_value(Card.from_code(c), "spanish") for c in ("7D", "JS", "QS", "KS")]
    [7, 10, 11, 12]
    """
    if courts == "spanish" and card.rank > 10:
        return card.rank - 1
    return min(card.rank, 10)


def is_sequence(cards: Sequence[int]) -> bool:
    """Three or more cards of one suit in unbroken order (cards given sorted)."""
    if len(cards) < 3:
        return False
    suit = cards[0] // 10
    return all(c // 10 == suit for c in cards) and cards[-1] - cards[0] == len(cards) - 1


def is_set(cards: Sequence[int]) -> bool:
    """Three or four cards of one rank (one pack: the suits all differ)."""
    return 3 <= len(cards) <= 4 and len({c % 10 for c in cards}) == 1


def is_combination(cards: Iterable[int]) -> bool:
    s = sorted(cards)
    return is_sequence(s) or is_set(s)


def fits(card: int, combo: Combo, cap: int = 0) -> bool:
    """Whether ``card`` can be added to ``combo``: the fourth of a set, or next at an end
    of a sequence not yet ``cap`` long (0: no cap; C-opt-5 sets eight)."""
    _, is_seq, cs = combo
    if not is_seq:
        return len(cs) < 4 and card % 10 == cs[0] % 10
    if card // 10 != cs[0] // 10 or (cap and len(cs) >= cap):
        return False
    return (card == cs[0] - 1 and cs[0] % 10 != 0) or (card == cs[-1] + 1 and cs[-1] % 10 != 9)


def pieces_after_borrow(
    cards: tuple[int, ...], removed: Collection[int]
) -> list[tuple[int, ...]] | None:
    """What is left of a sequence after borrowing ``removed``, split where it broke; None
    when a piece would have fewer than three cards or nothing would be left (book p.54)."""
    rest = [c for c in cards if c not in removed]
    if not rest:
        return None
    pieces: list[tuple[int, ...]] = []
    start = 0
    for i in range(1, len(rest) + 1):
        if i == len(rest) or rest[i] != rest[i - 1] + 1:
            if i - start < 3:
                return None
            pieces.append(tuple(rest[start:i]))
            start = i
    return pieces


def borrow_ok(borrowed: Sequence[int], where: Sequence[int], combos: dict[int, Combo]) -> bool:
    """Every combination borrowed from keeps complete combinations (book p.53-54)."""
    if not borrowed:
        return True
    by_combo: dict[int, list[int]] = {}
    for c in borrowed:
        by_combo.setdefault(where[c], []).append(c)
    for cid, cards in by_combo.items():
        _, is_seq, cs = combos[cid]
        if is_seq:
            if pieces_after_borrow(cs, cards) is None:
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
    cap: int = 0,
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every new combination a player can lay down, as (hand cards, borrowed cards).

    With ``card`` (the card in play) each combination contains it; without, each contains
    at least one hand card. ``own`` is the set of cards in the player's own combinations
    (the only ones he may borrow, book p.54); ``where`` maps a laid card to its combination.
    A sequence is at most ``cap`` cards long (0: no cap; C-opt-5 sets eight).
    """
    longest = cap or 10
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def avail(x: int) -> bool:
        return x in hand or x in own

    def emit(cards: Sequence[int]) -> None:
        h = tuple(x for x in cards if x in hand)
        b = tuple(x for x in cards if x in own)
        if card is None and not h:
            return
        if borrow_ok(b, where, combos):
            out.append((h, b))

    # sets
    orders = [card % 10] if card is not None else sorted({x % 10 for x in hand})
    for r in orders:
        others = [s * 10 + r for s in range(4) if s * 10 + r != card and avail(s * 10 + r)]
        need = 2 if card is not None else 3
        for k in range(need, len(others) + 1):
            for sub in combinations(others, k):
                emit(sub)
    # sequences
    if card is not None:
        lo = hi = card
        while lo % 10 != 0 and avail(lo - 1):
            lo -= 1
        while hi % 10 != 9 and avail(hi + 1):
            hi += 1
        for a in range(lo, card + 1):
            for b in range(max(card, a + 2), min(hi, a + longest - 1) + 1):
                emit([x for x in range(a, b + 1) if x != card])
    else:
        for suit in sorted({x // 10 for x in hand}):
            base = suit * 10
            run: list[int] = []
            for x in range(base, base + 11):
                if x < base + 10 and avail(x):
                    run.append(x)
                    continue
                n = len(run)
                for i in range(n - 2):
                    for j in range(i + 3, min(n, i + longest) + 1):
                        emit(run[i:j])
                run = []
    return out
