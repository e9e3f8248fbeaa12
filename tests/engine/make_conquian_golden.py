"""Regenerate Conquián's golden fixture: ``.venv/bin/python -m tests.engine.make_conquian_golden``.

Issue 58, step 1: before Conquián's rules move from their private card numbering
(``suit * 10 + order``) to the engine's (``(rank - 1) * 4 + suit``), what a player is
offered and shown is held still. For 300 seeded deals, 150 in each pack (Foster's forty
cards and the Spanish), each with options drawn from the seed, a random player (choosing
among the legal actions by their words, so that their order does not matter) plays the
deal to its end; at every step the fixture keeps a digest of the legal actions of the seat
to move (their words, sorted), every seat's view and the spectator's (each hand's cards
sorted by code: the order a hand is held in is the page's business), and at the end the
outcome. ``test_conquian_golden.py`` plays the deals again and names the first step that
differs. Review a change before committing a new fixture: a changed digest is a changed
offer or view on every table.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from games.engine import make_rules, new_deal
from games.engine.protocol import DealState

PATH = Path(__file__).resolve().parent.parent / "data" / "conquian_golden.json"
PACKS = ("forty", "spanish")
DEALS_A_PACK = 150
MAX_ACTIONS = 2000


def options(pack: str, seed: int) -> dict[str, Any]:
    """The options of the deal with this seed: every combination comes up."""
    rng = random.Random(f"options-{pack}-{seed}")
    return {
        "pack": pack,
        "upcard": rng.random() < 0.7,
        "trade": rng.random() < 0.4,
        "scoring": rng.choice(["game-points", "pips"]),
        "carry": rng.random() < 0.7,
    }


def _normal(view: dict[str, Any]) -> dict[str, Any]:
    """The view as held still: each hand's cards sorted by code, and without the options
    the deal was dealt under (the fixture keeps them once a deal; an option added later
    adds its default to every view)."""
    out = dict(view)
    out.pop("options", None)
    if isinstance(out.get("hand"), list):
        out["hand"] = sorted(out["hand"])
    return out


def step_digest(d: DealState) -> str:
    seat = d.to_move()
    legal = sorted(a.text for a in d.legal_actions(seat)) if seat is not None else []
    seen = {
        "to_move": seat,
        "legal": legal,
        "views": [_normal(d.player_view(s)) for s in range(d.players)],
        "spectator": _normal(d.spectator_view()),
    }
    text = json.dumps(seen, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def play(pack: str, seed: int) -> tuple[DealState, list[str]]:
    """The deal played by the seeded random player, and the digest of every step."""
    d = new_deal(make_rules("conquian", options(pack, seed)), 2, seed % 2, seed=seed)
    rng = random.Random(seed)
    digests = [step_digest(d)]
    while not d.is_over() and len(d.history) < MAX_ACTIONS:
        seat = d.to_move()
        assert seat is not None
        legal = sorted(d.legal_actions(seat), key=lambda a: a.text)
        d.apply(rng.choice(legal))
        digests.append(step_digest(d))
    return d, digests


def outcome(d: DealState) -> dict[str, Any] | None:
    """The deal's outcome, each hand's cards sorted by code."""
    out = d.outcome()
    if out is None:
        return None
    data = out.to_json()
    data["hands"] = [sorted(h) for h in data["hands"]]
    return data


def build(pack: str, seed: int) -> dict[str, Any]:
    d, digests = play(pack, seed)
    return {"options": options(pack, seed), "steps": digests, "outcome": outcome(d)}


def cases() -> list[tuple[str, int]]:
    return [(pack, seed) for pack in PACKS for seed in range(DEALS_A_PACK)]


def main() -> None:
    out = {f"{pack}-{seed}": build(pack, seed) for pack, seed in cases()}
    steps = sum(len(v["steps"]) for v in out.values())
    print(f"{len(out)} deals, {steps} steps")
    PATH.write_text(json.dumps(out, separators=(",", ":")).replace('},"', '},\n"') + "\n")


if __name__ == "__main__":
    main()
