"""The layouts' caches (issue 58's bench) answer exactly as a fresh enumeration (L15-L17).

``generate.layouts`` keeps each suit's sequences and each rank's sets by what they depend
on. A key that missed an input (the hand's size, the wild cards held, the pack's order,
the seat) would hand one hand's layouts to another: here random hands of every wild mode,
pack order and size are asked with the caches warm from other hands, and answered as with
the caches empty, action for action and in the same order.
"""

from __future__ import annotations

import random

import pytest

from games.engine.combinations import FULL_ORDER, JOKER_ID, SeqOrder, wild_id
from games.engine.rummy import generate
from games.engine.rummy.moves import Layout
from tests.scale import scaled

SPANISH = SeqOrder((1, 2, 3, 4, 5, 6, 7, 11, 12, 13))
NO_COURTS = SeqOrder(tuple(range(1, 11)))


def fresh(seat: int, cnt: list[int], size: int, wild: str, order: SeqOrder) -> list[Layout]:
    generate._SUIT_CACHE.clear()
    generate._SET_CACHE.clear()
    return generate.layouts(seat, cnt, size, wild, order)


def random_hand(rng: random.Random, wild: str, order: SeqOrder) -> tuple[list[int], int]:
    """A hand's counts (two packs: up to two of a card) and its size."""
    ids = [(r - 1) * 4 + s for r in order.ranks for s in range(4)]
    cnt = [0] * 53
    for cid in rng.sample(ids * 2, rng.randint(1, 14)):
        cnt[cid] += 1
    if wild == "jokers":
        cnt[JOKER_ID] = rng.choice((0, 0, 1, 2))
    return cnt, sum(cnt)


@pytest.mark.parametrize("wild", ["none", "jokers", "spade-twos"])
@pytest.mark.parametrize(
    "order", [FULL_ORDER, SPANISH, NO_COURTS], ids=["full", "spanish", "forty"]
)
def test_cached_layouts_are_a_fresh_enumerations(wild: str, order: SeqOrder) -> None:
    rng = random.Random(f"{wild}-{order.ranks}")
    hands = []
    for _ in range(scaled(400)):
        cnt, size = random_hand(rng, wild, order)
        seat = rng.randrange(3)
        hands.append((seat, cnt, size, fresh(seat, cnt, size, wild, order)))
    # The caches warm from every hand; then each hand asked again, for another seat, and
    # as a smaller hand (a size the key must tell apart: no run longer than the hand).
    for seat, cnt, size, _ in hands:
        generate.layouts(seat, cnt, size, wild, order)
    for seat, cnt, size, expected in hands:
        assert generate.layouts(seat, cnt, size, wild, order) == expected
        other = (seat + 1) % 3
        assert [a.seat for a in generate.layouts(other, cnt, size, wild, order)] == [other] * len(
            expected
        )
        assert generate.layouts(seat, cnt, 3, wild, order) == fresh(seat, cnt, 3, wild, order)


def test_the_same_suit_in_another_packs_order_is_enumerated_in_its_own() -> None:
    """5H 6H 7H JH: a sequence of four in the Spanish pack (the jack after the 7), of three
    in the full pack; asked one after the other, each keeps its own (CL-opt-1)."""
    cnt = [0] * 53
    for rank in (5, 6, 7, 11):
        cnt[(rank - 1) * 4 + 2] += 1
    full = [a.text for a in generate.layouts(0, cnt, 4, "none", FULL_ORDER)]
    spanish = [a.text for a in generate.layouts(0, cnt, 4, "none", SPANISH)]
    assert full == ["0 layout 5H 6H 7H"]
    assert "0 layout 5H 6H 7H JH" in spanish and "0 layout 6H 7H JH" in spanish


def enumerated(seat: int, cnt: list[int], size: int, wild: str, order: SeqOrder) -> list[Layout]:
    """The layouts found by asking every suit with three cards (wild ones counted) for its
    sequences and every rank for its sets: no quick skip, no cache."""
    wid = wild_id(wild)
    w_all = cnt[wid] if wid >= 0 else 0
    bits = order.pos_bits()
    out: list[Layout] = []
    for s in range(4):
        mask = 0
        for cid in range(s, 52, 4):
            if cnt[cid]:
                mask |= bits[cid]
        if mask.bit_count() + w_all >= 3:
            out += generate._suit_layouts(seat, s, mask, w_all, min(size, 16), wild, order)
    for r in range(13):
        held = sum(cnt[r * 4 : r * 4 + 4])
        if held and held + w_all >= 3:
            generate._sets(seat, r + 1, cnt, w_all, wild, wid, out)
    return out


@pytest.mark.parametrize("wild", ["none", "jokers", "spade-twos"])
@pytest.mark.parametrize(
    "order", [FULL_ORDER, SPANISH, NO_COURTS], ids=["full", "spanish", "forty"]
)
def test_the_quick_skips_leave_out_only_suits_without_a_sequence(
    wild: str, order: SeqOrder
) -> None:
    """A suit is skipped at once when no sequence can be made of it: with no wild card held,
    no three positions in a row; with one, no two positions side by side or one apart
    (L15, L16: the ace low or high). Random hands answer as the full enumeration does."""
    rng = random.Random(f"skip-{wild}-{order.ranks}")
    for _ in range(scaled(600)):
        cnt, size = random_hand(rng, wild, order)
        if wild == "spade-twos" and rng.random() < 0.5:
            cnt[7] = rng.choice((1, 2))  # the 2S: a natural two and a wild card
            size = sum(cnt)
        got = fresh(0, cnt, size, wild, order)
        assert sorted(a.text for a in got) == sorted(
            a.text for a in enumerated(0, cnt, size, wild, order)
        )
