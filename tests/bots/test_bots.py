"""The bots: always legal, reproducible from a seed, and fed only a player's view."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import LEVELS, choose, get_bot
from games.bots.base import VIEW_KEYS
from games.bots.determinise import determinise
from games.bots.expert import ExpertBot
from games.engine.actions import Action
from games.engine.deal import new_deal
from games.engine.rules import OptionValue, make_rules
from tests.scale import scaled

from .conftest import CONFIGS, play

FAST = ("random", "greedy", "club")


def _lineup(levels: list[str]):  # type: ignore[no-untyped-def]
    """Each seat's bot, called directly: ``choose``'s safety net must not hide a bug."""

    def chooser(view: dict[str, Any], legal: list[Action], rng: random.Random, seat: int) -> Action:
        return get_bot(levels[seat % len(levels)]).choose(view, legal, rng)

    return chooser


# ------------------------------------------------------------------ legality


def test_it_makes_only_legal_moves_in_every_variant_and_option(
    config: tuple[str, int, dict[str, OptionValue]],
) -> None:
    """At least a thousand decisions per configuration, every level at every seat."""
    variant, players, options = config
    decisions, seed = 0, 0
    while decisions < 1000:
        levels = [FAST[(seed + s) % 3] for s in range(players)]
        deal, actions = play(variant, players, options, seed, _lineup(levels))
        assert deal.is_over() or len(actions) == 5000
        decisions += len(actions)
        seed += 1


@pytest.mark.slow
def test_thousands_of_deals_of_every_variant_stay_legal(
    config: tuple[str, int, dict[str, OptionValue]],
) -> None:
    """Seeded deals in every configuration: 50 each in the suite (1,450 deals across the
    29 configurations); BOTS_LEGAL_DEALS=1000 for the long run (make test-long)."""
    variant, players, options = config
    for seed in range(int(os.environ.get("BOTS_LEGAL_DEALS", str(scaled(50))))):
        levels = [FAST[(seed + s) % 3] for s in range(players)]
        play(variant, players, options, 10_000 + seed, _lineup(levels), max_steps=2000)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cfg=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**31),
    levels=st.lists(st.sampled_from(FAST), min_size=7, max_size=7),
)
def test_property_any_lineup_any_seed_stays_legal(
    cfg: tuple[str, int, dict[str, OptionValue]], seed: int, levels: list[str]
) -> None:
    """Legal at every step (``play`` checks). Three random players under "no ratting"
    may never go out, so a deal is cut at 2,000 actions."""
    variant, players, options = cfg
    deal, actions = play(variant, players, options, seed, _lineup(levels[:players]), max_steps=2000)
    assert deal.is_over() or len(actions) == 2000


@pytest.mark.parametrize("variant,players", [("conquian", 2), ("foster", 5),
                                             ("foster-three", 3), ("colonel", 2)])  # fmt: skip
def test_the_expert_makes_only_legal_moves(variant: str, players: int) -> None:
    expert = ExpertBot(samples=2, budget_ms=10_000)

    def chooser(view: dict[str, Any], legal: list[Action], rng: random.Random, seat: int) -> Action:
        if seat == 0:
            return expert.choose(view, legal, rng)
        return get_bot("club").choose(view, legal, rng)

    for seed in range(2):
        deal, _ = play(variant, players, {}, seed, chooser)
        assert deal.is_over()


# ------------------------------------------------------------------ reproducible


@pytest.mark.parametrize("level", FAST)
@pytest.mark.parametrize("variant,players", [("conquian", 2), ("foster", 5), ("foster-three", 3)])
def test_decisions_are_deterministic_for_a_seed(level: str, variant: str, players: int) -> None:
    runs = [play(variant, players, {}, 11, _lineup([level]))[1] for _ in range(2)]
    assert [a.text for a in runs[0]] == [a.text for a in runs[1]]


def test_the_expert_is_deterministic_for_a_seed() -> None:
    def run() -> list[str]:
        expert = ExpertBot(samples=3, budget_ms=60_000)

        def chooser(
            view: dict[str, Any], legal: list[Action], rng: random.Random, seat: int
        ) -> Action:
            return (
                expert.choose(view, legal, rng) if seat == 0 else choose("greedy", view, legal, rng)
            )

        return [a.text for a in play("conquian", 2, {}, 5, chooser)[1]]

    assert run() == run()


# ------------------------------------------------------------------ only the view


class GuardedView(dict[str, Any]):
    """A player_view that fails the test when a bot reads a key outside the schema.

    It also carries the other hands and the pack under names no view has, as a leaky
    view would: touching them fails too.
    """

    def _check(self, key: object) -> None:
        if key not in VIEW_KEYS:
            raise AssertionError(f"a bot read {key!r}, which is not in a player_view")

    def __getitem__(self, key: str) -> Any:
        self._check(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self._check(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._check(key)
        return super().__contains__(key)

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("a bot iterated over the whole view")

    def items(self):  # type: ignore[no-untyped-def]
        raise AssertionError("a bot iterated over the whole view")


@pytest.mark.parametrize("level", [*FAST, "expert"])
@pytest.mark.parametrize("variant,players", [("conquian", 2), ("foster", 4), ("colonel", 2)])
def test_a_bot_reads_only_its_player_view(level: str, variant: str, players: int) -> None:
    expert = ExpertBot(samples=1, budget_ms=10_000)

    def chooser(view: dict[str, Any], legal: list[Action], rng: random.Random, seat: int) -> Action:
        assert view["seat"] == seat
        own = json.loads(json.dumps(view))  # plain data: no reference to the state
        assert set(own) <= VIEW_KEYS
        others = [n for s, n in enumerate(own["hand_counts"]) if s != seat]
        assert len(own["hand"]) == own["hand_counts"][seat] and others
        guarded = GuardedView(own)
        dict.__setitem__(guarded, "hands", "secret")
        dict.__setitem__(guarded, "pack", "secret")
        if level == "expert" and seat == 0:
            return expert.choose(guarded, legal, rng)
        return get_bot(level if seat == 0 else "greedy").choose(guarded, legal, rng)

    deal, _ = play(variant, players, {}, 3, chooser)
    assert deal.is_over()


def test_a_determinised_state_agrees_with_the_view_it_came_from() -> None:
    """Same hand, table, counts, stock and legal actions; only the hidden cards differ."""
    keys = ("hand", "hand_counts", "pack_count", "stock", "stock_count", "phase", "to_move",
            "combinations", "turned", "say", "turned_by", "dead_count", "shown_this_turn")  # fmt: skip
    checked = 0
    for variant, players, options in CONFIGS[::2]:
        deal_seed = checked

        def chooser(
            view: dict[str, Any], legal: list[Action], rng: random.Random, seat: int
        ) -> Action:
            nonlocal checked
            if view["phase"] not in ("trade",):
                state = determinise(view, random.Random(seat))
                mirror = state.player_view(seat)
                assert {k: mirror.get(k) for k in keys} == {k: view.get(k) for k in keys}
                assert state.legal_actions(seat) == legal
                checked += 1
            return choose("greedy", view, legal, rng)

        play(variant, players, options, deal_seed, chooser)
    assert checked > 300


# ------------------------------------------------------------------ the package


def test_the_bots_do_not_import_django() -> None:
    code = "import sys, games.bots, games.bots.duel; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_level_is_registered() -> None:
    assert list(LEVELS) == ["random", "greedy", "club", "expert"]
    with pytest.raises(KeyError, match="one of random, greedy, club, expert"):
        choose("grandmaster", {}, [object()], random.Random(0))  # type: ignore[list-item]


class _Broken:
    """A computer player with a bug: it picks an action that is not legal."""

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Action:
        from games.engine.cards import Card
        from games.engine.rummy.moves import Discard

        return Discard(99, Card.from_code("AS"))  # seat 99: never legal


def test_a_computer_player_that_picks_an_illegal_action_raises_and_nothing_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.bots import BotError

    monkeypatch.setitem(LEVELS, "broken", _Broken())
    deal = new_deal(make_rules("foster", {}), 2, 0, seed=5)
    seat = deal.to_move()
    assert seat is not None
    legal = deal.legal_actions(seat)
    with pytest.raises(BotError, match="broken computer player chose .* not legal"):
        choose("broken", deal.player_view(seat), legal, random.Random(0))
    with pytest.raises(BotError, match="no legal action"):
        choose("greedy", deal.player_view(seat), [], random.Random(0))
    assert deal.version == 0


def test_a_duel_stops_at_a_failing_computer_player_and_says_where(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from games.bots.duel import DuelFailure, duel, main

    monkeypatch.setitem(LEVELS, "broken", _Broken())
    with pytest.raises(DuelFailure, match=r"broken in seat \d of foster \(seed 4, block 0"):
        duel("foster", ["greedy", "broken"], 2, seed=4, workers=1)
    code = main(["--variant", "foster", "--seats", "greedy,broken", "--deals", "2",
                 "--seed", "4", "--workers", "1"])  # fmt: skip
    assert code == 3 and "duel stopped: broken in seat" in capsys.readouterr().err


def test_a_view_that_contradicts_its_counts_is_an_error_not_a_fallback() -> None:
    """The expert plays its prior where the search does not model the position (a
    CannotDeterminise); a view whose cards do not fit its counts is a bug: raised."""
    from games.bots.determinise import InconsistentView

    deal = new_deal(make_rules("foster", {}), 2, 0, seed=5)
    seat = deal.to_move()
    assert seat is not None
    view = dict(deal.player_view(seat))
    view["pack_count"] = int(view["pack_count"]) + 7  # seven cards too many unseen
    with pytest.raises(InconsistentView):
        determinise(view, random.Random(0))
    with pytest.raises(InconsistentView):
        ExpertBot(samples=4).choose(view, deal.legal_actions(seat), random.Random(0))


def test_holding_playouts_time_laying_out_as_the_club_player_does() -> None:
    """The expert's rummy playouts (``hold``) keep a cheap combination in hand early in a
    deal, as Foster advises, where the plain greedy playout lays it out at once; both
    play every deal to its end."""
    from games.bots.playout import greedy_on_state, playout
    from games.engine.rummy.moves import Discard, Layout

    rules = make_rules("foster", {})
    d = new_deal(rules, 5, 0, seed=0)
    while d.version < 11:  # the greedy playout's own moves, to a known position
        s = d.to_move()
        assert s is not None
        d.apply(greedy_on_state(d, s, d.legal_actions(s)))
    s = d.to_move()
    assert s is not None
    legal = d.legal_actions(s)
    assert isinstance(greedy_on_state(d, s, legal), Layout)
    held = greedy_on_state(d, s, legal, hold=True)
    assert isinstance(held, Discard) and held in legal
    for hold in (False, True):
        state = d.copy()
        payment = playout(state, s, LEVELS["greedy"], random.Random(1), hold)
        assert state.is_over() and payment == state.outcome().payments[s]
