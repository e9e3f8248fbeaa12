"""The deal log's words, held still (issue 39, step 1): seeded deals of every game, each
replayed, and the log each viewer is shown (each seat and a spectator) compared word for
word with ``tests/data/engine/log_golden.json`` (made by ``make_log_golden``). The log is
becoming records with one presenter for the words; this proves the words do not change.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import replay

from .make_log_golden import CASES, PATH, logs

GOLDEN: dict[str, Any] = json.loads(PATH.read_text())


def test_every_game_is_in_the_golden_fixture() -> None:
    from games.engine.variant import VARIANTS

    assert {variant for _, variant, *_ in CASES} == set(VARIANTS)
    assert set(GOLDEN) == {name for name, *_ in CASES}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_logs_words_per_viewer(name: str) -> None:
    data = GOLDEN[name]
    r = replay({k: v for k, v in data.items() if k != "log"})
    assert r.error is None and r.applied == len(data["actions"])
    got = logs(r.state)
    want = data["log"]
    for i, (entry, expected) in enumerate(zip(got["spectator"], want["spectator"], strict=True)):
        assert entry == expected, f"{name}: the spectator's entry {i}"
    for seat, expected in want["seats"].items():
        assert got["seats"][seat] == expected, f"{name}: seat {seat}'s own entries"
    # A draw from the pack names its card to the drawer only: the drawer sees a card
    # that the spectator does not.
    for i, (seat, text, _) in enumerate(want["spectator"]):
        if text == "draws from the pack":
            assert "from the pack" in want["seats"][str(seat)][str(i)] != text
