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
    """The baseline: rlcard's Gin Rummy engine, random legal play (the loop the issue names),
    one run of ``seconds`` (:func:`_rlcard_slices`' loop)."""
    deals, actions, elapsed = _rlcard_slices()(seconds)
    return {"deals": deals, "actions": actions, "actions_per_s": actions / elapsed}


SLICES = 40  # each engine row's slices, ours and rlcard's taking turns


def _rlcard_slices() -> Callable[[float], tuple[int, int, float]]:
    """rlcard's loop (:func:`rlcard_gin_rummy`) run a slice at a time: whole deals for
    ``seconds``, returning the deals, the actions and the time they took."""
    from rlcard.games.gin_rummy.game import GinRummyGame

    rng = random.Random(1)
    game = GinRummyGame()

    def run(seconds: float) -> tuple[int, int, float]:
        deals = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            game.init_game()
            while not game.is_over():
                game.step(rng.choice(game.judge.get_legal_actions()))
                actions += 1
            deals += 1
        return deals, actions, time.perf_counter() - start

    return run


def _our_slices(variant: str, players: int) -> Callable[[float], tuple[int, int, float]]:
    """``python -m games.engine bench``'s loop (random legal self-play, each deal from a
    seed the generator draws) run a slice at a time, as :func:`_rlcard_slices`."""
    from games.engine.cli import play_random
    from games.engine.deal import new_deal
    from games.engine.rules import make_rules

    rules = make_rules(variant, {})
    rng = random.Random(1)
    dealt = 0

    def run(seconds: float) -> tuple[int, int, float]:
        nonlocal dealt
        deals = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = new_deal(rules, players, dealt % players, seed=rng.randrange(2**32))
            actions += play_random(state, rng)
            deals += 1
            dealt += 1
        return deals, actions, time.perf_counter() - start

    return run


def engine(quick: bool) -> dict[str, Any]:
    seconds = 3 if quick else 10
    base = rlcard_gin_rummy(seconds)
    rows = []
    for variant, players in [("conquian", 2), ("colonel", 2), ("foster-three", 3), ("foster", 4),
                             ("foster", 5), ("foster", 7), ("tonk", 2), ("tonk", 4),
                             ("tunk", 2), ("tunk", 4)]:  # fmt: skip
        # The yardstick taking turns with the row, a slice each: the machine's speed
        # moves by a fifth or more within a second here, and rounds of seconds each,
        # even with rlcard on both sides, swung a row's rounds from 2.2x to 6.4x. Both
        # loops run in this process, SLICES times each, rlcard for half as long: the
        # row's ratio is of the two loops' actions/s over all their slices (each
        # quarter's ratio in the JSON, to show the spread).
        ours_run, theirs_run = _our_slices(variant, players), _rlcard_slices()
        ours_run(0.2)  # each loop's first deals, its caches and imports, not counted
        theirs_run(0.1)
        slices = []
        for _ in range(SLICES):
            theirs = theirs_run(seconds / SLICES / 2)
            ours = ours_run(seconds / SLICES)
            slices.append((theirs, ours))
        r: dict[str, Any] = {"variant": variant, "players": players}
        r["deals"] = sum(o[0] for _, o in slices)
        r["actions"] = sum(o[1] for _, o in slices)
        r["seconds"] = sum(o[2] for _, o in slices)
        r["deals_per_s"] = r["deals"] / r["seconds"]
        r["actions_per_s"] = r["actions"] / r["seconds"]
        r["rlcard_beside"] = sum(t[1] for t, _ in slices) / sum(t[2] for t, _ in slices)
        r["ratio_vs_rlcard"] = r["actions_per_s"] / r["rlcard_beside"]
        quarter = SLICES // 4
        r["ratios"] = [
            (sum(o[1] for _, o in part) / sum(o[2] for _, o in part))
            / (sum(t[1] for t, _ in part) / sum(t[2] for t, _ in part))
            for part in (slices[i : i + quarter] for i in range(0, SLICES, quarter))
        ]
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
        "slices": SLICES,
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
