"""Property tests for two-player Conquián: random legal play, hidden information, replay,
and the exact agreement of legal_actions with apply.

Run as a script for the speed check: ``.venv/bin/python tests/engine/test_conquian_props.py``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scale import scaled

sys.path.insert(0, str(Path(__file__).parent))

from conquian_helpers import random_play, views

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.conquian.actions import (
    ForceAction,
    MeldAction,
    PassAction,
    ThrowAction,
    TradeAction,
    TurnAction,
    UseAction,
    action_from_json,
    action_from_text,
)
from games.engine.conquian.deal import ConquianDeal, new_conquian_deal
from games.engine.conquian.melds import is_combination
from games.engine.errors import IllegalActionError, InvalidActionError
from games.engine.rules import make_rules

OPTIONS = st.fixed_dictionaries(
    {
        "pack": st.sampled_from(["forty", "spanish", "full"]),
        "upcard": st.booleans(),
        "trade": st.booleans(),
        "scoring": st.sampled_from(["game-points", "pips"]),
        "carry": st.booleans(),
        "deal": st.sampled_from(["pairs", "singly"]),
        "court_pips": st.sampled_from(["ten", "spanish"]),
        "eight_cap": st.booleans(),
    }
)
SETTINGS = settings(max_examples=scaled(60), deadline=None)


def new_deal(options: dict[str, Any], seed: int, dealer: int, carry: int) -> ConquianDeal:
    rules = make_rules("conquian", **options)
    return new_conquian_deal(rules, dealer, seed=seed, carry_in=carry if options["carry"] else 0)


def check_invariants(d: ConquianDeal) -> None:
    # cards conserved: hands + pack + combinations + dead + in play = the pack's 40 or 52
    assert sum(d.card_counts().values()) == len(d._order)
    v = d.spectator_view()
    for combo in v["combinations"]:
        idx = d._idx  # every combination on the table stays a valid one (book p.54)
        assert is_combination((idx[Card.from_code(c["card"])] for c in combo["cards"]), d._order)
    if not d.is_over():  # hand + own combinations = 10 between turns, 11 while placing
        for s in (0, 1):
            total = v["hand_counts"][s] + v["down_counts"][s]
            assert total == 10 or (total == 11 and v["phase"] == "discard" and d.to_move() == s)


@SETTINGS
@given(OPTIONS, st.integers(0, 2**32), st.integers(0, 1), st.integers(0, 3), st.integers(0, 9))
def test_random_play_ends_and_payments_sum_to_zero(
    options: dict[str, Any], seed: int, dealer: int, carry: int, play_seed: int
) -> None:
    d = new_deal(options, seed, dealer, carry)
    rng = random.Random(play_seed)
    check_invariants(d)
    n = 0
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        assert d.legal_actions(1 - seat) == []
        d.apply(rng.choice(d.legal_actions(seat)))
        n += 1
        assert d.version == n
        check_invariants(d)
    o = d.outcome()
    assert o is not None and sum(o.payments) == 0 and o.kind in ("out", "tableau")
    assert o.scoring == options["scoring"]
    if o.kind == "tableau":
        assert o.payments == (0, 0) and o.carried == ((d.carry_in + 1) if options["carry"] else 0)
    else:
        assert (
            o.winner is not None
            and o.payments[o.winner] > 0
            or (options["scoring"] == "pips" and o.payments == (0, 0))
        )
        assert o.winner is not None and len(o.hands[o.winner]) == 0 and o.carried == 0


@SETTINGS
@given(OPTIONS, st.integers(0, 2**32), st.integers(0, 1), st.integers(0, 9))
def test_player_view_never_shows_the_other_hand_or_the_pack(
    options: dict[str, Any], seed: int, dealer: int, play_seed: int
) -> None:
    d = new_deal(options, seed, dealer, 0)
    rng = random.Random(play_seed)
    while not d.is_over():
        hands = [d.player_view(s)["hand"] for s in (0, 1)]
        pack = [
            c.code for c in d.pack_order[len(d.pack_order) - d.spectator_view()["pack_count"] :]
        ]
        for s in (0, 1):
            text = json.dumps(d.player_view(s))
            assert not any(f'"{c}"' in text for c in hands[1 - s] + pack)
            assert "pack_order" not in text
        text = json.dumps(d.spectator_view())
        assert not any(f'"{c}"' in text for c in hands[0] + hands[1] + pack)
        seat = d.to_move()
        assert seat is not None
        d.apply(rng.choice(d.legal_actions(seat)))
    assert d.spectator_view()["outcome"] is not None  # both hands revealed at the end


@SETTINGS
@given(OPTIONS, st.integers(0, 2**32), st.integers(0, 1), st.integers(0, 9))
def test_replay_from_the_pack_order_reproduces_the_state(
    options: dict[str, Any], seed: int, dealer: int, play_seed: int
) -> None:
    d = new_deal(options, seed, dealer, 1)
    cut = random.Random(play_seed).randint(0, 80)
    random_play(d, random.Random(play_seed), limit=cut)
    again = new_conquian_deal(d.rules, d.dealer, pack=list(d.pack_order), carry_in=d.carry_in)
    for a in d.history:
        a2 = action_from_json(json.loads(json.dumps(a.to_json())))
        assert action_from_text(a.text) == a2 == a
        again.apply(a2)
    assert views(again) == views(d) and again.outcome() == d.outcome()
    # copy() is independent of the original
    c = d.copy()
    if not c.is_over():
        seat = c.to_move()
        assert seat is not None
        c.apply(c.legal_actions(seat)[-1])
        assert views(again) == views(d) != views(c)


def candidates(d: ConquianDeal, rng: random.Random) -> list[Action]:
    """Well-formed actions near the legal ones: the card in play, hand cards, own and other
    laid cards, random pack cards, every combination id and a few that do not exist."""
    v = d.spectator_view()
    seat = rng.choice([0, 1])
    hand = [Card.from_code(c) for c in d.player_view(seat)["hand"]]
    laid = [Card.from_code(x["card"]) for c in v["combinations"] for x in c["cards"]]
    pool = hand + laid + rng.sample(list(d.pack_order), 4)
    if v["turned"]:
        pool.append(Card.from_code(v["turned"]))
    ids = [c["id"] for c in v["combinations"]] + [99]
    cards = list(dict.fromkeys(pool))
    out: list[Action] = [TurnAction(seat)]
    for c in rng.sample(cards, min(6, len(cards))):
        out += [PassAction(seat, c), ThrowAction(seat, c), TradeAction(seat, c)]
        out += [ForceAction(seat, c, i) for i in ids] + [UseAction(seat, c, i) for i in ids]
        out += [MeldAction(seat, (c,), (), i) for i in ids]
    near = [c for c in cards if c in hand or c in laid]
    for _ in range(12):
        k = rng.randint(1, min(4, len(near))) if near else 0
        group = rng.sample(near, k)
        h = tuple(c for c in group if c in hand)
        b = tuple(c for c in group if c not in hand)
        if v["turned"]:
            out.append(UseAction(seat, Card.from_code(v["turned"]), None, h, b))
        if h:
            out.append(MeldAction(seat, h, b))
        for i in range(1, len(h) + 1):
            for sub in combinations(h, i):
                out.append(MeldAction(seat, sub, b))
    return out


@SETTINGS
@given(OPTIONS, st.integers(0, 2**32), st.integers(0, 1), st.integers(0, 9))
def test_legal_actions_and_apply_agree(
    options: dict[str, Any], seed: int, dealer: int, play_seed: int
) -> None:
    d = new_deal(options, seed, dealer, 0)
    rng = random.Random(play_seed)
    steps = 0
    while not d.is_over() and steps < 60:
        seat = d.to_move()
        assert seat is not None
        legal = d.legal_actions(seat)
        assert len(set(legal)) == len(legal)
        if steps % 3 == 0:
            before = views(d)
            for a in candidates(d, rng) + legal:
                listed = a in d.legal_actions(a.seat)
                assert d.is_legal(a) == listed
                c = d.copy()
                try:
                    c.apply(a)
                    accepted = True
                except IllegalActionError as e:
                    accepted = False
                    assert e.law and views(c) == before and c.version == d.version
                except InvalidActionError:
                    accepted = False
                assert accepted == listed, a.text
                if accepted:
                    check_invariants(c)
            assert views(d) == before
        d.apply(rng.choice(legal))
        steps += 1


def bench(seconds: float = 5.0) -> None:
    """Random legal play; report actions per second."""
    rng = random.Random(0)
    rules = make_rules("conquian")
    n = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        d = new_conquian_deal(rules, deals % 2, seed=deals)
        while not d.is_over():
            seat = d.to_move()
            assert seat is not None
            d.apply(rng.choice(d.legal_actions(seat)))
            n += 1
        deals += 1
    elapsed = time.perf_counter() - start
    print(f"conquian: {n / elapsed:,.0f} actions/s ({deals} deals, {n} actions, {elapsed:.1f} s)")


if __name__ == "__main__":
    bench()
