"""Tunk's laws (K1-K11) and our settled points (KO1-KO11), one test or more for each,
citing it; the game of many deals; a property test over random games; snapshots,
replays and ``from_view``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import partial
from itertools import combinations

import pytest

from games.engine import (
    Card,
    Hidden,
    IllegalActionError,
    deal_from_view,
    make_rules,
    new_deal,
    parse_cards,
    record,
    replay,
)
from games.engine.actions import Action
from games.engine.cards import IN_ORDER, SUITS
from games.engine.combinations import Combination, Placed
from games.engine.deal import deal_from_json
from games.engine.records import Kind
from games.engine.spreads import TUNK as TUNK_LAWS
from games.engine.spreads import (
    VALUE_BY_ORDER,
    count,
    hit_spread,
    hits_for,
    spread_of,
    spreads_in,
    value,
)
from games.engine.tunk.deal import LIMIT, TunkDeal
from games.engine.tunk.game import TunkGame, play_game
from games.engine.tunk.melds import Groupings, grouping, last_turn, tunk_discards, tunker_melds
from games.engine.tunk.scoring import penalties, settle
from games.engine.words import sentence
from tests.scale import scaled

RULES = make_rules("tunk")


def arrange(hands: list[str], stock: str, pack: str = "", *, dealer: int = 0,
            scores: tuple[int, ...] = ()) -> TunkDeal:  # fmt: skip
    """A deal in which seat ``s`` still in is dealt ``hands[s]`` (singly from the
    dealer's left, K3; "" for a seat that has left), ``stock`` is turned up, and
    ``pack`` are the pack's next cards, top first."""
    n = len(hands)
    active = [s for s in range(n) if hands[s]]
    order_seats = [s for s in active if s > dealer] + [s for s in active if s <= dealer]
    parsed = {s: parse_cards(hands[s]) for s in active}
    order: list[Card] = []
    for i in range(7 * len(active)):
        order.append(parsed[order_seats[i % len(active)]][i // len(active)])
    order += parse_cards(stock) + parse_cards(pack)
    rest = [c for c in RULES.spec.pack(RULES) if c not in set(order)]
    d = new_deal(RULES, n, dealer, pack=order + rest, scores_in=scores or (0,) * n)
    assert isinstance(d, TunkDeal)
    return d


def play(d: TunkDeal, *texts: str) -> None:
    for t in texts:
        d.apply(d.rules.spec.parse_text(t))


def texts(d: TunkDeal) -> list[str]:
    seat = d.to_move()
    return [] if seat is None else [a.text for a in d.legal_actions(seat)]


# Seat 1 (the dealer's left) holds three melds but for the 4C and the 9D.
LOW = ["KS QS 9H 8D 6C 4D JH", "5H 6H 7H JD JS JC 4C"]


# ---------------------------------------------------------------- K1-K3: pack and deal


def test_k1_one_pack_of_52_two_to_five_players_every_two_wild() -> None:
    pack = RULES.spec.pack(RULES)
    assert len(pack) == 52 and len(set(pack)) == 52 and not any(c.is_joker for c in pack)
    assert (RULES.spec.min_players, RULES.spec.max_players) == (2, 5)
    for n in (2, 3, 4, 5):
        d = new_deal(RULES, n, 0, seed=n)
        assert all(len(h) == 7 for h in d.hands)  # type: ignore[attr-defined]
    caps = RULES.spec.capabilities(RULES)
    assert caps.wild_cards and caps.wild == "deuces"
    g = grouping(parse_cards("5H 2C 7H KD 9S 4S AC"))  # the two of clubs as the six
    assert [p.code for p in g.melds[0]] == ["5H", "2C=6H", "7H"]


def test_k2_the_first_dealer_is_cut_for_and_the_game_starts_at_his_left() -> None:
    # K2: the club's cut chooses the first dealer (L2's cutting pack is the game's pack).
    assert sorted(RULES.spec.cutting_pack(RULES)) == sorted(c.code for c in RULES.spec.pack(RULES))
    d = new_deal(RULES, 4, 2, seed=1)
    assert d.to_move() == 3


def test_k3_seven_each_singly_from_the_dealers_left_the_next_card_starts_the_stock() -> None:
    d = arrange(LOW, "KD", "3S", dealer=0)
    assert d.hands[1] == sorted(parse_cards(LOW[1]), key=lambda c: c.order)
    assert [c.code for c in d.stock] == ["KD"] and d.pack[-1].code == "3S"
    assert d.to_move() == 1 and len(d.pack) == 52 - 14 - 1
    assert d.log[0].kind is Kind.DEAL and d.log[0].law == "K3"


# ---------------------------------------------------------------- K4-K7: play


def test_k4_melds_stay_in_the_hand_nothing_is_laid_on_the_table_in_play() -> None:
    d = arrange(LOW, "KD", "3S")
    play(d, "1 draw")
    assert {t.split()[1] for t in texts(d)} <= {"discard", "tunk"}
    assert d.player_view(0)["combinations"] == [] and len(d.hands[1]) == 8


def test_k5_a_turn_is_a_draw_from_the_pack_or_the_stock_then_a_discard() -> None:
    d = arrange(LOW, "KD", "3S")
    assert texts(d) == ["1 draw", "1 pluck"]
    with pytest.raises(IllegalActionError) as e:
        play(d, "1 discard 4C")
    assert e.value.law == "K5"
    play(d, "1 draw")
    assert (
        d.player_view(1)["hand"].count("3S") == 1
        and d.player_view(0)["log"][-1].get("cards") is None
    )
    play(d, "1 discard 3S")
    assert d.to_move() == 0 and d.stock[-1].code == "3S"


def test_k5_a_card_taken_from_the_stock_may_not_be_the_same_turns_discard() -> None:
    d = arrange(LOW, "KD", "3S")
    play(d, "1 pluck")
    assert "1 discard KD" not in texts(d) and "1 tunk KD" not in texts(d)
    with pytest.raises(IllegalActionError) as e:
        play(d, "1 discard KD")
    assert e.value.law == "K5"
    assert "taken from the stock" in (d.why_no_discard() or "")


def test_k6_unmatched_cards_count_courts_and_tens_10_a_two_2_the_ace_1_ko1() -> None:
    assert count(parse_cards("KS QH JD 10C")) == 40
    assert count(parse_cards("2C 9D AS")) == 12
    g = grouping(parse_cards("2C 9D AS KH"))  # no meld: the wild two counts 2 (K6)
    assert g.points == 22 and g.melds == ()


def test_k7_ko3_ko9_tunk_with_five_or_less_unmatched_in_the_seven_left() -> None:
    d = arrange(LOW, "KD", "3S")
    play(d, "1 draw")  # 3S: the hand is 5H 6H 7H JD JS JC 4C 3S
    legal = texts(d)
    # discarding the 4C leaves the three melds and the 3S: 3 unmatched
    assert "1 tunk 4C" in legal and "1 tunk 3S" in legal and "1 tunk JS" not in legal
    play(d, "1 tunk 4C")
    assert d.is_over() and d.tunker == 1 and d.stock[-1].code == "4C"
    tunk = next(r for r in d.log if r.kind is Kind.TUNK)
    assert tunk.law == "K7" and tunk.number == 3


def test_k7_a_tunk_over_five_is_refused_and_changes_nothing() -> None:
    d = arrange([LOW[1], LOW[0]], "KD", "3S")  # seat 1 holds no meld
    play(d, "1 draw")
    before = d.to_json()
    with pytest.raises(IllegalActionError) as e:
        play(d, "1 tunk KS")
    assert e.value.law == "K7" and "count 50 unmatched" in str(e.value)
    assert d.to_json() == before
    assert not any(t.startswith("1 tunk") for t in texts(d))
    assert d.why_no_tunk() == "your best seven cards leave 50 unmatched; Tunk needs 5 or less (K7)"


# ---------------------------------------------------------------- K8, K9: the end


def test_k8_ko4_every_other_player_lays_down_and_lays_off_on_the_tunkers_melds() -> None:
    # Seat 0 holds KS QS 9H 8D 6C 4D JH: nothing of his own; the 8H goes on the Tunker's
    # run of hearts, the JH (by KO10 a natural card) on the Tunker's set of jacks.
    d = arrange(["KS QS 9H 8H 6C 4D JH", "5H 6H 7H JD JS JC 4C"], "KD", "3S")
    play(d, "1 draw", "1 tunk 4C")
    offs = [r for r in d.log if r.kind is Kind.LAY_OFF]
    assert [(r.seat, r.cards, r.law) for r in offs] == [
        (0, ("8H",), "K8"), (0, ("9H",), "K8"), (0, ("JH",), "K8")
    ]  # fmt: skip
    shows = [r for r in d.log if r.kind is Kind.SHOW]
    assert [(r.seat, r.number) for r in shows] == [(0, 10 + 10 + 6 + 4)]
    out = d.outcome()
    assert out is not None and out.pips == (30, 3)


def test_k8_no_lay_off_on_a_tunker_without_an_unmatched_card() -> None:
    hand = parse_cards("8H 9C")
    melds = tunker_melds(1, grouping(parse_cards("5H 6H 7H JD JS JC")).melds)
    assert last_turn(hand, melds, lay_off=False).points == 17
    assert last_turn(hand, melds, lay_off=True).points == 9


def test_k8_lay_off_only_on_the_tunker_the_others_lay_down_their_own() -> None:
    # three players: seat 2 lays down his own run, which seat 0 may not use (K8)
    d = arrange(
        ["KS QS 10C 8D 6C 4D 9H", "5H 6H 7H JD JS JC 4C", "3D 4S 5S 6S KC QC 9C"], "KD", "3C",
        dealer=0,
    )  # fmt: skip
    play(d, "1 draw", "1 tunk 4C")
    assert d.shown[2] == [["4S", "5S", "6S"]]
    assert all(r.seat != 0 or r.cards != ("7S",) for r in d.log)
    # the turns go round from the Tunker's left: seat 2, then seat 0 (KO4)
    assert [r.seat for r in d.log if r.kind is Kind.SHOW] == [2, 0]


def test_k9_each_adds_his_unmatched_count_the_tunkers_doubled_if_another_is_lower() -> None:
    assert penalties(0, (4, 10, 2), (0, 1, 2)) == (8, 10, 2)
    assert penalties(0, (4, 10, 4), (0, 1, 2)) == (4, 10, 4)  # equal is not lower
    out = settle(0, (4, 10, 2), [[], [], []], (0, 1, 2), 3)
    assert out.kind == "tunk-doubled" and out.winner == 2 and sum(out.payments) == 0
    # each pair settles the difference: seat 2 receives 6 from seat 0 and 8 from seat 1
    assert out.payments == (20 - 24, 20 - 30, 20 - 6)


def test_k10_ko8_at_100_a_player_leaves_the_last_left_wins() -> None:
    g = TunkGame(RULES, 3, dealer=1)
    g.after((99, 100, 0))
    assert g.active == (0, 2) and not g.over and g.dealer == 2  # KO7: seat 1 skipped
    g.after((0, 0, 0))  # a break adds nothing (KO6)
    assert g.active == (0, 2) and g.dealer == 0
    g.after((1, 0, 7))
    assert g.over and g.winners == (2,)
    both = TunkGame(RULES, 2)
    both.after((120, 110))
    assert both.winners == (1,)  # KO8: all out at once, the lowest score wins
    tie = TunkGame(RULES, 2)
    tie.after((100, 100))
    assert tie.winners == (0, 1)  # KO8: an exact tie shares the win


def test_k11_ko6_fewer_cards_in_the_pack_than_players_the_deal_is_drawn() -> None:
    d = arrange(LOW, "KD", "3S")
    rng = random.Random(0)
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        plain = [a for a in d.legal_actions(seat) if a.type in ("draw", "discard")]
        d.apply(rng.choice(plain))
    out = d.outcome()
    assert out is not None and out.kind == "break" and len(d.pack) < 2
    assert out.payments == (0, 0) and out.pips == (0, 0)
    assert d.log[-1].kind is Kind.BREAK and d.log[-1].law == "K11"


# ---------------------------------------------------------------- settled points


def test_ko1_the_ace_is_low_only_in_runs() -> None:
    assert grouping(parse_cards("AH 3H 4H")).points == 8  # no 2H: no meld
    assert grouping(parse_cards("AH 2H 3H")).points == 0
    assert grouping(parse_cards("QH KH AH")).points == 21


def test_ko2_sets_of_three_or_four_runs_of_three_a_two_with_no_natural_minimum() -> None:
    assert grouping(parse_cards("9H 2C 2D")).points == 0  # one natural card, two wild
    assert grouping(parse_cards("9H 9D 9S 9C 2C")).points == 2  # a set is four at most
    assert grouping(parse_cards("9H 10H JH QH KH")).points == 0


def test_ko5_the_engine_proposes_the_lowest_count_grouping() -> None:
    # the 7H goes in the run (leaving 7S 7D, 14) or in the set (leaving 5H 6H, 11)
    g = grouping(parse_cards("5H 6H 7H 7S 7D KC QD"))
    assert g.points == 31 and [p.code for p in g.melds[0]] == ["7D", "7H", "7S"]
    g = grouping(parse_cards("5H 6H 7H 7S 7D 7C QD"))
    assert g.points == 10 and len(g.melds) == 2


def test_ko6_ko11_players_out_are_skipped_for_the_deal_the_turns_and_the_break() -> None:
    d = arrange(["KS QS 9H 8D 6C 4D JH", "", "5H 6H 7H JD JS JC 4C"], "KD", "3S",
                dealer=0, scores=(40, 104, 60))  # fmt: skip
    assert d.active == (0, 2) and d.hands[1] == [] and d.to_move() == 2
    play(d, "2 draw", "2 discard 3S")
    assert d.to_move() == 0
    moved = new_deal(RULES, 3, 1, seed=1, scores_in=(40, 104, 60))  # the dealer has left
    assert moved.dealer == 2 and moved.to_move() == 0  # KO7: the deal passes to seat 2
    with pytest.raises(Exception, match="two players still in the game"):
        new_deal(RULES, 3, 0, seed=1, scores_in=(140, 104, 60))


def test_k9_k10_the_next_deal_is_dealt_from_the_scores_after_this_one() -> None:
    d = arrange(["KS QS 9H 8H 6C 4D JH", "5H 6H 7H JD JS JC 4C"], "KD", "3S", scores=(50, 7))
    play(d, "1 draw", "1 tunk 4C")
    assert RULES.spec.scores_after(d) == (80, 10)  # 30 and 3 added (K9)
    d = arrange(["KS QS 9H 8H 6C 4D JH", "5H 6H 7H JD JS JC 4C"], "KD", "3S", scores=(70, 7))
    play(d, "1 draw", "1 tunk 4C")
    assert RULES.spec.scores_after(d) == ()  # seat 0 reaches 100: the game is over (K10)


def test_ko10_a_natural_card_may_not_go_where_a_two_stands_for_it_a_two_may_be_laid_off() -> None:
    melds = tunker_melds(1, grouping(parse_cards("5H 2C 7H")).melds)  # 2C stands for 6H
    t = last_turn(parse_cards("6H 2D"), melds, lay_off=True)
    assert t.points == 6 and [p.code for _, p in t.lay_offs] == ["2D=4H"]


def test_k8_ko5_a_wild_two_goes_where_a_natural_card_can_follow_it() -> None:
    # Issue 58: the last turn laid the 2C off at the low end of the Tunker's 6H 7H 8H
    # (as the 5H), leaving the 10H with nowhere to go: 24. At the high end, as the 9H,
    # the 10H follows it: the 9S and 5D are left, 14, the lowest the hand can keep.
    d = arrange(["10H 2C 4C 4D 4S 9S 5D", "6H 7H 8H QC QD QS 3D"], "KS", "KD")
    play(d, "1 draw", "1 tunk KD")
    shows = [(r.seat, r.number) for r in d.log if r.kind is Kind.SHOW]
    assert shows == [(0, 9 + 5)]
    offs = [(r.seat, r.cards) for r in d.log if r.kind is Kind.LAY_OFF]
    assert offs == [(0, ("2C=9H",)), (0, ("10H",))]


def test_k8_ko5_a_two_and_a_ten_go_out_on_a_run_of_three() -> None:
    melds = tunker_melds(1, [tuple(Placed(c, c) for c in parse_cards("6H 7H 8H"))])
    t = last_turn(parse_cards("10H 2C"), melds, lay_off=True)
    assert t.points == 0 and [p.code for _, p in t.lay_offs] == ["2C=9H", "10H"]
    assert [m.code for m in t.tunker_melds] == ["6H 7H 8H 2C=9H 10H"]


def _lowest_last_turn(hand: list[Card], melds: list[Combination]) -> int:
    """The lowest count of every legal last turn, tried one move at a time in every
    order (K8, KO10): lay down any meld the cards left make (:func:`spreads_in`, wild
    twos), or lay any card off on any place of the Tunker's melds it fits."""
    seen: dict[tuple[tuple[Card, ...], tuple[str, ...]], int] = {}

    def low(cards: tuple[Card, ...], table: tuple[Combination, ...]) -> int:
        key = (cards, tuple(m.code for m in table))
        if key in seen:
            return seen[key]
        best = count(cards)
        for meld in spreads_in(cards, wild=True, naturals=1):
            used = {p.card for p in meld}
            best = min(best, low(tuple(c for c in cards if c not in used), table))
        for c in cards:
            for sid, p in hits_for([c], table, wild=True):
                after = tuple(
                    hit_spread(m, p, wild=True, laws=TUNK_LAWS) if m.id == sid else m for m in table
                )
                best = min(best, low(tuple(x for x in cards if x != c), after))
        seen[key] = best
        return best

    return low(tuple(hand), tuple(melds))


def test_ko5_k8_no_last_turn_leaves_a_lower_count_1000_random_ends() -> None:
    """1,000 seeded ends: a Tunker's melds from a random hand, another hand drawn half
    from the cards next to them (their ranks, their runs' ends, twos) and half at random.
    The engine's last turn is legal as laid (its melds spreads, its lay-offs placed one
    by one on the Tunker's melds) and leaves no more than the lowest of every other."""
    pack = [Card(r, s) for s in SUITS for r in range(1, 14)]
    rng = random.Random(58)
    tried = lowered = 0
    while tried < 1000:
        tunker = rng.sample(pack, 7)
        g = grouping(tunker)
        if not g.melds:
            continue
        melds = tunker_melds(1, g.melds)
        rest = [c for c in pack if c not in tunker]
        ranks = {p.named.rank for m in g.melds for p in m}
        near = [c for c in rest if c.rank == 2 or any(abs(c.rank - r) <= 2 for r in ranks)]
        hand = rng.sample(near, min(len(near), rng.randint(1, 4)))
        hand += rng.sample([c for c in rest if c not in hand], 7 - len(hand))
        lay_off = rng.random() < 0.9
        t = last_turn(hand, melds, lay_off=lay_off)
        # legal as laid: the hand's own melds are spreads, each lay-off fits where it goes
        own = [p.card for m in t.melds for p in m]
        tunker_melds(0, t.melds)
        table = list(melds)
        for sid, p in t.lay_offs:
            assert lay_off and p.card in hand and p.card not in own
            table[sid] = hit_spread(table[sid], p, wild=True, laws=TUNK_LAWS)
        used = set(own) | {p.card for _, p in t.lay_offs}
        assert sorted(used | set(t.unmatched), key=IN_ORDER) == sorted(hand, key=IN_ORDER)
        assert t.points == count(t.unmatched)
        assert [m.code for m in table] == [m.code for m in t.tunker_melds]
        low = _lowest_last_turn(hand, melds if lay_off else [])
        assert t.points == low, (hand, [m.code for m in melds], lay_off, t)
        tried += 1
        lowered += bool(t.lay_offs)
    assert lowered > 200, lowered  # the ends lay off often enough to test it (261)


def test_k1_ko5_two_melds_may_each_take_twos() -> None:
    # 8C 9C with a two, 7S with two more: only the AC is left (the search once gave every
    # run the same first two, so the second meld found none)
    g = grouping(parse_cards("8C 9C 7S 2H 2D 2S AC"))
    assert g.points == 1 and [c.code for c in g.unmatched] == ["AC"]
    assert sorted(len(m) for m in g.melds) == [3, 3]
    tunker_melds(0, g.melds)  # each is a spread as laid


def test_k1_k7_a_two_may_stand_for_the_card_discarded_so_that_card_tunks_too() -> None:
    # 5H 6H 7H, three kings, the AD and the 2C: discarding the 6H leaves 5H 2C=6H 7H,
    # the kings and the AD (1); so does every other discard
    d = arrange(["9S 8D 6C 4D JH 10S 3C", "5H 6H 7H KS KD KC AD"], "QD", "2C")
    play(d, "1 draw")
    assert sorted(a.split()[-1] for a in texts(d) if " tunk " in a) == sorted(
        ["5H", "6H", "7H", "KS", "KD", "KC", "AD", "2C"]
    )
    play(d, "1 tunk 6H")
    assert d.is_over() and d.tunker == 1
    shown = [p for m in d.melds for p in m.to_json()["cards"]]
    assert {"card": "2C", "as": "6H", "crossways": False} in shown


def _is_meld(cards: list[Card]) -> bool:
    """By the rules themselves (K1, KO1, KO2): some set or run of the pack takes the
    natural cards in their own places and the twos in the others (the twos named so
    are checked by :func:`spread_of`)."""
    naturals = [c for c in cards if c.rank != 2]
    twos = [c for c in cards if c.rank == 2]
    n = len(cards)
    if n < 3:
        return False
    shapes: list[list[Card]] = []
    if n <= 4:  # sets: of the naturals' rank, or of twos as they stand
        rank = naturals[0].rank if naturals else 2
        shapes += [[Card(rank, s) for s in suits] for suits in combinations(SUITS, n)]
    if naturals:  # runs of the naturals' suit, the ace low
        shapes += [
            [Card(r, naturals[0].suit) for r in range(lo, lo + n)] for lo in range(1, 15 - n)
        ]
    for shape in shapes:
        if all(c in shape for c in naturals):
            free = [x for x in shape if x not in naturals]
            placed = [Placed(c, c) for c in naturals] + [
                Placed(t, x) for t, x in zip(twos, free, strict=True)
            ]
            spread_of(placed, wild=True, laws=TUNK_LAWS)
            return True
    return False


def _lowest(cards: list[Card]) -> int:
    """The lowest unmatched count by trying every set of disjoint melds (KO5)."""
    n = len(cards)
    melds = [
        sum(1 << i for i in m)
        for k in range(3, n + 1)
        for m in combinations(range(n), k)
        if _is_meld([cards[i] for i in m])
    ]
    worth = [value(c) for c in cards]

    def best(used: int, start: int) -> int:
        low = sum(w for i, w in enumerate(worth) if not used >> i & 1)
        for k in range(start, len(melds)):
            if not melds[k] & used:
                low = min(low, best(used | melds[k], k + 1))
        return low

    return best(0, 0)


def test_ko5_k7_the_search_agrees_with_every_grouping_tried_60_hands() -> None:
    """60 seeded eight-card hands, most with twos or low cards: for each discard, the
    count :class:`Groupings` finds and the Tunks :func:`tunk_discards` offers are those
    of trying every set of melds; each grouping is laid as spreads."""
    pack = [Card(r, s) for s in SUITS for r in range(1, 14)]
    rng = random.Random(2026)
    tunks = 0
    for i in range(60):
        kind = i % 3
        if kind == 0:
            hand = rng.sample(pack, 8)
        else:
            pool = (
                [c for c in pack if c.rank == 2] if kind == 1 else [c for c in pack if c.rank <= 5]
            )
            hand = rng.sample(pool, rng.randint(1, 4) if kind == 1 else rng.randint(3, 7))
            suit, rank = rng.choice(SUITS), rng.randint(1, 13)
            near = [c for c in pack if c not in hand and (c.suit is suit or c.rank == rank)]
            hand += rng.sample(near, min(len(near), rng.randint(0, 8 - len(hand))))
            hand += rng.sample([c for c in pack if c not in hand], 8 - len(hand))
        barred = hand[0] if i % 4 == 0 else None
        g = Groupings(hand)
        want = []
        for d in hand:
            low = _lowest([c for c in hand if c is not d])
            assert g.points(d) == low, (hand, d)
            laid = g.of(d)
            assert laid.points == low and tunker_melds(0, laid.melds) is not None
            if d is not barred and low <= LIMIT:
                want.append(d)
        assert set(tunk_discards(hand, barred, LIMIT)) == set(want), (hand, barred)
        tunks += bool(want)
    assert tunks > 10  # the hands reach the Tunk often enough to test it


# ---------------------------------------------------------------- the whole game


def _random(d: TunkDeal, seat: int, *, rng: random.Random) -> Action:
    legal = d.legal_actions(seat)
    tunks = [a for a in legal if a.type == "tunk"]
    return rng.choice(tunks if tunks and rng.random() < 0.7 else legal)


def test_cards_conserved_points_sum_to_zero_1000_random_games_to_the_end() -> None:
    """1,000 random games, each played to one player left (K10)."""
    kinds: Counter[str] = Counter()
    deals_seen = 0
    for seed in range(1000):
        rng = random.Random(seed)
        game, deals = play_game(
            RULES, 2 + seed % 4, partial(_random, rng=rng),
            seed=seed, limit=500,
        )  # fmt: skip
        assert game.over and len(game.winners) >= 1
        # the club's path (Variant.scores_after, game_winners) agrees with the game's
        for d, following in zip(deals, deals[1:], strict=False):
            assert RULES.spec.scores_after(d) == following.scores_in
            assert not RULES.spec.ends_game(d)
        assert RULES.spec.game_winners(deals[-1]) == game.winners
        assert RULES.spec.ends_game(deals[-1]) and RULES.spec.scores_after(deals[-1]) == ()
        for d in deals:
            every = [c for h in d.hands for c in h] + d.stock + d.pack
            assert Counter(every) == Counter(RULES.spec.pack(RULES))
            out = d.outcome()
            assert out is not None and sum(out.payments) == 0
            kinds[out.kind] += 1
        deals_seen += len(deals)
    assert {"tunk", "tunk-doubled", "break"} <= set(kinds), kinds


def test_snapshot_replay_and_from_view_round_trip() -> None:
    rng = random.Random(5)
    game, deals = play_game(RULES, 3, partial(_random, rng=rng), seed=5)
    later = [d for d in deals if len(d.active) < 3] or deals
    for d in deals[:5] + later[-2:]:
        data = json.loads(json.dumps(d.to_json()))
        assert deal_from_json(data) == d
        again = replay(json.loads(json.dumps(record(d))))
        assert again.error is None and record(again.state) == record(d)
    d = deals[0]
    probe = new_deal(d.rules, d.players, d.dealer, pack=list(d.pack_order), scores_in=d.scores_in)
    for action in d.history:
        seat = probe.to_move()
        assert seat is not None and isinstance(probe, TunkDeal)
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


def test_every_record_kind_of_tunk_has_its_sentence() -> None:
    d = arrange(["KS QS 9H 8H 6C 4D JH", "5H 6H 7H JD JS JC 4C"], "KD", "3S")
    play(d, "1 draw", "1 tunk 4C")
    words = [sentence(r.seen_by(0)) for r in d.log]
    assert words[0] == "deals 7 each; KD starts the stock"
    assert "calls Tunk, showing 5H 6H 7H JC JD JS with 3 unmatched" in words
    assert "lays 8H off on the Tunker's meld 0" in words


def test_the_hidden_draw_is_seen_by_the_drawer_only_and_other_hands_never() -> None:
    d = arrange(LOW, "KD", "3S")
    play(d, "1 draw")
    other = d.player_view(0)
    assert "3S" not in json.dumps(other["log"]) and other["hand"] == [c.code for c in d.hands[0]]
    assert "5H" not in json.dumps(other)
    assert d.player_view(1)["count"] is None  # eight cards: the count is of seven


def test_k7_the_quick_refusal_never_hides_a_tunk() -> None:
    """``tunk_discards`` refuses a hand of no wild two or one without making its melds
    when even every natural that is in some meld would not count enough (issue 58's
    bench), or with one two and no meld of naturals alone, the best single meld (issue
    80's). The bound is at least the worth of every meld (K1, KO2) and of any two laid
    together, and the Tunks offered are those :class:`Groupings` finds, over 1,500 hands
    drawn near a Tunk (low cards, runs and pairs, no two or one)."""
    from games.engine.tunk.melds import _meldable_worth, _melds

    pack = [Card(r, s) for s in SUITS for r in range(1, 14)]
    low = [c for c in pack if c.rank <= 6 and c.rank != 2]
    twos = [c for c in pack if c.rank == 2]
    rng = random.Random(58)
    cut = tunks = looser = 0
    for i in range(scaled(1500)):
        hand = rng.sample(twos, i % 2)
        hand += rng.sample([c for c in (low if i % 3 else pack) if c not in hand], 8 - len(hand))
        naturals = [c for c in hand if c.rank != 2]
        wild = len(hand) - len(naturals)
        bound = _meldable_worth(naturals, wild) if wild < 2 else 10**6
        melds = _melds(naturals, wild)
        for m in melds:
            assert m.worth <= bound, hand
        for i_a, a in enumerate(melds):  # two melds laid together, each with its twos
            for b in melds[i_a + 1 :]:
                if not a.naturals & b.naturals and a.least + b.least <= wild:
                    assert a.worth + b.worth <= bound, hand
        one_two_alone = wild == 1 and all(m.least for m in melds)
        looser += one_two_alone and bound < sum(
            VALUE_BY_ORDER[c.order]
            for c in naturals
            if any(m.naturals >> c.order & 1 for m in melds)
        )
        barred = hand[-1] if i % 5 == 0 else None
        g = Groupings(hand)
        want = {d for d in hand if d is not barred and g.points(d) <= LIMIT}
        assert set(tunk_discards(hand, barred, LIMIT)) == want, (hand, barred)
        tunks += bool(want)
        total = sum(VALUE_BY_ORDER[c.order] for c in naturals)
        cut += bound < total - max(VALUE_BY_ORDER[c.order] for c in naturals) - LIMIT
    assert tunks > scaled(1500) // 20 and cut > scaled(1500) // 4  # both paths are taken
    # With one two and no meld of naturals alone, one meld at most: the bound is the
    # best rank's pair or suit's run, below the worth of every natural in some meld.
    assert looser > scaled(1500) // 20
