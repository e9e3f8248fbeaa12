"""Shared helpers for the bots' tests: every variant and option, and a seeded game loop."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.engine.actions import Action
from games.engine.deal import new_deal
from games.engine.protocol import DealState
from games.engine.rules import VARIANTS, OptionValue, make_rules

PLAYERS = {"foster": 5, "foster-three": 3, "conquian": 2, "colonel": 2}


def configurations() -> Iterator[tuple[str, int, dict[str, OptionValue]]]:
    """Each variant with its default options, then each option value changed alone, and
    the foster game for four and for two to seven players."""
    for name, spec in VARIANTS.items():
        players = PLAYERS.get(name, spec.default_players)
        yield name, players, {}
        for opt in spec.options:
            for value in opt.choices:
                if value != opt.default:
                    yield name, players, {opt.name: value}
    for n in (2, 4, 7):
        yield "foster", n, {}


CONFIGS = list(configurations())
Chooser = Callable[[dict[str, Any], list[Action], random.Random, int], Action]


def play(
    variant: str,
    players: int,
    options: dict[str, OptionValue],
    seed: int,
    chooser: Chooser,
    *,
    max_steps: int = 5000,
) -> tuple[DealState, list[Action]]:
    """Play one seeded deal; ``chooser(view, legal, rng, seat)`` picks each action."""
    deal = new_deal(make_rules(variant, options), players, seed % players, seed=seed)
    rng = random.Random(seed)
    actions: list[Action] = []
    while not deal.is_over() and len(actions) < max_steps:
        seat = deal.to_move()
        assert seat is not None
        legal = deal.legal_actions(seat)
        action = chooser(deal.player_view(seat), legal, rng, seat)
        assert action in legal, f"{action.text} is not legal; legal: {[a.text for a in legal]}"
        deal.apply(action)
        actions.append(action)
    return deal, actions


@pytest.fixture(params=CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def config(request: pytest.FixtureRequest) -> tuple[str, int, dict[str, OptionValue]]:
    return request.param  # type: ignore[no-any-return]
