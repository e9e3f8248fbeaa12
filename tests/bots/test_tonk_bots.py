"""Tonk's computer players (issue 40, item 6): every level plays only legal moves under
every option set, reading only its own view; the expert's samples agree with the view
they came from; and each level beats the one below over seeded deals (a short duel
here; the recorded ones run in make bench)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots import choose, get_bot
from games.bots.base import VIEW_KEYS
from games.bots.determinise import determinise
from games.bots.expert import ExpertBot
from games.engine import make_rules, new_deal
from games.engine.actions import Action

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"five_card": True},
    {"wait_rule": True},
    {"deuces_wild": True},
]


def _play(options: dict[str, Any], players: int, seed: int, pick: Any) -> Any:
    deal = new_deal(make_rules("tonk", options), players, seed % players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not deal.is_over():
        seat = deal.to_move()
        assert seat is not None
        view = deal.player_view(seat)
        assert set(view) <= VIEW_KEYS
        legal = deal.legal_actions(seat)
        deal.apply(pick(view, legal, rng, seat))
        steps += 1
        assert steps < 2000
    return deal


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
@pytest.mark.parametrize("level", ["random", "greedy", "club"])
def test_every_level_plays_only_legal_moves(level: str, options: dict[str, Any]) -> None:
    for seed in range(30):
        deal = _play(
            options, 2 + seed % 3, seed, lambda v, legal, rng, s: choose(level, v, legal, rng)
        )
        out = deal.outcome()
        assert out is not None and sum(out.payments) == 0


def test_the_expert_plays_legal_moves_and_its_samples_agree_with_its_view() -> None:
    expert = ExpertBot(samples=4, budget_ms=50)
    checked = 0

    def pick(view: dict[str, Any], legal: list[Action], rng: random.Random, seat: int) -> Action:
        nonlocal checked
        state = determinise(view, random.Random(seat))
        assert state.player_view(seat) | {"log": []} == dict(view) | {"log": []}
        assert state.legal_actions(seat) == legal
        checked += 1
        return expert.choose(view, legal, rng) if seat == 0 else choose("club", view, legal, rng)

    for seed, options in enumerate(OPTION_SETS):
        _play(options, 3, seed, pick)
    assert checked > 20


def _seated(seats: list[str]) -> Any:
    def pick(view: Any, legal: Any, rng: random.Random, seat: int) -> Action:
        return get_bot(seats[seat]).choose(view, legal, rng)

    return pick


def _duel(levels: list[str], deals: int) -> float:
    """The first level's mean points a deal, seats rotated over the same packs."""
    total = 0
    for seed in range(deals // len(levels)):
        for shift in range(len(levels)):
            seats = levels[shift:] + levels[:shift]
            deal = _play({}, len(levels), seed, _seated(seats))
            total += deal.outcome().payments[shift and len(levels) - shift]
    return total / deals


def test_greedy_beats_random_and_club_beats_greedy_over_seeded_deals() -> None:
    assert _duel(["greedy", "random"], 200) > 0
    assert _duel(["club", "greedy"], 300) > 0
