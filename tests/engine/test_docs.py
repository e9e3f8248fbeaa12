"""The examples in docs/replay-format.md replay without an illegal action."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.engine import action_from_json
from games.engine.replay import replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "replay-format.md"
BLOCKS = re.findall(r"```json\n(.*?)\n```", DOC.read_text(), re.S)


def test_there_are_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS)
def test_example_replays(block: str) -> None:
    data = json.loads(block)
    if data["rules"]["variant"] == "conquian":
        pytest.importorskip("games.engine.conquian")
    result = replay(data)
    assert result.error is None and result.applied == len(data["actions"])


def test_action_table_rows_parse() -> None:
    rows = re.findall(r"^\| `(\{.*?\})`", DOC.read_text(), re.M)
    assert len(rows) >= 10
    for row in rows:
        action_from_json(json.loads(row))
