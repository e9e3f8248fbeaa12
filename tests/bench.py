"""`make bench`: every benchmark in one invocation, written to docs/benchmarks.md.

Speed is reported as ratios against a baseline measured in the same run on the same
machine (never as timed assertions in tests):
- engine: random self-play actions/s of each variant vs rlcard's pure-Python Gin Rummy;
- engine: median time of legal_actions right after a draw, full hand, two jokers down;
- engine: storing a deal per action, JSON snapshot vs pickle;
- club: balancing 1,000 deals / 10 tables / 40 members, a 1,000-line washbook page;
- games: turn-action latency under load vs a minimal one-row view, queries per action,
  event delivery to 100 listeners;
- bots: duels between levels (win rates, mean points with 95% CI, decision times);
- reliability: the 50-table load and soak with invariant checks.

`python -m tests.bench --only engine,club` runs a subset; `--quick` shortens each part
(for a smoke run; the recorded figures come from a full run).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
RESULTS = ROOT / "docs" / "benchmarks.json"


def _py(*args: str, timeout: float = 3600) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        check=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def rlcard_gin_rummy(seconds: float) -> dict[str, Any]:
    """The baseline: rlcard's Gin Rummy engine, random legal play (the loop the issue names)."""
    from rlcard.games.gin_rummy.game import GinRummyGame

    rng = random.Random(1)
    game = GinRummyGame()
    deals = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))
            actions += 1
        deals += 1
    elapsed = time.perf_counter() - start
    return {"deals": deals, "actions": actions, "actions_per_s": actions / elapsed}


ROUNDS = 5  # each engine row's rounds, each between two rlcard runs


def engine(quick: bool) -> dict[str, Any]:
    seconds = 3 if quick else 10
    base = rlcard_gin_rummy(seconds)
    rows = []
    for variant, players in [("conquian", 2), ("colonel", 2), ("foster-three", 3), ("foster", 4),
                             ("foster", 5), ("foster", 7), ("tonk", 2), ("tonk", 4),
                             ("tunk", 2), ("tunk", 4)]:  # fmt: skip
        # The yardstick on both sides of each round: the machine's speed drifts by a
        # fifth or more within seconds here, and a yardstick run only before a round
        # swung a row's rounds from 1.8x to 3.1x. The row runs in ROUNDS rounds, rlcard
        # before the first and after each (half as long in all): a round's ratio is
        # against the mean of the rlcard runs on its two sides, the row's the median of
        # its rounds', its figures the rounds' sums.
        sides = [rlcard_gin_rummy(seconds / 2 / (ROUNDS + 1))]
        rounds = []
        for _ in range(ROUNDS):
            ours = _py("-m", "games.engine", "bench", "--variant", variant, "--players",
                       str(players), "--seconds", str(seconds / ROUNDS), "--json")  # fmt: skip
            sides.append(rlcard_gin_rummy(seconds / 2 / (ROUNDS + 1)))
            beside = (sides[-2]["actions_per_s"] + sides[-1]["actions_per_s"]) / 2
            rounds.append((beside, ours))
        r = dict(rounds[0][1])
        for key in ("deals", "actions", "seconds"):
            r[key] = sum(o[key] for _, o in rounds)
        r["deals_per_s"] = r["deals"] / r["seconds"]
        r["actions_per_s"] = r["actions"] / r["seconds"]
        r["players"] = players
        r["rlcard_beside"] = round(statistics.median(b for b, _ in rounds), 1)
        r["rlcard_sides"] = [round(b["actions_per_s"], 1) for b in sides]
        r["ratios"] = [o["actions_per_s"] / b for b, o in rounds]
        r["ratio_vs_rlcard"] = statistics.median(r["ratios"])
        rows.append(r)
    base_after = rlcard_gin_rummy(seconds)  # the baseline again: shows the machine was steady
    from tests.bench_engine import legal_actions_after_draw, snapshot_per_action

    return {
        "snapshot_per_action": snapshot_per_action(quick),
        "baseline": base,
        "baseline_after": base_after,
        "variants": rows,
        "legal_actions_after_draw": legal_actions_after_draw(quick),
        "seconds_each": seconds,
        "rounds": ROUNDS,
        "bracketed": True,
    }


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("TESTING", "1")
    import django

    django.setup()


def with_test_database(fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run ``fn`` against a throw-away test database (created and dropped here)."""
    from django.db import connection, connections
    from django.test.utils import (
        setup_databases,
        setup_test_environment,
        teardown_databases,
        teardown_test_environment,
    )

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        return fn()
    finally:
        # End the sessions that the part's server subprocesses or threads left open, so
        # the drop succeeds (and a failed drop never loses the figures measured).
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cur:
                    cur.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
            connections.close_all()
            teardown_databases(old, verbosity=0)
        except Exception as e:  # noqa: BLE001
            print(f"warning: could not drop the benchmark database: {e}", file=sys.stderr)
        teardown_test_environment()


PARTS = ["engine", "club", "games", "bots", "load", "paced"]


def run_part(name: str, quick: bool) -> dict[str, Any]:
    if name == "engine":
        return engine(quick)
    if name == "bots":
        from tests import bench_bots

        return bench_bots.run(quick=quick)
    _django()  # the Django parts import models: set Django up first
    if name == "club":
        from tests import bench_club

        return with_test_database(lambda: bench_club.run())
    if name == "games":
        from tests import bench_games

        return with_test_database(lambda: bench_games.run())
    if name == "load":
        from tests import bench_load

        return with_test_database(lambda: bench_load.run(quick=quick))
    if name == "paced":
        from tests import bench_paced

        return with_test_database(lambda: bench_paced.run(quick=quick))
    raise SystemExit(f"unknown part {name}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", default=",".join(PARTS))
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    previous: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results = dict(previous.get("parts", {}))
    for name in args.only.split(","):
        print(f"== {name}", file=sys.stderr, flush=True)
        started = time.perf_counter()
        results[name] = run_part(name, args.quick)
        results[name]["_measured_at"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        results[name]["_wall_s"] = round(time.perf_counter() - started, 1)
        results[name]["_quick"] = args.quick
        print(json.dumps(results[name], indent=1, default=str)[:3000], file=sys.stderr)
        write(results)  # after each part, so a later failure keeps what was measured
    print(f"wrote {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


def write(results: dict[str, Any]) -> None:
    from tests.bench_report import render

    meta = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count()}  # fmt: skip
    RESULTS.write_text(json.dumps({"meta": meta, "parts": results}, indent=1, default=str) + "\n")
    DOC.write_text(render(meta, results))


if __name__ == "__main__":
    sys.exit(main())
