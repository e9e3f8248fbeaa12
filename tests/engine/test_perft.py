"""Perft-like fixtures: known deals pin the number of legal actions and the outcome.

Files: ``tests/data/engine/*.json`` except ``conquian*`` (regenerate the random ones with
``python -m tests.engine.make_perft`` and review the diff).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.replay import start

from .helpers import arrange, play, texts

DATA = Path(__file__).resolve().parent.parent / "data" / "engine"
FILES = sorted(p for p in DATA.glob("*.json") if not p.name.startswith("conquian"))


def test_fixtures_exist() -> None:
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_perft_fixture(path: Path) -> None:
    data = json.loads(path.read_text())
    state, actions = start(data)
    perft = data["perft"]
    for i, raw in enumerate(actions):
        seat = state.to_move()
        assert seat is not None
        if str(i) in perft:
            assert len(state.legal_actions(seat)) == perft[str(i)], f"action index {i}"
        state.apply(state.rules.spec.parse_action(raw))
    o = state.outcome()
    assert (o.to_json() if o else None) == data.get("outcome")


def test_counted_by_hand_l15_l16_l17() -> None:
    """Seat 1 holds JK 7H 8H 2D 4C 9S QD QC 6S 8C and draws AC. Layouts: JK=6H 7H 8H,
    7H 8H JK=9H, QC JK=KC AC (Q K A, L16), 8C 8H +JK, QC QD +JK (L17): 5; discards of
    11 different cards: 11. Total 16."""
    d = arrange("foster", ["6H 10H 5H JH 2C 3S 4D KS KD KC", "JK 7H 8H 2D 4C 9S QD QC 6S 8C"],
                "3C", "AC")  # fmt: skip
    play(d, "1 draw pack")
    assert len(texts(d)) == 16
    assert len([t for t in texts(d) if "layout" in t]) == 5


def test_counted_by_hand_duplicates_give_one_action() -> None:
    """Double pack: two 7H in hand discard as one action; KH KH KS KC sets: {KH KS KC},
    {KH KH KS}, {KH KH KC}, {KH KH KS KC}: 4 (duplicates merged)."""
    d = arrange("foster", ["6H 10H 5H JH 2C 3S 4D KS KD KC", "KH KH KS KC 7H 7H 2D 4D 9S QS"],
                "3C", "AC")  # fmt: skip
    play(d, "1 draw pack")
    layouts = sorted(t for t in texts(d) if "layout" in t)
    assert layouts == ["1 layout KC KH KH", "1 layout KC KH KH KS", "1 layout KC KH KS",
                       "1 layout KH KH KS"]  # fmt: skip
    assert len([t for t in texts(d) if "discard 7H" in t]) == 1
