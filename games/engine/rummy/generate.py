"""Fast enumeration of the layouts, additions and joker moves open to a hand.

Works on card-id counts (see :mod:`..combinations`) and interns the action objects,
because bots call ``legal_actions`` many thousands of times a second. Every function
returns *canonical* actions (sequences low to high, a set's wild cards shown as a free
suit), one per meaningful choice: duplicate cards of a double pack give one action.

>>> from ..combinations import CARD_ID
>>> from ..cards import parse_cards
>>> cnt = [0] * 53
>>> for c in parse_cards("7H 8H 9H 9S 9C"):
...     cnt[CARD_ID[c]] += 1
>>> sorted(a.text for a in layouts(0, cnt, 5, "jokers"))
['0 layout 7H 8H 9H', '0 layout 9C 9H 9S']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress

from ..combinations import (
    FULL_ORDER,
    SUIT_INDEX,
    Combination,
    SeqOrder,
    cid_at,
    placed,
    set_free_suit,
    wild_id,
)
from .moves import Add, Layout, MoveJoker

_CACHE: dict[tuple[object, ...], object] = {}
_CACHE_LIMIT = 500_000
_NATURALS = range(52)


def _layout(seat: int, key: tuple[tuple[int, int], ...]) -> Layout:
    k = ("L", seat, key)
    a = _CACHE.get(k)
    if a is None:
        if len(_CACHE) > _CACHE_LIMIT:
            _CACHE.clear()
        a = _CACHE[k] = Layout(seat, tuple(placed(p, n) for p, n in key))
    return a  # type: ignore[return-value]


def _add(seat: int, combo: int, phys: int, named: int, end: str | None, move: bool) -> Add:
    k = ("M" if move else "A", seat, combo, phys, named, end)
    a = _CACHE.get(k)
    if a is None:
        if len(_CACHE) > _CACHE_LIMIT:
            _CACHE.clear()
        cls = MoveJoker if move else Add
        a = _CACHE[k] = cls(seat, combo, placed(phys, named), end)
    return a  # type: ignore[return-value]


def _spade_two_natural(wild: str, suit: int, pos: int) -> bool:
    """With spade twos wild, a 2S in the two's place of a spade sequence is natural."""
    return wild == "spade-twos" and suit == 3 and pos == 2


# Sequence-position bits of each natural card id: bit p for position p (ace: 1 and 14).
_POS_BITS = [((1 << (cid // 4 + 1)) | (1 << 14 if cid < 4 else 0)) for cid in range(52)]


def _order_bits(order: SeqOrder) -> list[int]:
    bits = _BITS.get(order)
    if bits is None:
        bits = _BITS[order] = order.pos_bits()
    return bits


_BITS: dict[SeqOrder, list[int]] = {FULL_ORDER: _POS_BITS}


# The layouts of one suit's sequences and of one rank's sets, kept by what they depend on
# (issue 58's bench): a hand changes one or two cards a turn, so most of its suits and
# ranks were enumerated before. The keys hold every input of the enumeration; the lists
# are the same actions in the same order as enumerating anew.
_SUIT_CACHE: dict[tuple[object, ...], tuple[Layout, ...]] = {}
_SET_CACHE: dict[tuple[object, ...], tuple[Layout, ...]] = {}


def layouts(
    seat: int, cnt: Sequence[int], size: int, wild: str, order: SeqOrder = FULL_ORDER
) -> list[Layout]:
    """Every layout of one combination from a hand (L15-L17)."""
    out: list[Layout] = []
    wid = wild_id(wild)
    w_all = cnt[wid] if wid >= 0 else 0
    masks = [0, 0, 0, 0]
    by_rank: dict[int, int] = {}
    pos_bits = _POS_BITS if order is FULL_ORDER else _order_bits(order)
    for cid in compress(_NATURALS, cnt):  # the naturals held (C's loop, not ours)
        masks[cid & 3] |= pos_bits[cid]
        r = cid >> 2
        by_rank[r] = by_rank.get(r, 0) + cnt[cid]
    cap = size if size < 16 else 16  # no sequence is longer than 15
    suits = _SUIT_CACHE
    for s in range(4):
        mask = masks[s]
        if w_all == 0:
            if not mask & mask >> 1 & mask >> 2:
                continue  # no three in a row
        elif w_all == 1:
            if not (mask & mask >> 1 or mask & mask >> 2):
                continue  # no two a joker can join
        elif mask.bit_count() + w_all < 3:
            continue
        found = suits.get(key := (seat, s, mask, w_all, cap, wild, order.ranks))
        if found is None:
            if len(suits) > _CACHE_LIMIT:
                suits.clear()
            found = suits[key] = tuple(_suit_layouts(seat, s, mask, w_all, cap, wild, order))
        out.extend(found)
    sets = _SET_CACHE
    for r, n in by_rank.items():
        if n + w_all >= 3:
            base = r * 4
            counts = (cnt[base], cnt[base + 1], cnt[base + 2], cnt[base + 3])
            found = sets.get(key_set := (seat, r, counts, w_all, wild))
            if found is None:
                if len(sets) > _CACHE_LIMIT:
                    sets.clear()
                lays: list[Layout] = []
                _sets(seat, r + 1, cnt, w_all, wild, wild_id(wild), lays)
                found = sets[key_set] = tuple(lays)
            out.extend(found)
    return out


def _suit_layouts(
    seat: int, s: int, mask: int, w_all: int, size: int, wild: str, order: SeqOrder
) -> list[Layout]:
    """The sequences of suit ``s`` whose positions held are the bits of ``mask``."""
    out: list[Layout] = []
    wid = wild_id(wild)
    at = cid_at if order is FULL_ORDER else order.cid_at
    top = order.top
    avail = [bool(mask >> p & 1) for p in range(16)]
    for lo in range(1, top):
        missing = 0
        for hi in range(lo, top + 2):
            if not avail[hi]:
                missing += 1
                if missing > w_all:
                    break
            length = hi - lo + 1
            if length > size:
                break
            if length >= 3 and missing < length:
                _seq_windows(seat, s, lo, hi, avail, w_all, wild, wid, out, at)
    return out


def _seq_windows(
    seat: int, s: int, lo: int, hi: int, avail: list[bool], w_all: int, wild: str, wid: int,
    out: list[Layout], cid_at: Callable[[int, int], int] = cid_at,
) -> None:  # fmt: skip
    budget = w_all
    fixed_two = lo <= 2 <= hi and _spade_two_natural(wild, s, 2)
    if fixed_two:
        if not avail[2]:
            return
        budget -= 1  # the 2S stands as itself and is one of the wild cards
    missing = [p for p in range(lo, hi + 1) if not avail[p]]
    if len(missing) > budget:
        return
    extra = budget - len(missing)
    if extra <= 0 and not missing:
        out.append(_layout(seat, tuple((c, c) for c in (cid_at(s, p) for p in range(lo, hi + 1)))))
        return
    free = [p for p in range(lo, hi + 1) if avail[p] and not (fixed_two and p == 2)]
    choices: list[tuple[int, ...]] = [()]
    if extra >= 1:
        choices += [(p,) for p in free]
    if extra >= 2:
        choices += [(p, q) for i, p in enumerate(free) for q in free[i + 1 :]]
    for extra_jokers in choices:
        jokers = set(missing).union(extra_jokers)
        if len(jokers) >= hi - lo + 1:
            continue
        key = tuple(
            (wid, cid_at(s, p)) if p in jokers else (cid_at(s, p), cid_at(s, p))
            for p in range(lo, hi + 1)
        )
        out.append(_layout(seat, key))


def _sets(
    seat: int, r: int, cnt: Sequence[int], w_all: int, wild: str, wid: int, out: list[Layout]
) -> None:
    base = (r - 1) * 4
    counts = [cnt[base + s] for s in range(4)]
    w = w_all
    if wild == "spade-twos" and r == 2:
        w = 0  # a 2S in a set of twos is just a two
    if sum(counts) + w < 3 or sum(counts) == 0:
        return
    for a0 in range(counts[0] + 1):
        for a1 in range(counts[1] + 1):
            for a2 in range(counts[2] + 1):
                for a3 in range(counts[3] + 1):
                    n = a0 + a1 + a2 + a3
                    if n == 0:
                        continue
                    nat: list[tuple[int, int]] = []
                    mask = 0
                    for s, a in enumerate((a0, a1, a2, a3)):
                        if a:
                            mask |= 1 << s
                            nat.extend([(base + s, base + s)] * a)
                    for k in range(max(0, 3 - n), w + 1):
                        key = list(nat)
                        m = mask
                        for _ in range(k):
                            fs = set_free_suit(m)
                            m |= 1 << fs
                            key.append((wid, base + fs))
                        out.append(_layout(seat, tuple(key)))


def additions(
    seat: int,
    cnt: Sequence[int],
    wild: str,
    combos: Sequence[Combination],
    order: SeqOrder = FULL_ORDER,
) -> list[Add]:
    """Every single card that can be added to a combination on the table (L15, L19)."""
    out: list[Add] = []
    at, top = (cid_at if order is FULL_ORDER else order.cid_at), order.top
    wid = wild_id(wild)
    has_wild = wid >= 0 and cnt[wid] > 0
    for c in combos:
        if c.kind == "set":
            base = (c.rank - 1) * 4
            for s in range(4):
                if cnt[base + s]:
                    out.append(_add(seat, c.id, base + s, base + s, None, False))
            if has_wild and not (wild == "spade-twos" and c.rank == 2):
                mask = 0
                for t in c.cards:
                    assert t.named.suit is not None
                    mask |= 1 << SUIT_INDEX[t.named.suit]
                fs = set_free_suit(mask)
                out.append(_add(seat, c.id, wid, base + fs, None, False))
            continue
        s, lo, hi = c.suit, c.lo, c.hi
        ambiguous = lo == 2 and hi == top  # an ace fits either end
        for pos, end in ((lo - 1, "low"), (hi + 1, "high")):
            if not 1 <= pos <= top + 1:
                continue
            target = at(s, pos)
            e = end if ambiguous else None
            if cnt[target]:
                out.append(_add(seat, c.id, target, target, e, False))
            if has_wild and not _spade_two_natural(wild, s, pos):
                out.append(_add(seat, c.id, wid, target, e, False))
    return out


JokerOption = tuple[int, int, str, str, int]  # phys, named, landing end, joker end, pos


def joker_options(c: Combination, cnt: Sequence[int], wild: str) -> list[JokerOption]:
    """L18 choices on one sequence: an uncrossed end joker moves to the other end and a
    card from the hand goes where it was, or just beyond its new place."""
    wid = wild_id(wild)
    if wid < 0 or c.kind != "sequence":
        return []
    has_wild = cnt[wid] > 0
    s, lo, hi = c.suit, c.lo, c.hi
    opts: list[JokerOption] = []
    first, last = c.cards[0], c.cards[-1]
    ends: list[tuple[str, tuple[tuple[int, str], ...]]] = []
    if first.card != first.named and not first.crossways and hi + 1 <= 14:
        ends.append(("low", ((lo, "low"), (hi + 2, "high"))))
    if last.card != last.named and not last.crossways and lo - 1 >= 1:
        ends.append(("high", ((hi, "high"), (lo - 2, "low"))))
    for jend, fits in ends:
        for pos, land in fits:
            if not 1 <= pos <= 14:
                continue
            target = cid_at(s, pos)
            if cnt[target]:
                opts.append((target, target, land, jend, pos))
            if has_wild and not _spade_two_natural(wild, s, pos):
                opts.append((wid, target, land, jend, pos))
    return opts


def joker_moves(
    seat: int, cnt: Sequence[int], wild: str, combos: Sequence[Combination]
) -> list[MoveJoker]:
    """Every L18 joker move open to the hand (``end`` only where the card is ambiguous)."""
    out: list[MoveJoker] = []
    if wild_id(wild) < 0:
        return out
    for c in combos:
        # Most combinations have no joker free to move at an end: skip them before
        # listing (a fifth of a seven-hand deal's listing was spent finding none).
        if c.kind != "sequence":
            continue
        first, last = c.cards[0], c.cards[-1]
        # (``is`` first: a natural card names itself, the same object, and comparing
        # two cards field by field is dear at this rate)
        if (first.crossways or first.card is first.named or first.card == first.named) and (
            last.crossways or last.card is last.named or last.card == last.named
        ):
            continue
        opts = joker_options(c, cnt, wild)
        if not opts:
            continue
        seen: dict[tuple[int, int], int] = {}
        for p, n, *_ in opts:
            seen[(p, n)] = seen.get((p, n), 0) + 1
        for p, n, land, _, _ in opts:
            out.append(_add(seat, c.id, p, n, land if seen[(p, n)] > 1 else None, True))  # type: ignore[arg-type]
    return out
