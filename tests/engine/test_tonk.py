"""Tonk's laws (T1–T12), its options (T-opt-1..3) and our settled points (TO1–TO14),
one test or more for each, citing it; a property test over random deals of every option
set; snapshots, replays and ``from_view``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from games.engine import (
    Card,
    Hidden,
    IllegalActionError,
    InvalidActionError,
    deal_from_view,
    make_rules,
    new_deal,
    parse_cards,
    record,
    replay,
)
from games.engine.combinations import Placed
from games.engine.deal import deal_from_json
from games.engine.records import Kind
from games.engine.spreads import count, hits_for, spreads_in
from games.engine.tonk.deal import TonkDeal
from games.engine.tonk.scoring import settle
from games.engine.words import sentence

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"five_card": True},
    {"wait_rule": True},
    {"deuces_wild": True},
    {"five_card": True, "wait_rule": True, "deuces_wild": True},
]


def arrange(hands: list[str], stock: str, pack: str = "", *, dealer: int = 0,
            **options: Any) -> TonkDeal:  # fmt: skip
    """A deal in which seat ``s`` is dealt ``hands[s]`` (singly from the dealer's left,
    T3), ``stock`` is turned up, and ``pack`` are the pack's next cards, top first."""
    rules = make_rules("tonk", options)
    n = len(hands)
    parsed = [parse_cards(h) for h in hands]
    size = len(parsed[0])
    order: list[Card] = []
    for i in range(size * n):
        order.append(parsed[(dealer + 1 + i) % n][i // n])
    order += parse_cards(stock) + parse_cards(pack)
    rest = [c for c in rules.spec.pack(rules) if c not in set(order)]
    deal = new_deal(rules, n, dealer, pack=order + rest)
    assert isinstance(deal, TonkDeal)
    return deal


def play(d: TonkDeal, *texts: str) -> None:
    for t in texts:
        d.apply(d.rules.spec.parse_text(t))


def texts(d: TonkDeal) -> list[str]:
    seat = d.to_move()
    return [] if seat is None else [a.text for a in d.legal_actions(seat)]


SEVEN = ["3C 4C 5C 9D 9H KS QS", "AD 2D 6H 7H 8S JC 10D"]


# ---------------------------------------------------------------- T1–T3: pack and deal


def test_t1_one_pack_of_52_no_joker_two_to_four_players_five_in_five_card() -> None:
    rules = make_rules("tonk")
    assert len(rules.spec.pack(rules)) == 52 and not any(c.is_joker for c in rules.spec.pack(rules))
    for n in (2, 3, 4):
        assert new_deal(rules, n, 0, seed=1).players == n
    with pytest.raises(InvalidActionError, match="five play Five Card Tonk"):
        new_deal(rules, 5, 0, seed=1)
    assert new_deal(make_rules("tonk", {"five_card": True}), 5, 0, seed=1).players == 5


def test_t3_seven_each_singly_from_the_dealers_left_the_next_card_starts_the_stock() -> None:
    d = arrange(SEVEN, "KD", "4H", dealer=1)
    assert [c.code for c in d.hands[0]] == ["3C", "4C", "5C", "9D", "9H", "QS", "KS"]
    assert d.pack_order[0].code == "3C"  # the first card to the dealer's left (seat 0)
    view = d.player_view(0)
    assert view["stock"] == ["KD"] and view["pack_count"] == 52 - 15
    assert view["to_move"] == 0  # T5: the dealer's left begins
    assert d.log[0].kind is Kind.DEAL and d.log[0].law == "T3"


def test_t_opt_1_five_card_tonk_deals_five() -> None:
    d = new_deal(make_rules("tonk", {"five_card": True}), 3, 0, seed=2)
    assert d.player_view(0)["hand_counts"] == [5, 5, 5]


# ---------------------------------------------------------------- T4, TO5, TO9: Tonk on the deal


def test_t4_a_lone_call_on_a_hand_of_courts_wins_2_from_each() -> None:
    d = arrange(["JC QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D"], "9S")
    assert d.phase == "call" and texts(d) == ["0 call", "0 no-call"]  # seat 1, 2 not asked
    play(d, "0 call")
    out = d.outcome()
    assert out is not None and out.kind == "tonk" and out.winner == 0
    assert out.payments == (4, -2, -2)  # TO3: each other player pays the 2
    assert [r.kind for r in d.log[1:]] == [Kind.TONK_CALL]


def test_to5_a_hand_that_may_call_may_let_it_go_and_play_begins() -> None:
    d = arrange(["JC QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C"], "9S", dealer=1)
    play(d, "0 no-call")
    assert d.phase == "draw" and d.to_move() == 0
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 call"))
    assert e.value.law == "T4"


def test_t4_a_ten_does_not_call_in_the_seven_card_game_but_does_in_five_card() -> None:
    d = arrange(["10C QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C"], "9S", dealer=1)
    assert d.phase == "draw"  # nobody may call: seat 0 holds a ten
    five = arrange(["10C QC KC JD QD", "10D JS QS KS 10H"], "9S", dealer=1, five_card=True)
    assert five.phase == "call" and five.callers == [0, 1]


def test_t4_two_calls_draw_the_deal_in_five_card_tonk_to9() -> None:
    d = arrange(["10C QC KC JD QD", "10D JS QS KS 10H", "2C 3C 4C 5C 6C"], "9S",
                dealer=2, five_card=True)  # fmt: skip
    play(d, "0 call", "1 call")
    out = d.outcome()
    assert out is not None and out.kind == "drawn" and out.payments == (0, 0, 0)
    assert d.log[-1].kind is Kind.DRAWN and d.log[-1].number == 2


# ---------------------------------------------------------------- T5: the turn


def test_t5_a_turn_is_drop_or_draw_or_pluck_then_spread_hit_discard() -> None:
    d = arrange(SEVEN, "6C", "KH", dealer=1)
    assert texts(d) == ["0 drop", "0 draw", "0 pluck"]
    play(d, "0 draw")
    assert Card.from_code("KH") in d.hands[0] and d.phase == "play"
    assert "0 spread 3C 4C 5C" in texts(d) and "0 discard KH" in texts(d)
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 draw"))
    assert e.value.law == "T5"
    play(d, "0 discard KH")
    assert d.to_move() == 1 and d.stock[-1].code == "KH"


def test_t5_the_draw_from_the_pack_is_seen_by_the_drawer_only() -> None:
    d = arrange(SEVEN, "6C", "KH", dealer=1)
    play(d, "0 draw")
    assert d.player_view(0)["log"][-1]["cards"] == ["KH"]
    assert "cards" not in d.player_view(1)["log"][-1]
    assert "KH" not in json.dumps(d.player_view(1)) and "KH" not in json.dumps(d.spectator_view())


# ---------------------------------------------------------------- T6, TO2, TO1: spreads


def test_t6_sets_of_three_or_four_and_runs_of_three_or_more_to2() -> None:
    d = arrange(["3C 4C 5C 6C 9D 9H 9S", "AD 2D 6H 7H 8S JC 10D"], "9C", "KH", dealer=1)
    play(d, "0 pluck")
    t = texts(d)
    assert {"0 spread 9D 9H 9S", "0 spread 9C 9D 9H 9S", "0 spread 3C 4C 5C 6C"} <= set(t)
    play(d, "0 spread 3C 4C 5C 6C")
    assert d.spreads[0].kind == "sequence" and d.spreads[0].lo == 3
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 spread 9D 9H KH"))
    assert e.value.law in ("T6", "TO2")


def test_to1_the_ace_is_low_only() -> None:
    d = arrange(["AC 2C 3C QD KD 9H 9S", "AD 2D 6H 7H 8S JC 10D"], "AS", "KH", dealer=1)
    play(d, "0 draw")
    assert "0 spread AC 2C 3C" in texts(d)
    hand = parse_cards("QC KC AC")
    assert spreads_in(hand, wild=False) == []  # never Q K A
    assert count(parse_cards("AS KH")) == 11  # T11, TO1: the ace counts 1


def test_t6_spreads_are_never_compulsory_and_stay_before_their_maker() -> None:
    d = arrange(["3C 4C 5C 9D 9H KS QS", "AD 2D 6H 7H 8S JC 10D"], "6C", "KH", dealer=1)
    play(d, "0 draw", "0 discard KH")  # holding a run, no need to spread it
    play(d, "1 draw")
    assert d.spreads == []


# ---------------------------------------------------------------- T7: hitting


def test_t7_hitting_any_spread_own_or_anothers() -> None:
    d = arrange(["3C 4C 5C 9D 9H 9S KS", "AD 2C 6C 7H 8S JC 9C"], "QD", "KH 4H", dealer=1)
    play(d, "0 draw", "0 spread 3C 4C 5C", "0 discard KH")
    play(d, "1 draw")
    assert {"1 hit 0 2C", "1 hit 0 6C"} <= set(texts(d))
    play(d, "1 hit 0 6C", "1 hit 0 2C")
    assert d.spreads[0].cards[0].card.code == "2C" and d.spreads[0].lo == 2
    assert [r.kind for r in d.log[-2:]] == [Kind.HIT, Kind.HIT]
    assert sentence(d.log[-1]) == "hits spread 0 with 2C"


# ---------------------------------------------------------------- T8: going out


def test_t8_out_by_a_spread_pays_2_and_out_by_the_discard_pays_1() -> None:
    d = arrange(["3C 4C 5C 9D 9H 9S KS", "AD 2D 6S 7S 8S JC 10D", "2H 3H 4H 5H 6H 7H 8H"],
                "KD", "6C", dealer=2)  # fmt: skip
    play(d, "0 draw", "0 spread 3C 4C 5C 6C", "0 spread 9D 9H 9S", "0 discard KS")
    out = d.outcome()
    assert out is not None and out.kind == "discard-out" and out.payments == (2, -1, -1)
    e = arrange(["3C 4C 5C 6C 9D 9H 9S", "AD 2D 6S 7S 8S JC 10D", "2H 3H 4H 5H 6H 7H 8H"],
                "9C", "KH", dealer=2)  # fmt: skip
    play(e, "0 pluck", "0 spread 3C 4C 5C 6C", "0 spread 9C 9D 9H 9S")
    out = e.outcome()
    assert out is not None and out.kind == "out" and out.payments == (4, -2, -2)
    assert e.log[-1].kind is Kind.OUT and e.log[-1].law == "T8"


# ---------------------------------------------------------------- T9, TO3, TO4, TO12: the drop


def test_t9_a_drop_strictly_lowest_wins_1_from_each() -> None:
    d = arrange(["AC 2C 3D 4D AH 2H 3S", "KD QD JD KH QH JH 10S", "9C 9D 9H 9S 8C 8D 8H"],
                "KS", dealer=2)  # fmt: skip
    play(d, "0 drop")
    out = d.outcome()
    assert out is not None and out.kind == "drop" and out.winner == 0
    assert out.pips == (16, 70, 60) and out.payments == (2, -1, -1)
    assert d.log[-1].kind is Kind.DROP and d.log[-1].number == 16


def test_t9_to3_to12_a_caught_dropper_pays_2_to_each_and_the_lowest_wins_1_from_each() -> None:
    o = settle("drop", 0, [parse_cards("9S"), parse_cards("KH"), parse_cards("5D")], 3)
    assert o.kind == "caught" and o.winner == 2 and o.payments == (-5, 1, 4)


def test_to3_tied_lowest_share_the_bonus_paid_by_those_outside_it() -> None:
    hands = [parse_cards("9S"), parse_cards("3H"), parse_cards("3D"), parse_cards("KC")]
    o = settle("drop", 0, hands, 4)
    # 2s: dropper -6, others +2; bonus: seats 1 and 2 each +2, seats 0 and 3 each -2
    assert o.kind == "caught" and o.winner is None and o.payments == (-8, 4, 4, 0)


def test_to4_caught_on_an_equal_count_just_the_2s() -> None:
    o = settle("drop", 0, [parse_cards("9S"), parse_cards("9H"), parse_cards("KD")], 3)
    assert o.kind == "caught" and o.winner is None and o.payments == (-4, 2, 2)


def test_t9_the_drop_comes_before_drawing_only() -> None:
    d = arrange(SEVEN, "6C", "KH", dealer=1)
    play(d, "0 draw")
    assert "0 drop" not in texts(d)
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 drop"))
    assert e.value.law == "T5"


# ---------------------------------------------------------------- T10, TO6, TO13: the pack runs out


def _run_down(d: TonkDeal) -> None:
    """Play draw-and-discard until the pack is empty."""
    while d.pack and not d.is_over():
        seat = d.to_move()
        assert seat is not None
        play(d, f"{seat} draw")
        newest = d.player_view(seat)["log"][-1]["cards"][0]
        play(d, f"{seat} discard {newest}")


def test_t10_to13_with_the_pack_empty_refusing_the_stock_ends_the_deal_lowest_wins() -> None:
    d = arrange(["AC 2C 3D 4D AH 2H 3S", "KD QD JD KH QH JH 10S"], "KS", dealer=1)
    _run_down(d)
    seat = d.to_move()
    assert seat is not None and not d.pack
    assert texts(d) == [f"{seat} drop", f"{seat} pluck", f"{seat} refuse"]
    play(d, f"{seat} refuse")
    out = d.outcome()
    assert out is not None and out.kind == "exhausted" and out.winner == 0
    assert out.payments == (1, -1)


def test_t10_a_tie_for_lowest_draws() -> None:
    o = settle("exhausted", None, [parse_cards("9S"), parse_cards("9H"), parse_cards("KD")], 3)
    assert o.kind == "drawn" and o.payments == (0, 0, 0)


def test_to6_with_the_pack_empty_a_full_round_without_a_spread_or_hit_ends_the_deal() -> None:
    d = arrange(["AC 2C 3D 4D AH 2H 3S", "KD QD JD KH QH JH 10S"], "KS", dealer=1)
    _run_down(d)
    for _ in range(2):
        seat = d.to_move()
        assert seat is not None
        play(d, f"{seat} pluck")
        spare = next(c for c in d.hands[seat] if c != d.plucked)
        play(d, f"{seat} discard {spare.code}")
    out = d.outcome()
    assert out is not None and out.kind == "exhausted" and d.log[-1].law == "TO6"


def test_to6_to10_a_plucked_card_may_not_be_the_same_turns_discard() -> None:
    d = arrange(SEVEN, "6C", "KH", dealer=1)
    play(d, "0 pluck")
    assert "0 discard 6C" not in texts(d)
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 discard 6C"))
    assert e.value.law == "TO6" and "plucked" in e.value.reason
    e2 = arrange(SEVEN, "6C", "KH", dealer=1)
    play(e2, "0 draw")
    assert "0 discard KH" in texts(e2)  # TO10: a card from the pack may go at once


# ---------------------------------------------------------------- T-opt-2, TO8, TO14: Wait Rule


def test_to8_after_a_new_spread_no_drop_in_the_next_turn_to14_a_hit_adds_one() -> None:
    d = arrange(["3C 4C 5C 9D 9H 9S KS", "AD 2C 6C 7H 8S JC 9C"], "QD", "KH 4H 5H 6H 7S",
                dealer=1, wait_rule=True)  # fmt: skip
    play(d, "0 draw", "0 spread 3C 4C 5C", "0 discard KH")
    assert d.waits == [1, 0]
    play(d, "1 draw", "1 hit 0 6C", "1 discard 4H")  # a hit while he waits: one turn more
    assert d.waits == [2, 0]
    assert "0 drop" not in texts(d) and "Wait Rule" in (d.player_view(0)["no_drop"] or "")
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 drop"))
    assert e.value.law == "T-opt-2"
    play(d, "0 draw", "0 discard 5H", "1 draw", "1 discard 6H")
    assert "0 drop" not in texts(d)  # the second turn waited
    play(d, "0 draw", "0 discard 7S", "1 draw")
    seat1_hits_own = [t for t in texts(d) if t.startswith("1 hit")]
    assert d.waits[0] == 0 and seat1_hits_own is not None
    without = arrange(["3C 4C 5C 9D 9H 9S KS", "AD 2C 6C 7H 8S JC 9C"], "QD", "KH 4H",
                      dealer=1)  # fmt: skip
    play(without, "0 draw", "0 spread 3C 4C 5C", "0 discard KH", "1 draw", "1 discard 4H")
    assert "0 drop" in texts(without)  # no Wait Rule: a drop at once


# ---------------------------------------------------------------- T-opt-3, TO7: Deuces Wild


def test_t_opt_3_a_two_is_wild_named_when_laid_with_two_natural_cards() -> None:
    d = arrange(["2C 7H 8H 9D 9S KS QS", "AD 3D 6H 4C 8S JC 10D"], "5D", "KH",
                dealer=1, deuces_wild=True)  # fmt: skip
    play(d, "0 draw")
    t = set(texts(d))
    assert {"0 spread 2C=6H 7H 8H", "0 spread 7H 8H 2C=9H", "0 spread 9D 9S 2C=9C"} <= t
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 spread 2C=7D 2C=8D 9D"))
    assert e.value.law in ("T-opt-3", "T6")
    play(d, "0 spread 7H 8H 2C=9H")
    assert d.spreads[0].cards[-1].named.code == "9H"  # TO7: it keeps that name
    assert count(parse_cards("2C 2D")) == 4  # a two in hand counts 2


def test_l17_to7_a_sets_two_is_the_card_its_holder_names_a_suit_the_set_lacks() -> None:
    # Issue 58 (L17 in every game with wild cards): the list offers the set's two as the
    # first suit it lacks, but the holder may name any suit the set lacks (one pack), and
    # that name is kept (TO7); a suit the set holds is refused.
    d = arrange(["2C 7H 8H 9D 9S KS QS", "AD 3D 6H 4C 8S JC 10D"], "5D", "KH",
                dealer=1, deuces_wild=True)  # fmt: skip
    play(d, "0 draw")
    with pytest.raises(IllegalActionError):
        d.apply(d.rules.spec.parse_text("0 spread 9D 9S 2C=9D"))
    play(d, "0 spread 9D 9S 2C=9H")
    assert sorted(p.code for p in (Placed(t.card, t.named) for t in d.spreads[0].cards)) == [
        "2C=9H", "9D", "9S"
    ]  # fmt: skip


def test_t_opt_3_without_deuces_wild_a_two_is_only_a_two() -> None:
    d = arrange(["2C 7H 8H 9D 9S KS QS", "AD 3D 6H 4C 8S JC 10D"], "5D", "KH", dealer=1)
    play(d, "0 draw")
    assert not [t for t in texts(d) if "2C=" in t]
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 spread 7H 8H 2C=9H"))
    assert e.value.law == "T-opt-3"


def test_to7_a_set_never_exceeds_four_cards() -> None:
    hand = parse_cards("2C 9D")
    from games.engine.combinations import Combination, TableCard

    full = Combination(
        0, 1, "set", tuple(TableCard(c, c) for c in parse_cards("9C 9H 9S 9D")), rank=9
    )
    assert hits_for(hand, [full], wild=True) == []


# ---------------------------------------------------------------- T11, T12: counts and points


def test_t11_counts_courts_and_tens_10_the_rest_their_face() -> None:
    assert count(parse_cards("KS QH JD 10C 9S 2H AD")) == 10 * 4 + 9 + 2 + 1


def test_t12_game_points_sum_to_zero_in_the_outcome() -> None:
    o = settle("out", 1, [parse_cards("9S"), [], parse_cards("KD")], 3)
    assert o.scoring == "game-points" and sum(o.payments) == 0 and o.payments == (-2, 4, -2)


# ---------------------------------------------------------------- the engine's contract


def _random_deal(options: dict[str, Any], seed: int) -> TonkDeal:
    rng = random.Random(seed)
    n = 2 + seed % (4 if options.get("five_card") else 3)
    d = new_deal(make_rules("tonk", options), n, seed % n, seed=seed)
    assert isinstance(d, TonkDeal)
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        legal = d.legal_actions(seat)
        # fewer drops than the uniform choice and more spreads and hits, so that deals
        # run long and end every way
        plain = [a for a in legal if a.type != "drop"] or legal
        plays = [a for a in legal if a.type in ("spread", "hit")]
        pick = plays if plays and rng.random() < 0.8 else plain
        d.apply(rng.choice(pick if rng.random() < 0.95 else legal))
    return d


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_cards_are_conserved_and_points_sum_to_zero_over_1000_random_deals(
    options: dict[str, Any],
) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(1000):
        d = _random_deal(options, seed)
        every = [c for h in d.hands for c in h] + d.stock + d.pack
        every += [t.card for s in d.spreads for t in s.cards]
        assert Counter(every) == Counter(d.rules.spec.pack(d.rules))
        out = d.outcome()
        assert out is not None and sum(out.payments) == 0
        assert out.pips == tuple(count(h) for h in d.hands)
        kinds[out.kind] += 1
    assert {"out", "discard-out", "drop", "caught", "exhausted"} <= set(kinds), kinds


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_snapshot_replay_and_from_view_round_trip(options: dict[str, Any]) -> None:
    for seed in range(15):
        d = _random_deal(options, seed)
        data = json.loads(json.dumps(d.to_json()))
        assert deal_from_json(data) == d
        again = replay(json.loads(json.dumps(record(d))))  # by the pack, not the seed
        assert again.error is None and record(again.state) == record(d)
    d = _random_deal(options, 3)
    probe = new_deal(d.rules, d.players, d.dealer, pack=list(d.pack_order))
    for action in d.history:
        seat = probe.to_move()
        assert seat is not None
        if probe.phase in ("draw", "play", "call"):  # type: ignore[attr-defined]
            assert isinstance(probe, TonkDeal)
            hidden = Hidden(
                {s: probe.hands[s] for s in range(probe.players) if s != seat},
                probe.pack[::-1],
                probe.stock,
            )
            view = probe.player_view(seat)
            built = deal_from_view(view, hidden)
            assert built.player_view(seat) | {"log": []} == view | {"log": []}
            assert built.legal_actions(seat) == probe.legal_actions(seat)
        probe.apply(action)
    assert record(probe) == record(d)


def test_every_record_kind_of_tonk_has_its_sentence() -> None:
    d = arrange(SEVEN, "6C", "KH", dealer=1)
    play(d, "0 pluck", "0 spread 3C 4C 5C", "0 discard KS")
    words = [sentence(r.seen_by(0)) for r in d.log]
    assert words == ["deals 7 each; 6C starts the stock", "plucks 6C from the stock",
                     "spreads 3C 4C 5C", "discards KS"]  # fmt: skip


def test_bad_input_is_refused_and_changes_nothing() -> None:
    d = arrange(SEVEN, "6C", "KH", dealer=1)
    before = d.to_json()
    for text in ("1 draw", "0 spread 3C 4C", "0 hit 9 3C", "0 discard 3C"):
        with pytest.raises((IllegalActionError, InvalidActionError)):
            d.apply(d.rules.spec.parse_text(text))
    assert d.to_json() == before


# ---------------------------------------------------------------- what the table offers


def test_the_table_offers_tonks_moves_in_its_own_words() -> None:
    """The page reads each action's role (issue 40): the call round and the drop asked
    clearly, the drop confirmed with what it risks, spreads and hits offered on selected
    cards, and why the plucked card is not a discard (TO6) or a drop is barred (TO8)."""
    from games.play.presenters import build

    d = arrange(["JC QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C"], "9S", "KH", dealer=1)
    page = build(d.player_view(0), d.legal_actions(0), [], me=0)
    assert page["must"].startswith("call Tonk on the deal")
    assert [b["label"] for b in page["offers"]["simple"]] == ["Call Tonk", "Do not call Tonk"]

    d = arrange(["3C 4C 5C 9D 9H 9S KS", "AD 2C 6C 7H 8S JC 9C"], "QD", "KH 4H 5H",
                dealer=1, wait_rule=True)  # fmt: skip
    page = build(d.player_view(0), d.legal_actions(0), [], me=0)
    assert [b["label"] for b in page["offers"]["simple"]] == [
        "Draw from the pack", "Pluck the top card of the stock"]  # fmt: skip
    (drop,) = page["offers"]["decisions"]
    assert drop["label"] == "Drop" and "you are caught and pay 2 to each" in drop["explain"]
    assert "Your hand counts 49." in drop["explain"]  # T11: 3+4+5+9+9+9+10
    play(d, "0 pluck")
    page = build(d.player_view(0), d.legal_actions(0), [], me=0)
    assert page["must"] == "the queen of diamonds was plucked this turn: discard another card (TO6)"
    assert page["offers"]["layout_label"] == "Spread the selected cards"
    play(d, "0 spread 3C 4C 5C", "0 discard KS", "1 draw")
    page = build(d.player_view(1), d.legal_actions(1), [], me=1)
    assert {t["label"] for t in page["offers"]["targets"]} == {"Hit Seat 1's sequence"}
    play(d, "1 discard KH")
    page = build(d.player_view(0), d.legal_actions(0), [], me=0)
    assert page["offers"]["decisions"] == []
    assert page["must"].endswith("no drop: the Wait Rule: 1 more turn before a drop (TO8)")


# --- physical tables: how a deal ended, scored by the game (issue 40, item 4) ----------


def test_physical_endings_score_as_the_engine_scores_a_played_deal() -> None:
    """Every ending of T4, T8, T9, T10 entered at a physical table pays as TO3 says, the
    same figures `settle` gives a deal played in the browser."""
    tonk = make_rules("tonk").spec
    rules = make_rules("tonk")
    assert [e.name for e in tonk.endings] == [
        "tonk", "drawn", "out", "discard-out", "drop", "exhausted",
    ]  # fmt: skip
    assert tonk.ended_points(rules, 3, "tonk", 2, ()) == (-2, -2, 4)  # T4
    assert tonk.ended_points(rules, 4, "out", 1, ()) == (-2, 6, -2, -2)  # T8
    assert tonk.ended_points(rules, 4, "discard-out", 3, ()) == (-1, -1, -1, 3)  # T8
    assert tonk.ended_points(rules, 2, "drop", 0, (4, 9)) == (1, -1)  # T9: lowest
    assert tonk.ended_points(rules, 3, "drop", 0, (9, 13, 5)) == (-5, 1, 4)  # T9, TO12
    assert tonk.ended_points(rules, 3, "drop", 0, (9, 9, 20)) == (-4, 2, 2)  # TO4
    assert tonk.ended_points(rules, 3, "exhausted", None, (30, 8, 12)) == (-1, 2, -1)  # T10
    assert tonk.ended_points(rules, 3, "exhausted", None, (8, 8, 12)) == (0, 0, 0)  # tie
    five = make_rules("tonk", {"five_card": True})
    assert tonk.ended_points(five, 3, "drawn", None, ()) == (0, 0, 0)  # T4, TO9
    hands = [parse_cards("9S"), parse_cards("KH 3C"), parse_cards("5D")]
    played = settle("drop", 0, hands, 3).payments
    assert tonk.ended_points(rules, 3, "drop", 0, tuple(count(h) for h in hands)) == played


@pytest.mark.parametrize(
    ("options", "players", "ending", "seat", "counts", "says"),
    [
        ({}, 3, "knock", 0, (), "no ending 'knock'"),
        ({}, 3, "drop", None, (1, 2, 3), "name the dropper"),
        ({}, 3, "out", 3, (), "name who went out"),
        ({}, 3, "drop", 0, (1, 2), "each of the 3 players' counts"),
        ({}, 3, "exhausted", None, (1, 0, 3), "a count of 0 cannot be"),
        ({}, 3, "exhausted", None, (1, 71, 3), "counting 1 to 70"),
        ({"five_card": True}, 3, "drop", 1, (1, 51, 3), "counting 1 to 50"),
        ({}, 2, "drawn", None, (), "need Five Card Tonk"),  # TO9
        ({}, 6, "out", 0, (), "2–5 players, not 6"),
    ],
)
def test_impossible_physical_results_are_refused(
    options: dict[str, Any], players: int, ending: str, seat: int | None,
    counts: tuple[int, ...], says: str,
) -> None:  # fmt: skip
    rules = make_rules("tonk", options)
    with pytest.raises(InvalidActionError, match=says):
        rules.spec.ended_points(rules, players, ending, seat, counts)


def test_the_deals_end_is_told_in_tonks_words() -> None:
    """The end of a deal names how it ended (T4, T8, T9, T10, TO4) and shows counts
    (T11), not the rummy games' "went out" and pips (L23, L24)."""
    from games.play import presenters

    seats = [{"position": p, "name": n} for p, n in enumerate(["Ann", "Bob", "Cy"])]
    hands = [parse_cards("9S"), parse_cards("KH 3C"), parse_cards("5D")]
    out = settle("drop", 0, hands, 3).to_json()
    end = presenters.outcome_context(out, seats, make_rules("tonk").spec)
    assert end is not None
    assert end["headline"] == "the dropper was caught: Cy had the lowest count (T9)"
    assert (end["shown"], end["worth"]) == ("Hand counted (T9, T11)", "Count")
    assert [r["pips"] for r in end["rows"]] == [9, 13, 5]
    tied = presenters.outcome_context(
        settle("drop", 0, [parse_cards("9S"), parse_cards("9H"), parse_cards("KD")], 3).to_json(),
        seats, make_rules("tonk").spec,
    )  # fmt: skip
    assert tied is not None and "not the lowest, so he pays 2 to each (T9, TO4)" in tied["headline"]
    for kind, said in [("out", "Ann Tonked out (T8)"), ("tonk", "called Tonk on the deal"),
                       ("discard-out", "by the discard (T8)"), ("drop", "lowest count (T9)"),
                       ("exhausted", "the pack ran out"), ("drawn", "nothing paid")]:  # fmt: skip
        headline = make_rules("tonk").spec.headline(kind, "Ann")
        assert headline is not None and said in headline
    rummy = presenters.outcome_context(out, seats, make_rules("foster").spec)
    assert rummy is not None and rummy["worth"] == "Pips"


def test_the_quick_no_spread_answer_agrees_with_the_search() -> None:
    """T6, TO2: the quick answer that skips the search (bits of a hand's suits and ranks)
    says "no spread" only when the search finds none, over 5,000 random hands of 5 to 8
    cards (no wild cards: without twos the wild search is the plain one)."""
    from games.engine.spreads import may_spread

    rng = random.Random(40)
    pack = make_rules("tonk").spec.pack(make_rules("tonk"))
    seen = Counter()
    for _ in range(5000):
        hand = [c for c in rng.sample(pack, rng.randint(5, 8)) if c.rank != 2]
        found = bool(spreads_in(hand, wild=True))
        assert may_spread(hand) == found, [c.code for c in hand]
        seen[found] += 1
    assert seen[True] > 300 and seen[False] > 3000  # both answers are seen, many times
