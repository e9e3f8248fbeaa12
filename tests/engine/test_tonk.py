"""Tonk's laws (T1–T12), its options (T-opt-1..3) and our settled points (TO1–TO14),
one test or more for each, citing it; a property test over random deals of every option
set; snapshots, replays and ``from_view``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.engine import (
    Card,
    IllegalActionError,
    InvalidActionError,
    make_rules,
    new_deal,
    parse_cards,
)
from games.engine.records import Kind
from games.engine.spreads import count, spreads_in
from games.engine.tonk.deal import TonkDeal
from games.engine.tonk.scoring import settle

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
    d = arrange(
        ["JC QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D"], "9S", dealer=2
    )
    assert d.phase == "call" and texts(d) == ["0 call", "0 no-call"]
    play(d, "0 call")
    # TO5: the others are asked too, and the call is resolved when all have answered
    assert not d.is_over() and texts(d) == ["1 no-call"]
    play(d, "1 no-call", "2 no-call")
    out = d.outcome()
    assert out is not None and out.kind == "tonk" and out.winner == 0
    assert out.payments == (4, -2, -2)  # TO3: each other player pays the 2
    assert [r.kind for r in d.log[1:]] == [Kind.TONK_CALL]


def test_to5_every_player_is_in_the_call_round_and_sees_the_same_until_it_closes() -> None:
    """Issue 58, item 5: whose turn it is, and what anyone else sees, never says whether
    a hand may call; a call is shown only when the round is over."""
    others = ["2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D"]
    courts = arrange(["JC QC KC JD QD KD JH", *others], "9S", dealer=2)
    plain = arrange(["2H 3H 4H 5H 6H 7H 8H", *others], "9S", dealer=2)
    for d in (courts, plain):
        assert d.phase == "call" and d.to_move() == 0 and d.callers == [0, 1, 2]
    public = ("to_move", "phase", "callers", "calls", "asked", "log", "hand_counts")
    for other in (1, 2):
        a, b = courts.player_view(other), plain.player_view(other)
        assert {k: a[k] for k in public} == {k: b[k] for k in public}
    play(courts, "0 call")
    play(plain, "0 no-call")
    for other in (1, 2):  # the call is not shown while the round is open
        a, b = courts.player_view(other), plain.player_view(other)
        assert {k: a[k] for k in public} == {k: b[k] for k in public}
    assert (
        courts.spectator_view()["calls"] == []
        and courts.spectator_view()["log"] == plain.spectator_view()["log"]
    )


def test_t4_a_hand_below_a_jack_lets_the_round_go_by_and_may_not_call() -> None:
    d = arrange(["2H 3H 4H 5H 6H 7H 8H", "2C 3C 4C 5C 6C 7C 8C"], "9S", dealer=1)
    assert texts(d) == ["0 no-call"]
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 call"))
    assert e.value.law == "T4" and "below a jack" in e.value.reason
    play(d, "0 no-call", "1 no-call")
    assert d.phase == "draw" and d.to_move() == 0
    assert d.log[-1].kind is Kind.NO_CALL and d.log[-1].seat is None


def test_to5_a_hand_that_may_call_may_let_it_go_and_play_begins() -> None:
    d = arrange(["JC QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C"], "9S", dealer=1)
    play(d, "0 no-call", "1 no-call")
    assert d.phase == "draw" and d.to_move() == 0
    with pytest.raises(IllegalActionError) as e:
        d.apply(d.rules.spec.parse_text("0 call"))
    assert e.value.law == "T4"


def test_t4_a_ten_does_not_call_in_the_seven_card_game_but_does_in_five_card() -> None:
    d = arrange(["10C QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C"], "9S", dealer=1)
    assert texts(d) == ["0 no-call"]  # seat 0 holds a ten: he may not call
    five = arrange(["10C QC KC JD QD", "10D JS QS KS 10H"], "9S", dealer=1, five_card=True)
    assert (
        five.phase == "call" and five.callers == [0, 1] and texts(five) == ["0 call", "0 no-call"]
    )


def test_t4_two_calls_draw_the_deal_in_five_card_tonk_to9() -> None:
    d = arrange(["10C QC KC JD QD", "10D JS QS KS 10H", "2C 3C 4C 5C 6C"], "9S",
                dealer=2, five_card=True)  # fmt: skip
    play(d, "0 call", "1 call", "2 no-call")
    out = d.outcome()
    assert out is not None and out.kind == "drawn" and out.payments == (0, 0, 0)
    assert d.log[-1].kind is Kind.DRAWN and d.log[-1].number == 2


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
    play(d, "0 no-call", "1 no-call")  # TO5: the call round first
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
    assert (
        tied is not None and "not the lowest, so they pay 2 to each (T9, TO4)" in tied["headline"]
    )
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


def test_to5_a_deal_dealt_before_issue_58_replays_as_it_was_played() -> None:
    """Deals dealt before every player was in the call round keep their rule (call_round
    "courts", an option no table is offered): only the hands that may call are asked,
    each answer logged as given, so their recorded actions replay."""
    from games.engine.variant import find_variant

    tonk = find_variant("tonk")
    assert "call_round" not in {o.name for o in tonk.options}  # never offered
    assert "call_round" not in dict(make_rules("tonk").options)  # nor carried by new deals
    d = arrange(["JC QC KC JD QD KD JH", "2C 3C 4C 5C 6C 7C 8C"], "9S", dealer=1,
                call_round="courts")  # fmt: skip
    assert d.callers == [0] and texts(d) == ["0 call", "0 no-call"]
    play(d, "0 no-call")
    assert d.phase == "draw" and d.log[-1].kind is Kind.NO_CALL and d.log[-1].seat == 0
    plain = arrange(["2H 3H 4H 5H 6H 7H 8H", "2C 3C 4C 5C 6C 7C 8C"], "9S", dealer=1,
                    call_round="courts")  # fmt: skip
    assert plain.phase == "draw" and not tonk.capabilities(plain.rules).call_round
    with pytest.raises(InvalidActionError):
        make_rules("tonk", call_round="nobody")
