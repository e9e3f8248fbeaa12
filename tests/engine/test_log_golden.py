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


def test_a_replay_file_keeps_the_log_and_a_wrong_one_is_refused() -> None:
    """Issue 39: the replay format (2) keeps the log's records beside the actions; a
    replay checks them against what its actions make, and refuses a format it does not
    know. Format 1 (actions only, the golden fixture's own) still replays."""
    from games.engine import InvalidActionError, record

    data = GOLDEN["foster_4p_seed1"]
    state = replay({k: v for k, v in data.items() if k != "log"}).state
    written = record(state, seed=data["seed"])
    assert written["format"] == 2
    assert written["log"] == [r.to_json() for r in state.log]
    assert replay(written).error is None
    secret = next(e for e in written["log"] if e.get("secret"))
    assert secret["cards"]  # the club's record is whole: the card drawn from the pack
    tampered = written | {"log": [*written["log"][:-1], {**written["log"][-1], "law": "L99"}]}
    with pytest.raises(InvalidActionError, match="log entry"):
        replay(tampered)
    with pytest.raises(InvalidActionError, match="the log has"):
        replay(written | {"log": written["log"][:-1]})
    with pytest.raises(InvalidActionError, match="replay format 3"):
        replay(written | {"format": 3})
