"""Conquián's offers and views held still (issue 58, step 1): 300 seeded deals in both
packs, played again by the seeded random player, must offer the same legal actions and
show every seat and a spectator the same views, step by step, and end with the same
outcome as ``tests/data/conquian_golden.json`` (made by ``make_conquian_golden``, before
the rules moved to the engine's card numbering)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .make_conquian_golden import PACKS, PATH, cases, options, outcome, play

GOLDEN: dict[str, Any] = json.loads(PATH.read_text())


def test_the_fixture_holds_every_case_in_both_packs() -> None:
    assert set(GOLDEN) == {f"{pack}-{seed}" for pack, seed in cases()}
    assert {g["options"]["pack"] for g in GOLDEN.values()} == set(PACKS)
    # every option takes each of its values somewhere
    for key in ("upcard", "trade", "scoring", "carry"):
        assert len({json.dumps(g["options"][key]) for g in GOLDEN.values()}) == 2, key
    # and the deals end every way: won, and the tableau (the pack exhausted)
    assert {g["outcome"]["kind"] for g in GOLDEN.values()} == {"out", "tableau"}


@pytest.mark.parametrize("pack", PACKS)
def test_every_step_offers_and_shows_what_it_did(pack: str) -> None:
    for name, want in GOLDEN.items():
        if want["options"]["pack"] != pack:
            continue
        seed = int(name.rsplit("-", 1)[1])
        assert options(pack, seed) == want["options"], name
        d, steps = play(pack, seed)
        for i, (got, expected) in enumerate(zip(steps, want["steps"], strict=False)):
            assert got == expected, f"{name}: step {i} offers or shows something else"
        assert len(steps) == len(want["steps"]), f"{name}: {len(steps)} steps"
        assert outcome(d) == want["outcome"], name
