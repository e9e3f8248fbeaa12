"""Bots' strength: the duels issue #6 names, through the documented command
`python -m games.engine duel ... --json` (seats rotated, seeded).

The full run is 2,000 Conquián deals per pairing and 1,000 five-player Foster deals per
pairing; BENCH_DUEL_SCALE (e.g. 0.25) shortens every duel, and the report records the
deals actually played, so a figure is never presented as more than it is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

DUELS = [
    ("conquian", "club,greedy", 2000),
    ("conquian", "expert,club", 2000),
    ("foster", "expert,greedy,greedy,greedy,greedy", 1000),
    ("foster", "expert,club,club,club,club", 1000),
]


def _duel(variant: str, seats: str, deals: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "games.engine", "duel", "--variant", variant, "--seats", seats,
         "--deals", str(deals), "--seed", "2026", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def run(quick: bool = False) -> dict[str, Any]:
    scale = 0.05 if quick else float(os.environ.get("BENCH_DUEL_SCALE", "1"))
    rows = []
    for variant, seats, deals in DUELS:
        n = max(10, int(deals * scale))
        r = _duel(variant, seats, n)
        first, second = seats.split(",")[0], seats.split(",")[1]
        a, b = r["bots"][first], r["bots"][second]
        rows.append({
            "duel": f"{variant}: {seats}",
            "deals": r["deals"],
            "seconds": r["seconds"],
            "illegal_moves": r["illegal"],
            f"{first}_win_rate": a["win_rate"],
            f"{first}_win_ci95": a["win_ci95"],
            f"{first}_mean_points": a["mean_points"],
            f"{first}_ci95": a["ci95"],
            f"{first}_decision_ms_median": a["decision_ms_median"],
            f"{first}_decision_ms_p99": a["decision_ms_p99"],
            f"{first}_choice_ms_median": a["choice_ms_median"],
            f"{first}_choice_ms_p99": a["choice_ms_p99"],
            f"{second}_win_rate": b["win_rate"],
            f"{second}_mean_points": b["mean_points"],
            f"{second}_decision_ms_median": b["decision_ms_median"],
            f"{second}_decision_ms_p99": b["decision_ms_p99"],
            f"{second}_choice_ms_median": b["choice_ms_median"],
            f"{second}_choice_ms_p99": b["choice_ms_p99"],
            "command": f"python -m games.engine duel --variant {variant} --seats {seats} "
                       f"--deals {r['deals']} --seed 2026 --json",
        })  # fmt: skip
    return {"scale": scale, "duels": rows}
