"""Two-player Conquián, rule by rule (Foster's special laws for two, the book's
description for two players, the encyclopedia and the how-to page)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from conquian_helpers import deal, play, texts, views

from games.engine.cards import Card, PackKind, make_pack, parse_cards
from games.engine.conquian.actions import TurnAction, UseAction, action_from_json, action_from_text
from games.engine.conquian.deal import ConquianDeal, new_conquian_deal, next_dealer
from games.engine.errors import IllegalActionError, InvalidActionError
from games.engine.rules import OptionValue, make_rules

# Seat 1 deals, seat 0 is the pone. The pone's clubs make a long sequence with the upcard 2C.
PONE = "3C 4C 5C 6C 7C 8C 9C 5H 5D 6H"
DEALER = "2D 3D 7H 9H AS 3S 7S 9S 2H 4S"
DEALER_B = "2D 3D 8C 9H 10S 3S 7S 9S 10C 6S"


def eleven_minus_one() -> ConquianDeal:
    """Pone: 2C-4C, 6C-9C and 5C 5D 5H down (ten), nothing in hand; the dealer to say
    to the pone's discard 6H; then 10C is the next card of the pack."""
    d = deal(PONE, DEALER, "2C 10C")
    play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C", "0 meld 5D 5H borrow 5C", "0 throw 6H")
    return d


def test_it_deals_ten_each_two_at_a_time_pone_first_and_turns_the_21st() -> None:
    # L8 (two players); book p.49: the 21st card is turned up and the pone has the say
    d = deal(PONE, DEALER, "2C")
    v = d.player_view(0)
    assert v["hand"] == ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "5D", "5H", "6H"]
    assert d.player_view(1)["hand_counts"] == [10, 10]
    assert v["pack_count"] == 19 and v["turned"] == "2C" and v["say"] == 0
    assert v["turned_by"] == 1 and v["phase"] == "say" and d.to_move() == 0
    assert v["stock"] == []  # still on the pack, not yet passed


def test_the_say_order_and_a_refused_card_is_turned_down_for_good() -> None:
    # book p.51-52: pone first on the upcard, then the dealer; the second to refuse
    # turns it down and turns the next card, having the first say to it (L11 (two players))
    d = deal(PONE, DEALER, "10D 8D")
    play(d, "0 pass 10D")
    assert d.to_move() == 1 and d.spectator_view()["stock"] == ["10D"]
    play(d, "1 pass 10D")
    v = d.spectator_view()
    assert v["phase"] == "turn" and d.to_move() == 1 and v["dead_count"] == 1
    assert v["turned"] is None
    assert d.legal_actions(1) == [TurnAction(1)] and d.legal_actions(0) == []
    play(d, "1 turn")
    v = d.spectator_view()
    assert v["turned"] == "8D" and v["say"] == 1 and v["turned_by"] == 1
    assert "10D" not in json.dumps(v["hand"]) and d.card_counts()["dead"] == 1


def test_a_card_from_the_pack_never_enters_the_hand() -> None:
    # L12 (two players): turned cards are used at once or passed, never taken in hand
    d = deal(PONE, DEALER, "2C")
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("0 throw 6H"))
    assert e.value.law == "L12 (two players)"
    play(d, "0 use 2C with 3C 4C")
    assert "2C" not in d.player_view(0)["hand"]
    assert d.player_view(0)["hand_counts"] == [8, 10]  # 3 down + 8 in hand = 11 until discard
    assert texts(d) >= {"0 throw 6H", "0 throw 5C"}
    play(d, "0 throw 6H")
    assert d.player_view(0)["down_counts"][0] + d.player_view(0)["hand_counts"][0] == 10
    # the adversary says to the discard as to a pack card; refusing turns it down
    assert d.to_move() == 1 and d.spectator_view()["stock"] == ["6H"]
    play(d, "1 pass 6H")
    assert d.spectator_view()["phase"] == "turn" and d.to_move() == 1


def test_a_discard_cannot_make_eleven() -> None:
    # L21 (two players), book p.48: the last card must be used, not discarded
    d = eleven_minus_one()
    v = d.spectator_view()
    assert v["hand_counts"][0] == 0 and v["down_counts"][0] == 10
    assert not d.is_over() and d.to_move() == 1


def test_the_eleventh_card_used_wins() -> None:
    # L21 (two players): eleven down wins; the pone adds 10C to 6C-9C
    d = eleven_minus_one()
    play(d, "1 pass 6H", "1 turn", "1 pass 10C")
    assert "0 use 10C to 1" in texts(d)
    play(d, "0 use 10C to 1")
    o = d.outcome()
    assert d.is_over() and o is not None and o.kind == "out" and o.winner == 0
    assert o.payments == (1, -1) and o.scoring == "game-points"
    assert d.to_move() is None and d.legal_actions(0) == [] and d.legal_actions(1) == []


def test_forced_into_eleven_wins() -> None:
    # book p.52: forced, he must discard "unless he can get eleven down"; L19
    d = eleven_minus_one()
    play(d, "1 pass 6H", "1 turn")
    assert "1 force 10C to 1" in texts(d)
    play(d, "1 force 10C to 1")
    o = d.outcome()
    assert o is not None and o.winner == 0 and o.kind == "out"


def test_forced_with_a_card_in_hand_he_must_discard() -> None:
    # Foster's example (book p.55): nine down and 6D held; forced, he discards the 6D
    d = deal("3C 4C 5C 6C 7C 8C 9C 10C 6D 8D", DEALER, "2C AC")
    play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C 10C", "0 throw 8D", "1 pass 8D", "1 turn")
    play(d, "1 force AC to 0")
    assert d.to_move() == 0 and d.spectator_view()["phase"] == "discard"
    assert texts(d) == {"0 throw 6D"}
    play(d, "0 throw 6D")
    assert not d.is_over() and d.spectator_view()["down_counts"] == [10, 0]


def test_a_player_who_passes_a_card_fitting_his_combination_may_be_forced_with_it() -> None:
    # book p.53: "if he passes it, his opponent may force him with it"
    d = deal(PONE, DEALER, "2C 8H 10C")
    play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C", "0 throw 6H", "1 pass 6H", "1 turn")
    play(d, "1 pass 8H", "0 pass 8H", "0 turn")  # the pone turns 10C, which fits his clubs
    assert {"0 use 10C to 0", "0 pass 10C"} <= texts(d)
    play(d, "0 pass 10C")
    assert "1 force 10C to 0" in texts(d)
    play(d, "1 force 10C to 0")
    assert d.to_move() == 0 and d.spectator_view()["phase"] == "discard"
    assert d.spectator_view()["down_counts"] == [9, 0]


def test_a_discard_fitting_the_discarders_combination_may_be_forced_back() -> None:
    # book p.53 (a passed card that fits one's own combination may be forced), applied
    # to a discard: the adversary with the say may force it back
    d = deal("3C 4C 5C 6C 7C 8C 9C 5H 5D 10C", DEALER, "2C")
    play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C", "0 throw 10C")
    assert texts(d) == {"1 force 10C to 0", "1 pass 10C"}
    play(d, "1 force 10C to 0")
    assert d.to_move() == 0 and d.spectator_view()["down_counts"] == [9, 0]
    # the pone may not force what is not in play, nor onto his own combination
    assert texts(d) == {"0 throw 5D", "0 throw 5H", "0 meld 5D 5H borrow 5C"}


def test_forcing_a_hand_card_instead_of_discarding() -> None:
    # book p.52; L19: the adversary cannot refuse a card added to his combination
    d = deal(PONE, "2D 3D 7H 9H AS 3S 10C 9S 2H 4S", "2C 2S")
    play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C", "0 throw 6H", "1 pass 6H", "1 turn")
    play(d, "1 use 2S with 3S 4S")
    assert "1 force 10C to 0" in texts(d)
    play(d, "1 force 10C to 0")
    assert d.to_move() == 0 and d.spectator_view()["hand_counts"] == [2, 7]
    assert texts(d) == {"0 throw 5D", "0 throw 5H", "0 meld 5D 5H borrow 5C"}


def test_force_needs_an_adversary_combination() -> None:
    # book p.56: "if he has not laid down anything, it is impossible to force him"
    d = deal(PONE, DEALER, "2C")
    assert not any(t.startswith("0 force") for t in texts(d))
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("0 force 2C to 0"))
    assert e.value.law == "L19"


def test_borrowing_from_a_four_of_a_kind() -> None:
    # book p.53: four tens down, 8S drawn, 9S in hand: borrow 10S for 8S 9S 10S
    d = deal("10C 10D 10H 9S AH 3H 5D 7D 2S 4C", "2D 3D 7H 9H AS 3S 7S 6S 2H 4S", "10S 8S")
    play(d, "0 use 10S with 10C 10D 10H", "0 throw AH", "1 pass AH", "1 turn")
    play(d, "1 pass 8S")
    assert "0 use 8S with 9S borrow 10S" in texts(d)
    play(d, "0 use 8S with 9S borrow 10S")
    kinds = {(c["kind"], tuple(x["card"] for x in c["cards"]))
             for c in d.spectator_view()["combinations"]}  # fmt: skip
    assert kinds == {("set", ("10C", "10D", "10H")), ("sequence", ("8S", "9S", "10S"))}


def test_borrowing_the_middle_of_a_seven_splits_it() -> None:
    # book p.54: the middle card of a sequence of seven leaves two sequences of three
    d = deal("2H 3H 4H 5H 6H 7H 5C 5D AS 9D", DEALER_B, "8H 5S")
    play(d, "0 use 8H with 2H 3H 4H 5H 6H 7H", "0 throw 9D", "1 pass 9D", "1 turn")
    play(d, "1 pass 5S")
    assert {"0 use 5S with 5C borrow 5H", "0 use 5S with 5C 5D borrow 5H"} <= texts(d)
    play(d, "0 use 5S with 5D borrow 5H")
    seqs = sorted(tuple(x["card"] for x in c["cards"])
                  for c in d.spectator_view()["combinations"])  # fmt: skip
    assert seqs == [("2H", "3H", "4H"), ("5D", "5H", "5S"), ("6H", "7H", "8H")]


def test_borrowing_the_middle_of_a_six_is_refused() -> None:
    # book p.54: no card from the interior that leaves an incomplete sequence behind
    d = deal("2H 3H 4H 5H 6H 4C 4D AS 9D 9C", DEALER_B, "7H 4S")
    play(d, "0 use 7H with 2H 3H 4H 5H 6H", "0 throw 9D", "1 pass 9D", "1 turn")
    play(d, "1 pass 4S")
    assert not any("borrow" in t for t in texts(d))
    before = views(d)
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("0 use 4S with 4C borrow 4H"))
    assert e.value.law == "book p.54" and views(d) == before
    # and never the adversary's cards
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("0 use 4S with 4C 4D borrow 3S"))
    assert e.value.law == "book p.54"


def _pass_to_the_end(d: ConquianDeal) -> None:
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        acts = d.legal_actions(seat)
        a = next(a for a in acts if a.type in ("turn", "pass", "trade"))
        d.apply(a)


def test_tableau_pays_nothing_and_carries_to_the_next_deals_winner() -> None:
    # L21 (two players), book p.55: the tableau goes to the winner of the next deal
    d = deal(PONE, DEALER, "2C")
    _pass_to_the_end(d)
    o = d.outcome()
    assert o is not None and o.kind == "tableau" and o.winner is None
    assert o.payments == (0, 0) and o.carried == 1
    assert next_dealer(d.dealer) == 0  # the non-dealer of the tableau deals next
    d2 = eleven_minus_one_with(carry_in=o.carried)
    o2 = d2.outcome()
    assert o2 is not None and o2.payments == (2, -2)
    assert {(a.seat, a.points, a.reason) for a in o2.adjustments} == {
        (0, 1, "tableau-carry"), (1, -1, "tableau-carry")}  # fmt: skip


def eleven_minus_one_with(carry_in: int = 0, **kw: OptionValue) -> ConquianDeal:
    d = deal(PONE, DEALER, "2C 10C", carry_in=carry_in, **kw)
    play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C", "0 meld 5D 5H borrow 5C", "0 throw 6H")
    play(d, "1 pass 6H", "1 turn", "1 force 10C to 1")
    return d


def test_without_carry_a_tableau_carries_nothing() -> None:
    d = deal(PONE, DEALER, "2C", carry=False)
    _pass_to_the_end(d)
    o = d.outcome()
    assert o is not None and o.kind == "tableau" and o.carried == 0
    with pytest.raises(InvalidActionError):
        deal(PONE, DEALER, carry=False, carry_in=1)


def test_pips_scoring_the_loser_pays_his_hand_and_a_carry_counts_the_deal_again() -> None:
    # book p.55: pips instead of points; the dealer's hand 2D 3D 7H 9H AS 3S 7S 9S 2H 4S
    d = eleven_minus_one_with(scoring="pips")
    o = d.outcome()
    assert o is not None and o.pips == (0, 47) and o.payments == (47, -47)
    d = eleven_minus_one_with(scoring="pips", carry_in=2)
    o = d.outcome()
    assert o is not None and o.payments == (141, -141) and o.scoring == "pips"
    assert sum(a.points for a in o.adjustments) == 0


def test_game_points_with_two_tableaux_carried() -> None:
    d = eleven_minus_one_with(carry_in=2)
    o = d.outcome()
    assert o is not None and o.payments == (3, -3) and o.pips == (0, 47)


def test_spanish_pack_jack_follows_seven() -> None:
    # encyclopedia, how-to: A 2 .. 7 J Q K; 6-7-J and J-Q-K are sequences
    d = deal("6H 7H QH KH AC 2C 3D 5S 4D 6D", "AH 2H 3H 4H 5H 7S AS 2S 3S 4S", "JH", pack="spanish")
    t = texts(d)
    assert {"0 use JH with 6H 7H", "0 use JH with QH KH", "0 use JH with 7H QH",
            "0 use JH with 6H 7H QH KH"} <= t  # fmt: skip
    assert d.player_view(0)["pack_count"] == 19


def test_spanish_pack_no_king_ace_two() -> None:
    # L16 / encyclopedia: "C-R-1 is not" a sequence
    d = deal("KC 2C 3D 5S 4D 6D QH 6H 7H 7D", "AH 2H 3H 4H 5H 7S AS 2S 3S 4S", "AC", pack="spanish")
    assert not any(t.startswith("0 use") for t in texts(d))
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("0 use AC with 2C KC"))
    assert e.value.law == "L16"


def test_spanish_pips_courts_count_ten() -> None:
    d = deal("6H 7H QH KH AC 2C 3D 5S 4D 6D", "AH 2H 3H 4H 5H 7S AS 2S 3S 4S", "JH",
             pack="spanish", scoring="pips")  # fmt: skip
    _pass_to_the_end(d)
    o = d.outcome()
    assert o is not None and o.pips[0] == 6 + 7 + 10 + 10 + 1 + 2 + 3 + 5 + 4 + 6


def test_c_opt_3_spanish_pips_the_sota_10_caballo_11_rey_12() -> None:
    # seed 003 (C-opt-3): A-7 face value, sota (J) 10, caballo (Q) 11, rey (K) 12
    d = deal("6H 7H QH KH AC 2C 3D 5S 4D 6D", "AH 2H 3H 4H 5H 7S AS 2S 3S 4S", "JH",
             pack="spanish", scoring="pips", court_pips="spanish")  # fmt: skip
    _pass_to_the_end(d)
    o = d.outcome()
    assert o is not None and o.pips[0] == 6 + 7 + 11 + 12 + 1 + 2 + 3 + 5 + 4 + 6


def test_c_opt_3_the_forty_pack_pays_face_value_whatever_the_courts_option() -> None:
    # seed 003: "with the courtless pack every card counts face value, A 1"
    d = eleven_minus_one_with(scoring="pips", court_pips="spanish")
    o = d.outcome()
    assert o is not None and o.pips == (0, 47)


def test_c_opt_1_dealt_singly_one_card_at_a_time_the_pone_first() -> None:
    # seed 004 (C-opt-1): ten each one at a time, the pone first; Foster deals two at a time
    pack = parse_cards("AC AD 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D 8C 8D 9C 9D 10C 10D 10H")
    rest = [c for c in make_pack(PackKind.FORTY_FOSTER) if c not in pack]
    singly = new_conquian_deal(make_rules("conquian", {"deal": "singly"}), 1, pack=pack + rest)
    assert singly.player_view(0)["hand"] == [c.code for c in parse_cards(
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C")]  # fmt: skip
    assert singly.player_view(0)["turned"] == "10H"
    pairs = new_conquian_deal(make_rules("conquian"), 1, pack=pack + rest)
    assert sorted(pairs.player_view(0)["hand"]) == sorted(
        c.code for c in parse_cards("AC AD 3C 3D 5C 5D 7C 7D 9C 9D")
    )


def test_c_opt_5_a_sequence_holds_three_to_eight_cards() -> None:
    # seed 003 (C-opt-5): with the cap a sequence of nine is not offered and is refused;
    # without it (CO2: Foster sets none) it is
    hand = "2C 3C 4C 5C 6C 7C 8C 9C 5H 5D"
    nine = "0 use 10C with 2C 3C 4C 5C 6C 7C 8C 9C"
    assert nine in texts(deal(hand, DEALER, "10C"))
    d = deal(hand, DEALER, "10C", eight_cap=True)
    assert nine not in texts(d) and "0 use 10C with 3C 4C 5C 6C 7C 8C 9C" in texts(d)
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text(nine))
    assert e.value.law == "C-opt-5" and "three to 8 cards" in str(e.value)


def test_c_opt_5_a_sequence_of_eight_takes_no_more_cards_not_even_forced() -> None:
    for cap, offered in ((False, {"1 force 10C to 0", "1 pass 10C"}), (True, {"1 pass 10C"})):
        d = deal(PONE, DEALER, "2C 10C", eight_cap=cap)
        play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C", "0 throw 6H", "1 pass 6H", "1 turn")
        assert texts(d) == offered
    with pytest.raises(IllegalActionError) as e:
        d.apply(action_from_text("1 force 10C to 0"))
    assert e.value.law == "C-opt-5"


def test_forty_pack_has_no_courts_and_ace_is_low() -> None:
    # L1 (two players): A..10, no J Q K, no joker
    d = deal(PONE, DEALER, "2C")
    with pytest.raises(IllegalActionError) as e:
        d.apply(UseAction(0, Card.from_code("KC"), None, tuple(parse_cards("3C 4C"))))
    assert e.value.law in ("L1 (two players)", "L12 (two players)")


def test_no_upcard_the_pone_turns_first() -> None:
    # how-to: no initial upcard; the pone starts by turning the top card of the pack
    d = deal(PONE, DEALER, "2C", upcard=False)
    v = d.spectator_view()
    assert v["pack_count"] == 20 and v["turned"] is None and v["phase"] == "turn"
    assert d.legal_actions(0) == [TurnAction(0)]
    play(d, "0 turn")
    assert d.spectator_view()["turned"] == "2C" and d.to_move() == 0


def test_card_trade_both_choose_then_both_receive() -> None:
    # how-to, card trade: each passes one card face down before the first turn
    d = deal(PONE, DEALER, "2C", trade=True)
    assert d.spectator_view()["phase"] == "trade" and d.to_move() == 0
    assert len(d.legal_actions(0)) == 10
    play(d, "0 trade 6H")
    v1 = d.player_view(1)
    assert '"6H"' not in json.dumps(v1) and v1["trade_done"] == [True, False]
    assert d.player_view(0)["trade_card"] == "6H" and "6H" in d.player_view(0)["hand"]
    assert d.to_move() == 1
    play(d, "1 trade 9S")
    assert "9S" in d.player_view(0)["hand"] and "6H" in d.player_view(1)["hand"]
    assert "6H" not in d.player_view(0)["hand"]
    assert d.spectator_view()["phase"] == "say" and d.to_move() == 0


def test_illegal_and_invalid_actions_change_nothing() -> None:
    d = deal(PONE, DEALER, "2C")
    before = views(d)
    for bad in (
        "1 pass 2C",
        "0 pass 3C",
        "0 use 2C with 3C",
        "0 use 2C with 3C 5C",
        "0 turn",
        "0 use 2C to 0",
        "0 meld 3C 4C 5C",
    ):
        with pytest.raises(IllegalActionError):
            d.apply(action_from_text(bad))
        assert views(d) == before and d.version == 0
    with pytest.raises(InvalidActionError):
        d.apply(action_from_json({"type": "pass", "seat": 5, "card": "2C"}))
    with pytest.raises(InvalidActionError):
        action_from_text("0 use 2C with 3C 3C")
    with pytest.raises(InvalidActionError):
        new_conquian_deal(make_rules("conquian"), 0, pack=parse_cards("AC 2C"))
    assert views(d) == before


def test_actions_round_trip_through_json_and_text() -> None:
    d = deal(PONE, DEALER, "2C")
    for a in d.legal_actions(0):
        assert action_from_json(json.loads(json.dumps(a.to_json()))) == a
        assert action_from_text(a.text) == a and a.describe()


def test_views_have_the_shared_keys_and_hide_the_other_hand() -> None:
    d = deal(PONE, DEALER, "2C")
    keys = {"variant", "options", "players", "seat", "dealer", "version", "to_move", "phase",
            "hand", "hand_counts", "pack_count", "stock", "stock_count", "combinations", "log",
            "outcome", "turned", "say", "turned_by", "dead_count"}  # fmt: skip
    for v in views(d):
        assert keys <= set(v)
        json.dumps(v)
    assert d.spectator_view()["hand"] == [] and d.spectator_view()["seat"] is None
    dumped = json.dumps(d.player_view(0))
    assert not any(f'"{c}"' in dumped for c in DEALER.split())
