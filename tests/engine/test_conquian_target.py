"""Conquián played to a points total (C-opt-4, seed 003: "Play may be extended over
several hands by playing to a specified point total"): the game's points carried from
deal to deal, its end and its winner, in the views, snapshots and states from a view."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from conquian_helpers import play, stack

from games.engine.cards import Card
from games.engine.conquian.deal import ConquianDeal, new_conquian_deal
from games.engine.errors import InvalidActionError
from games.engine.from_view import Hidden
from games.engine.rules import OptionValue, make_rules
from games.engine.variant import find_variant

CONQUIAN = find_variant("conquian")
PONE = "3C 4C 5C 6C 7C 8C 9C 5H 5D 6H"
DEALER = "2D 3D 7H 9H AS 3S 7S 9S 2H 4S"


def won_by_the_pone(scores_in: tuple[int, ...] = (), **options: OptionValue) -> ConquianDeal:
    """The pone goes eleven down with the 10C (seat 0 wins); seat 1 deals."""
    rules = make_rules("conquian", options)
    pack = stack(PONE, DEALER, "2C 10C", pack=str(options.get("pack", "forty")))
    d = new_conquian_deal(rules, 1, pack=pack, scores_in=scores_in)
    play(d, "0 use 2C with 3C 4C 5C 6C 7C 8C 9C", "0 meld 5D 5H borrow 5C", "0 throw 6H",
         "1 pass 6H", "1 turn", "1 pass 10C", "0 use 10C to 1")  # fmt: skip
    assert d.is_over()
    return d


def test_c_opt_4_off_each_deal_is_a_game() -> None:
    d = won_by_the_pone()
    assert CONQUIAN.ends_game(d) is None and CONQUIAN.scores_after(d) == ()
    assert "scores" not in d.spectator_view() and "scores_in" not in d.to_json()
    with pytest.raises(InvalidActionError):
        new_conquian_deal(make_rules("conquian"), 0, seed=1, scores_in=(1, 0))


def test_c_opt_4_points_won_carry_until_a_player_reaches_the_total() -> None:
    d = won_by_the_pone(target=5)
    assert d.outcome() is not None and d.outcome().payments == (1, -1)  # type: ignore[union-attr]
    assert CONQUIAN.scores_after(d) == (1, 0) and CONQUIAN.ends_game(d) is False
    assert CONQUIAN.game_winners(d) == ()
    # the next deals are dealt with the game's points; the fifth point ends the game
    last = won_by_the_pone(target=5, scores_in=(4, 2))
    assert last.spectator_view()["scores"] == [4, 2] and last.spectator_view()["out_at"] == 5
    assert CONQUIAN.ends_game(last) is True and CONQUIAN.game_winners(last) == (0,)
    assert CONQUIAN.scores_after(last) == ()  # the next deal begins a new game


def test_c_opt_4_pips_scoring_adds_the_pips_won() -> None:
    d = won_by_the_pone(target=50, scoring="pips")
    out = d.outcome()
    assert out is not None and out.payments[0] > 0
    assert CONQUIAN.scores_after(d) == (out.payments[0], 0)


def test_c_opt_4_bad_game_points_are_refused() -> None:
    rules = make_rules("conquian", {"target": 10})
    for bad in ((1,), (1, -1), (1, 2, 3), (True, 0)):
        with pytest.raises(InvalidActionError):
            new_conquian_deal(rules, 0, seed=1, scores_in=bad)  # type: ignore[arg-type]


def test_c_opt_4_the_game_points_survive_a_snapshot_and_a_view() -> None:
    d = new_conquian_deal(make_rules("conquian", {"target": 10}), 1, seed=9, scores_in=(7, 3))
    rng = random.Random(2)
    for _ in range(6):
        seat = d.to_move()
        assert seat is not None
        d.apply(rng.choice(d.legal_actions(seat)))
    loaded = ConquianDeal.from_json(json.loads(json.dumps(d.to_json())))
    assert loaded == d and loaded.scores_in == (7, 3)
    seat = d.to_move()
    assert seat is not None
    snap = d.to_json()  # the other hand, and the pack with its top card last
    other = [Card.from_code(c) for c in snap["hands"][1 - seat]]
    pack = [Card.from_code(c) for c in reversed(snap["pack"])]
    rebuilt = ConquianDeal.from_view(d.player_view(seat), Hidden({1 - seat: other}, pack))
    assert rebuilt.scores_in == (7, 3) and rebuilt.player_view(seat)["scores"] == [7, 3]


def test_c_opt_4_the_table_counts_the_game_to_its_total() -> None:
    assert CONQUIAN.game_and_deal(2, 2, 2, {"target": 5}) == "Game 2 to 5, deal 3"
    assert CONQUIAN.game_and_deal(7, 0, 2, {}) == "Game 7, deal 1"
    assert CONQUIAN.game_target({"target": 100}) == 100 and CONQUIAN.game_target(None) == 0
