"""The examples in docs/replay-format.md replay without an illegal action."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.engine import find_variant
from games.engine.replay import replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "replay-format.md"
BLOCKS = re.findall(r"```json\n(.*?)\n```", DOC.read_text(), re.S)


def test_there_are_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS)
def test_example_replays(block: str) -> None:
    data = json.loads(block)
    if data["rules"]["variant"] == "conquian":
        pytest.importorskip("games.engine.conquian.deal")
    result = replay(data)
    assert result.error is None and result.applied == len(data["actions"])


def test_action_table_rows_parse_in_their_games_notation() -> None:
    text = DOC.read_text()
    rummy, conquian = text.split("\n### Conquian")
    for part, notation in ((rummy, "foster"), (conquian, "conquian")):
        rows = re.findall(r"^\| `(\{.*?\})`", part, re.M)
        assert len(rows) >= 9
        for row in rows:
            find_variant(notation).parse_action(json.loads(row))
