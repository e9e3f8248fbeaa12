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

from games.engine.combinations import FULL_ORDER, JOKER_ID, SeqOrder
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
