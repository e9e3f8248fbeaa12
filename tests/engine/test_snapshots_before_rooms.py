"""Deals saved before the house moved into rooms still load (issue 54, acceptance).

`tests/data/snapshots_before_rooms.json` was written by the engine at 42519e8,
before any module of it moved: for Foster's Cooncan (four and five players), for three,
Colonel, Conquián, Tonk and Tunk, a seeded deal played twelve random legal moves (or to
its end), then its snapshot, the mover's legal actions, every seat's view and the
spectator's. Written so, from a checkout of that commit::

    state = new_state(variant, {}, players, 0, seed=seed); rng = random.Random(seed)
    while not state.is_over() and moves < 12:
        state.apply(rng.choice(state.legal_actions(state.to_move())))

Each snapshot is read by today's engine and must give the same legal actions and views,
write itself back unchanged, and play on to its end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.play.engine_api import from_snapshot, to_snapshot

DATA = Path(__file__).resolve().parents[1] / "data" / "snapshots_before_rooms.json"
DEALS: list[dict[str, Any]] = json.loads(DATA.read_text())["deals"]


def _without_added_options(data: Any, saved_options: dict[str, Any], variant: str) -> Any:
    """``data`` with the options added to the game since the fixture was written taken out
    of every ``options`` in it, each checked to stand at its default: a deal saved before
    an option existed plays as that option's default (issue 58 added Conquián's)."""
    from games.engine.variant import VARIANTS

    defaults = {o.name: o.default for o in VARIANTS[variant].options}
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            if k == "options" and isinstance(v, dict):
                added = {n: x for n, x in v.items() if n not in saved_options}
                assert all(defaults.get(n, object()) == x for n, x in added.items()), added
                v = {n: x for n, x in v.items() if n in saved_options}
            out[k] = _without_added_options(v, saved_options, variant)
        return out
    if isinstance(data, list):
        return [_without_added_options(x, saved_options, variant) for x in data]
    return data


@pytest.mark.parametrize("saved", DEALS, ids=[f"{d['variant']}-{d['players']}" for d in DEALS])
def test_a_deal_saved_before_the_move_loads_and_plays_on(saved: dict[str, Any]) -> None:
    state = from_snapshot(saved["snapshot"], what="a deal saved before the move")
    known = saved["snapshot"]["rules"]["options"]

    def now(data: Any) -> Any:
        return _without_added_options(data, known, saved["variant"])

    assert now(to_snapshot(state)) == saved["snapshot"]
    assert state.to_move() == saved["to_move"]
    seat = state.to_move()
    legal = [a.to_json() for a in state.legal_actions(seat)] if seat is not None else []
    assert legal == saved["legal"]
    assert now([state.player_view(s) for s in range(saved["players"])]) == saved["views"]
    assert now(state.spectator_view()) == saved["spectator"]
    rng = random.Random(saved["seed"])
    for _ in range(2000):
        mover = state.to_move()
        if state.is_over() or mover is None:
            break
        state.apply(rng.choice(state.legal_actions(mover)))
    assert state.is_over() or state.to_move() is not None
