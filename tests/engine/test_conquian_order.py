"""Conquián's cards on the engine's numbering with each pack's sequence order (issue 58,
the first step of the move off the private numbering): it agrees card for card with the
private numbering of ``conquian/melds.py`` in both forty-card packs, and orders the full
52 with the ace low only (CO1)."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import PackKind
from games.engine.combinations import CARD_ID, CARDS
from games.engine.conquian.melds import _CARDS, _INDEX, is_sequence
from games.engine.conquian.order import ORDERS

KINDS = {"forty": PackKind.FORTY_FOSTER, "spanish": PackKind.FORTY_SPANISH}


@pytest.mark.parametrize("pack", sorted(KINDS))
def test_the_numberings_agree_card_for_card_in_the_forty_card_packs(pack: str) -> None:
    order, kind = ORDERS[pack], KINDS[pack]
    assert {CARDS[c] for c in order.ids()} == set(_CARDS[kind]) and len(order.ids()) == 40
    for card, number in _INDEX[kind].items():
        cid = CARD_ID[card]
        assert order.private(cid) == number and order.from_private(number) == cid
        above = number + 1 if number % 10 != 9 else None
        below = number - 1 if number % 10 != 0 else None
        assert order.above(cid) == (None if above is None else order.from_private(above))
        assert order.below(cid) == (None if below is None else order.from_private(below))


@pytest.mark.parametrize("pack", sorted(KINDS))
def test_sequences_are_the_same_cards_on_either_numbering(pack: str) -> None:
    order, kind = ORDERS[pack], KINDS[pack]
    rng = random.Random(58)
    numbers = list(_INDEX[kind].values())
    found = 0
    for _ in range(3000):
        suit = rng.randrange(4)
        start, size = rng.randrange(10), rng.randint(1, 5)
        picked = [n for n in numbers if n // 10 == suit and start <= n % 10 < start + size]
        if rng.random() < 0.3:
            picked.append(rng.choice(numbers))
        picked = sorted(set(picked))
        want = is_sequence(picked)
        assert order.is_sequence([order.from_private(n) for n in reversed(picked)]) == want
        found += want
    assert found > 500


def test_the_full_pack_runs_ace_to_king_the_ace_low_only() -> None:
    full = ORDERS["full"]
    assert len(full.ids()) == 52 and len(set(full.ids())) == 52
    ace, king = CARD_ID[CARDS[0]], CARD_ID[CARDS[48]]  # AC, KC
    assert full.below(ace) is None and full.above(king) is None  # CO1: no K-A-2
    assert full.is_sequence([CARD_ID[CARDS[i * 4]] for i in (10, 11, 12)])  # JC QC KC
    assert not full.is_sequence([CARD_ID[CARDS[i * 4]] for i in (11, 12, 0)])  # QC KC AC
    six_seven_jack = [CARD_ID[CARDS[(r - 1) * 4]] for r in (6, 7, 11)]  # 6C 7C JC
    assert ORDERS["spanish"].is_sequence(six_seven_jack) and not full.is_sequence(six_seven_jack)
    with pytest.raises(ValueError):
        ORDERS["forty"].from_private(4 * 10)
