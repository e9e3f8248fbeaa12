"""Perft-like Conquián cases (tests/data/engine/conquian_perft.json): a pack order, the
actions in text form, the number of legal actions at chosen points, and the outcome."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine.cards import Card
from games.engine.conquian.actions import action_from_text
from games.engine.conquian.deal import new_conquian_deal
from games.engine.rules import make_rules

DATA = Path(__file__).parent.parent / "data" / "engine" / "conquian_perft.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_it_replays_the_pinned_deal(case: dict[str, Any]) -> None:
    rules = make_rules("conquian", case["options"])
    pack = [Card.from_code(c) for c in case["pack"]]
    d = new_conquian_deal(rules, case["dealer"], pack=pack, carry_in=case["carry_in"])
    counts = {int(k): v for k, v in case["legal_counts"].items()}
    for i, text in enumerate(case["actions"]):
        seat = d.to_move()
        assert seat is not None
        if i in counts:
            assert len(d.legal_actions(seat)) == counts[i], f"before action {i}: {text}"
        d.apply(action_from_text(text))
    assert d.is_over()
    outcome = d.outcome()
    assert outcome is not None and outcome.to_json() == case["outcome"]
