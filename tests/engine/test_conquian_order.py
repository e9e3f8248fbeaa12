"""Conquián's cards on the engine's numbering with each pack's sequence order (issue 58):
each pack's suits run in the order its source gives, the ace low only (CO1), and the
rules' sequences (``conquian/melds.py``) are the cards consecutive in that order."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import Card, PackKind, make_pack
from games.engine.combinations import CARD_ID, CARDS
from games.engine.conquian.melds import is_combination, is_sequence, pack_cards
from games.engine.conquian.order import ORDERS, by_suit

# Each pack's ranks in a suit's sequence order, as the sources spell them.
SOURCES = {
    "forty": "A 2 3 4 5 6 7 8 9 10",  # Foster, 2-hand law 1
    "spanish": "A 2 3 4 5 6 7 J Q K",  # the encyclopedia: the jack follows the seven
    "full": "A 2 3 4 5 6 7 8 9 10 J Q K",  # variant 3 (full pack), the ace low (CO1)
}
KINDS = {"forty": PackKind.FORTY_FOSTER, "spanish": PackKind.FORTY_SPANISH}


def run_of(pack: str, suit: str) -> list[int]:
    return [CARD_ID[Card.from_code(r + suit)] for r in SOURCES[pack].split()]


@pytest.mark.parametrize("pack", sorted(SOURCES))
def test_each_suit_runs_in_the_sources_order_the_ace_low_only(pack: str) -> None:
    order = ORDERS[pack]
    assert len(order.ids()) == len(set(order.ids())) == 4 * len(SOURCES[pack].split())
    for suit in "CDHS":
        run = run_of(pack, suit)
        assert run == sorted(run)  # so a suit's cards sorted by id are in sequence order
        for i, cid in enumerate(run):
            assert order.place[cid] == i
            assert order.above(cid) == (run[i + 1] if i + 1 < len(run) else None)
            assert order.below(cid) == (run[i - 1] if i else None)
    if pack in KINDS:
        assert set(pack_cards(KINDS[pack])) == set(make_pack(KINDS[pack]))


@pytest.mark.parametrize("pack", sorted(SOURCES))
def test_a_sequence_is_three_or_more_cards_consecutive_in_the_packs_order(pack: str) -> None:
    order, rng, found = ORDERS[pack], random.Random(58), 0
    runs = {s: run_of(pack, s) for s in "CDHS"}
    for _ in range(3000):
        run = runs[rng.choice("CDHS")]
        start, size = rng.randrange(len(run)), rng.randint(1, 5)
        picked = set(run[start : start + size])
        if rng.random() < 0.3:
            picked.add(rng.choice(order.ids()))
        cards = sorted(picked)
        in_one_suit = len({CARDS[c].suit for c in cards}) == 1
        places = sorted(order.place[c] for c in cards)
        want = len(cards) >= 3 and in_one_suit and places[-1] - places[0] == len(cards) - 1
        assert is_sequence(cards, order) == order.is_sequence(cards[::-1]) == want, cards
        found += want
    assert found > 500


def test_no_sequence_turns_the_corner_or_leaves_the_pack() -> None:
    def ids(text: str) -> list[int]:
        return sorted(CARD_ID[Card.from_code(c)] for c in text.split())

    full, spanish, forty = ORDERS["full"], ORDERS["spanish"], ORDERS["forty"]
    assert is_combination(ids("JC QC KC"), full) and not is_combination(ids("QC KC AC"), full)
    assert is_combination(ids("6C 7C JC"), spanish) and not is_combination(ids("6C 7C JC"), full)
    assert not is_combination(ids("8C 9C 10C"), spanish)  # not in the Spanish pack
    assert not is_combination(ids("9C 10C JC"), forty)  # nor the jack in Foster's
    assert is_combination(ids("KC KD KS"), full)


def test_a_hand_is_held_suit_by_suit_each_in_sequence_order() -> None:
    hand = [CARD_ID[Card.from_code(c)] for c in ["KS", "2H", "AC", "JC", "7D", "7C"]]
    assert [CARDS[c].code for c in sorted(hand, key=by_suit)] == [
        "AC",
        "7C",
        "JC",
        "7D",
        "2H",
        "KS",
    ]
