"""Make the perft-like fixtures not yet made: ``.venv/bin/python -m tests.engine.make_perft``
(``--all``: every one again).

Each file pins, for a known deal (pack order or seed, plus actions), the number of legal
actions before chosen action indices and the outcome. Review the diff before committing:
a changed count means a rule changed.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from games.engine import RummyDeal, make_rules, new_deal, record

DATA = Path(__file__).resolve().parent.parent / "data" / "engine"

CASES: list[tuple[str, str, int, dict[str, Any], int, bool]] = [
    # name, variant, players, options, seed, store the pack order instead of the seed
    ("foster_5p_seed11", "foster", 5, {}, 11, False),
    ("foster_7p_spade_twos_seed5", "foster", 7, {"jokers": "spade-twos"}, 5, True),
    ("foster_4p_six_splash_seed8", "foster", 4, {"ratting": "six", "splash": 25}, 8, False),
    ("foster_3p_penalty30_seed3", "foster", 3, {"ratting": "penalty30"}, 3, False),
    ("foster_three_exposed_joker_seed4", "foster-three", 3, {"joker": True, "stock": "exposed"}, 4, True),
    ("foster_three_buried_seed9", "foster-three", 3, {}, 9, False),
    ("colonel_seed21", "colonel", 2, {}, 21, True),
    # Tonk (issue 40): the call round, drops, plucks, spreads and hits, each option set
    ("tonk_2p_seed31", "tonk", 2, {}, 31, False),
    ("tonk_3p_wait_deuces_seed32", "tonk", 3, {"wait_rule": True, "deuces_wild": True}, 32, True),
    ("tonk_4p_five_card_seed33", "tonk", 4, {"five_card": True}, 33, False),
    ("tonk_5p_five_card_deuces_seed34", "tonk", 5, {"five_card": True, "deuces_wild": True}, 34, True),
    # Tunk (issue 41): a deal to its Tunk or its break, two to five players
    ("tunk_2p_seed51", "tunk", 2, {}, 51, False),
    ("tunk_3p_seed52", "tunk", 3, {}, 52, True),
    ("tunk_5p_seed53", "tunk", 5, {}, 53, False),
]  # fmt: skip


def build(
    variant: str, players: int, options: dict[str, Any], seed: int, pack: bool
) -> dict[str, Any]:
    from .test_properties import choose

    d = new_deal(make_rules(variant, options), players, seed % players, seed=seed)
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    i = 0
    every = 7 if isinstance(d, RummyDeal) else 2
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        legal = d.legal_actions(seat)
        if i % every == 0 or len(legal) > 40:
            counts[str(i)] = len(legal)
        if every == 2 and rng.random() < 0.9:
            # Tonk: drop (T9) rarely, so that the deal runs on through spreads and hits
            legal = [a for a in legal if a.type != "drop"] or legal
            # Tunk: call it when offered (K7): random play rarely does, and every deal
            # would end in the break (K11)
            legal = [a for a in legal if a.type == "tunk"] or legal
        d.apply(choose(legal, rng))
        i += 1
    data = record(d, seed=None if pack else seed)
    data["perft"] = counts
    return data


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for name, variant, players, options, seed, pack in CASES:
        if (DATA / f"{name}.json").exists() and "--all" not in sys.argv:
            continue  # a pinned deal stays as it was pinned (--all makes every one again)
        data = {"comment": f"random legal play, {variant} {players} players {options}, seed {seed}"}
        data |= build(variant, players, options, seed, pack)
        (DATA / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(name, len(data["actions"]), data["outcome"]["kind"])


if __name__ == "__main__":
    main()
