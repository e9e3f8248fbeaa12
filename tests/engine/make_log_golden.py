"""Regenerate the log's golden fixture: ``.venv/bin/python -m tests.engine.make_log_golden``.

Issue 39, step 1: the words of today's deal log, per viewer (each seat and a spectator),
for seeded deals of every game, played to their end by the greedy computer players. The
fixture keeps each deal's replay (so the bots may change and the deal stays the same) and
the log each viewer is shown: the spectator's whole, each seat's where it differs (a draw
from the pack names its card to the drawer only). ``test_log_golden.py`` replays the deals
and checks every word. Review the diff before committing: a changed line is a changed
sentence on every table.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games import bots
from games.engine import make_rules, new_deal, record
from games.engine.protocol import DealState

PATH = Path(__file__).resolve().parent.parent / "data" / "log_golden.json"
MAX_ACTIONS = 1500

CASES: list[tuple[str, str, int, dict[str, Any], int]] = [
    # name, variant, players, options, seed (names with "random" are played by the random
    # computer player: take-backs, challenges declined, a pack run out)
    ("foster_4p_seed1", "foster", 4, {}, 1),
    ("foster_5p_penalty30_splash_twos_seed2", "foster", 5,
     {"ratting": "penalty30", "splash": 25, "jokers": "spade-twos"}, 2),
    ("foster_2p_ten_turnovers_seed3", "foster", 2, {"max_turnovers": 10}, 3),
    ("foster_3p_six_seed12", "foster", 3, {"ratting": "six"}, 12),
    ("foster_three_seed4", "foster-three", 3, {}, 4),
    ("foster_three_exposed_joker_seed5", "foster-three", 3, {"joker": True, "stock": "exposed"}, 5),
    ("conquian_seed6", "conquian", 2, {}, 6),
    ("conquian_seed7", "conquian", 2, {}, 7),
    ("conquian_trade_no_upcard_pips_seed8", "conquian", 2,
     {"trade": True, "upcard": False, "scoring": "pips"}, 8),
    ("conquian_spanish_seed9", "conquian", 2, {"pack": "spanish"}, 9),
    ("colonel_seed10", "colonel", 2, {}, 10),
    ("colonel_seed11", "colonel", 2, {}, 11),
    ("foster_3p_random_ten_turnovers_seed13", "foster", 3, {"max_turnovers": 10}, 13),
    ("foster_three_random_joker_seed16", "foster-three", 3, {"joker": True, "max_turnovers": 10}, 16),
    ("colonel_random_seed14", "colonel", 2, {}, 14),
    ("colonel_random_seed17", "colonel", 2, {}, 17),
    ("colonel_random_seed19", "colonel", 2, {}, 19),
    ("conquian_random_seed15", "conquian", 2, {"trade": True}, 15),
    ("tonk_2p_seed20", "tonk", 2, {}, 20),
    ("tonk_3p_wait_deuces_seed21", "tonk", 3, {"wait_rule": True, "deuces_wild": True}, 21),
    ("tonk_5p_five_card_seed22", "tonk", 5, {"five_card": True}, 22),
    ("tonk_3p_random_seed23", "tonk", 3, {}, 23),
    ("tonk_4p_random_five_card_seed24", "tonk", 4, {"five_card": True}, 24),
    # Tunk (issue 41): draws, plucks, the Tunk, the last turns and the break
    ("tunk_2p_seed40", "tunk", 2, {}, 40),
    ("tunk_4p_seed41", "tunk", 4, {}, 41),
    ("tunk_3p_random_seed42", "tunk", 3, {}, 42),
]  # fmt: skip


def logs(d: DealState) -> dict[str, Any]:
    """The log as each viewer is shown it: the spectator's, then each seat's differences."""
    public = [[e["seat"], e["text"], e["law"]] for e in d.spectator_view()["log"]]
    seats: dict[str, dict[str, str]] = {}
    for seat in range(d.players):
        mine = d.player_view(seat)["log"]
        assert len(mine) == len(public)
        diff = {str(i): e["text"] for i, e in enumerate(mine) if e["text"] != public[i][1]}
        seats[str(seat)] = diff
    return {"spectator": public, "seats": seats}


def build(
    name: str, variant: str, players: int, options: dict[str, Any], seed: int
) -> dict[str, Any]:
    level = "random" if "random" in name else "greedy"
    d = new_deal(make_rules(variant, options), players, seed % players, seed=seed)
    rng = random.Random(seed)
    while not d.is_over() and len(d.history) < MAX_ACTIONS:
        seat = d.to_move()
        assert seat is not None
        d.apply(bots.choose(level, d.player_view(seat), d.legal_actions(seat), rng))
    data = record(d, seed=seed)
    data.pop("outcome", None)
    return data | {"log": logs(d)}


def main() -> None:
    out = {}
    for name, variant, players, options, seed in CASES:
        out[name] = build(name, variant, players, options, seed)
        n = len(out[name]["actions"])
        last = out[name]["log"]["spectator"][-1][1]
        print(f"{name}: {n} actions, {len(out[name]['log']['spectator'])} entries; last: {last}")
    PATH.write_text(
        json.dumps(out, indent=None, separators=(",", ":")).replace("],[", "],\n[") + "\n"
    )


if __name__ == "__main__":
    main()
