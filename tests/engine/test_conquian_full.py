"""Conquián with the full 52-card pack (issue 58, item 2: the encyclopedia's options,
"or the full 52"), law by law, and over 1,000 random deals: cards conserved, payments
summing to zero, the replay from the pack order and the snapshot round trip."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from conquian_helpers import deal, texts

from games.engine.cards import Card, PackKind, make_pack
from games.engine.conquian.actions import action_from_text
from games.engine.conquian.deal import ConquianDeal, new_conquian_deal
from games.engine.conquian.melds import is_combination
from games.engine.errors import IllegalActionError
from games.engine.rules import make_rules
from tests.scale import scaled

PONE = "9H 10H QH KH AC 2C 3D 5S 4D 6D"
DEALER = "AH 2H 3H 4H 5H 7S AS 2S 3S 4S"


def test_l1_option_the_full_pack_deals_ten_each_from_fifty_two() -> None:
    # 2-hand law 1 with the encyclopedia's option: the full 52; ten each and the 21st up
    d = deal(PONE, DEALER, "JH", pack="full")
    v = d.player_view(0)
    assert v["hand_counts"] == [10, 10] and v["turned"] == "JH" and v["pack_count"] == 31
    assert sum(d.card_counts().values()) == 52
    assert sorted(d.pack_order, key=str) == sorted(make_pack(PackKind.SINGLE), key=str)


def test_l16_co1_sequences_run_ace_to_king_the_jack_after_the_ten() -> None:
    d = deal(PONE, DEALER, "JH", pack="full")
    assert {"0 use JH with 9H 10H", "0 use JH with 10H QH", "0 use JH with QH KH",
            "0 use JH with 9H 10H QH KH"} <= texts(d)  # fmt: skip


def test_l16_co1_the_ace_is_low_only_no_king_ace_two() -> None:
    d = deal("KC 2C 3D 5S 4D 6D QH 6H 7H 7D", DEALER, "AC", pack="full")
    assert not any(t.startswith("0 use") for t in texts(d))
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("0 use AC with 2C KC"))
    assert e.value.law == "L16"


@pytest.mark.parametrize("courts", ["ten", "spanish"])
def test_pips_the_full_packs_courts_pay_ten_whatever_the_spanish_courts_option(
    courts: str,
) -> None:
    # book p.55: face value, courts 10; C-opt-3 prices the Spanish pack's courts only
    d = deal(PONE, DEALER, "JH", pack="full", scoring="pips", court_pips=courts)
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        d.apply(next(a for a in d.legal_actions(seat) if a.type in ("turn", "pass")))
    o = d.outcome()
    assert o is not None and o.kind == "tableau"
    assert o.pips[0] == 9 + 10 + 10 + 10 + 1 + 2 + 3 + 5 + 4 + 6


def test_a_card_outside_the_pack_is_named_as_such() -> None:
    d = deal("9H 10H AC 2C 3D 5S 4D 6D 8H 7H", DEALER, "6H")  # Foster's forty: no jack
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("0 use JH with 9H 10H"))
    assert e.value.law == "L1 (two players)"


def test_1000_random_deals_conserve_cards_sum_to_zero_and_replay() -> None:
    rng = random.Random(52)
    ends = set()
    for n in range(scaled(1000)):
        options = {
            "pack": "full",
            "upcard": rng.random() < 0.7,
            "trade": rng.random() < 0.3,
            "scoring": rng.choice(["game-points", "pips"]),
            "carry": rng.random() < 0.7,
            "deal": rng.choice(["pairs", "singly"]),
            "eight_cap": rng.random() < 0.3,
        }
        rules = make_rules("conquian", options)
        carry = n % 3 if options["carry"] else 0
        d = new_conquian_deal(rules, n % 2, seed=n, carry_in=carry)
        while not d.is_over():
            assert sum(d.card_counts().values()) == 52
            seat = d.to_move()
            assert seat is not None
            d.apply(rng.choice(d.legal_actions(seat)))
        order = d._order
        for c in d.spectator_view()["combinations"]:
            cards = [d._idx[Card.from_code(y["card"])] for y in c["cards"]]
            assert is_combination(cards, order), c
        o = d.outcome()
        assert o is not None and sum(o.payments) == 0 and sum(d.card_counts().values()) == 52
        ends.add(o.kind)
        again = new_conquian_deal(rules, n % 2, seed=n, pack=list(d.pack_order), carry_in=carry)
        for a in d.history:
            again.apply(a)
        snap = json.loads(json.dumps(d.to_json()))
        assert again.to_json() == d.to_json() == ConquianDeal.from_json(snap).to_json()
    assert ends == {"out", "tableau"}
