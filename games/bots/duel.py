"""Measured strength: play seeded deals between bots and report each bot's results.

``python -m games.bots duel --variant conquian --seats club,greedy --deals 2000 --seed 1
--json``. Deals come in blocks: one shuffled
pack per block, played once for each rotation of the seats, so every bot sits in every
position equally and meets the same cards (duplicate style, which also narrows the
confidence interval). The 95% interval of the mean points per deal is taken over blocks.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.deal import new_deal
from games.engine.errors import InvalidActionError
from games.engine.rules import OptionValue, make_rules, parse_option_pairs
from games.engine.variant import VARIANTS


@dataclass
class BlockResult:
    """One pack played in every rotation: per bot name, points and wins per seat-deal."""

    points: dict[str, list[int]] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    choice_times: dict[str, list[float]] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)


class DuelFailure(RuntimeError):
    """A computer player failed in a duel (it raised, or chose an illegal action): the
    duel stops and says where, so the deal can be replayed; nothing plays in its place."""


def parse_options(pairs: Sequence[str]) -> dict[str, OptionValue]:
    """``["splash=25", "joker=true"]`` -> ``{"splash": 25, "joker": True}``."""
    try:
        return parse_option_pairs(pairs)
    except InvalidActionError as e:
        raise SystemExit(f"--option wants key=value: {e}") from None


def play_block(
    variant: str,
    options: dict[str, OptionValue],
    seats: Sequence[str],
    block: int,
    seed: int,
    deals: int,
    budget_ms: float | None,
    expert: dict[str, Any] | None = None,
) -> BlockResult:
    """Play ``deals`` rotations (at most ``len(seats)``) of one seeded pack; ``expert``
    settings, if any, build this block's expert (:class:`.expert.ExpertBot`)."""
    from . import LEVELS, configure
    from .expert import ExpertBot

    configure(budget_ms=budget_ms)
    levels = dict(LEVELS)
    if expert:
        extra: dict[str, Any] = {} if budget_ms is None else {"budget_ms": budget_ms}
        levels["expert"] = ExpertBot(**extra, **expert)
    rules = make_rules(variant, options)
    n = len(seats)
    res = BlockResult()
    pack_seed = seed * 1_000_003 + block
    for rot in range(deals):
        lineup = [seats[(s + rot) % n] for s in range(n)]
        deal = new_deal(rules, n, block % n, seed=pack_seed)
        rng = random.Random(f"{seed}:{block}:{rot}")
        while not deal.is_over():
            seat = deal.to_move()
            assert seat is not None
            legal = deal.legal_actions(seat)
            bot = levels[lineup[seat]]
            t0 = time.perf_counter()
            where = (f"{lineup[seat]} in seat {seat} of {variant} (seed {seed}, block {block}, "
                     f"rotation {rot}, after {deal.version} actions)")  # fmt: skip
            try:
                action = bot.choose(deal.player_view(seat), legal, rng)
            except Exception as e:
                raise DuelFailure(f"{where} raised {type(e).__name__}: {e}") from e
            ms = (time.perf_counter() - t0) * 1000
            res.times.setdefault(lineup[seat], []).append(ms)
            if len(legal) > 1:
                res.choice_times.setdefault(lineup[seat], []).append(ms)
            if action not in legal:
                raise DuelFailure(f"{where} chose {action!r}, which is not legal")
            deal.apply(action)
        out = deal.outcome()
        assert out is not None
        res.kinds[out.kind] = res.kinds.get(out.kind, 0) + 1
        for s, name in enumerate(lineup):
            res.points.setdefault(name, []).append(out.payments[s])
            res.wins[name] = res.wins.get(name, 0) + int(out.winner == s)
    return res


def _run_block(job: tuple[Any, ...]) -> BlockResult:
    return play_block(*job)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    i = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[i]


def duel(
    variant: str,
    seats: Sequence[str],
    deals: int,
    seed: int,
    options: dict[str, OptionValue] | None = None,
    *,
    workers: int = 1,
    budget_ms: float | None = None,
    expert: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` deals and return the report (see the module docstring)."""
    from . import LEVELS

    for name in seats:
        if name not in LEVELS:
            raise SystemExit(f"unknown bot {name!r}; one of {', '.join(LEVELS)}")
    options = dict(options or {})
    rules = make_rules(variant, options)
    n = len(seats)
    if not rules.spec.min_players <= n <= rules.spec.max_players:
        raise SystemExit(f"{variant} is for {rules.spec.min_players}-{rules.spec.max_players}")
    jobs = []
    left, block = deals, 0
    while left > 0:
        k = min(n, left)
        jobs.append((variant, options, list(seats), block, seed, k, budget_ms, expert))
        left -= k
        block += 1
    t0 = time.perf_counter()
    if workers > 1 and len(jobs) > 1:
        # Not fork: the caller may have threads (a test run's connection pools), and a
        # forked child can deadlock on a lock one of them held. The blocks' arguments are
        # plain data and every bot is built again in the child.
        ctx = multiprocessing.get_context("forkserver" if sys.platform != "win32" else "spawn")
        with ctx.Pool(workers) as pool:
            results = pool.map(_run_block, jobs, chunksize=max(1, len(jobs) // (workers * 8)))
    else:
        results = [_run_block(j) for j in jobs]
    seconds = time.perf_counter() - t0
    kinds: dict[str, int] = {}
    for r in results:
        for k2, v in r.kinds.items():
            kinds[k2] = kinds.get(k2, 0) + v
    report: dict[str, Any] = {
        "variant": variant,
        "options": dict(rules.options),
        "players": n,
        "seats": list(seats),
        "deals": deals,
        "seed": seed,
        "seconds": round(seconds, 2),
        "workers": workers,
        "expert_settings": dict(expert or {}),
        "outcomes": kinds,
        "bots": {},
    }
    for name in dict.fromkeys(seats):
        count = seats.count(name)
        block_means = [statistics.fmean(r.points[name]) for r in results if r.points.get(name)]
        points = [p for r in results for p in r.points.get(name, [])]
        times = [t for r in results for t in r.times.get(name, [])]
        choices = [t for r in results for t in r.choice_times.get(name, [])]
        wins = sum(r.wins.get(name, 0) for r in results)
        rate = wins / (deals * count) if deals else 0.0
        block_wins = [
            r.wins.get(name, 0) / len(r.points[name]) for r in results if r.points.get(name)
        ]
        mean = statistics.fmean(points) if points else 0.0
        half, win_half = half_width(block_means), half_width(block_wins)
        # the block means weigh a short last block like the others: centre on the mean
        report["bots"][name] = {
            "seats": count,
            "deals": deals,
            "wins": wins,
            "win_rate": round(rate, 4),
            # over blocks, as for the points: the share of its seat-deals the bot won
            "win_ci95": [round(rate - win_half, 4), round(rate + win_half, 4)],
            "mean_points": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "decision_ms_median": round(statistics.median(times), 3) if times else 0.0,
            "decision_ms_p99": round(percentile(times, 0.99), 3),
            "decisions": len(times),
            # the same over the decisions with more than one legal action
            "choice_ms_median": round(statistics.median(choices), 3) if choices else 0.0,
            "choice_ms_p99": round(percentile(choices, 0.99), 3),
            "choices": len(choices),
            # per block (one pack in every rotation), for intervals over a prefix
            "block_points": [round(x, 3) for x in block_means],
            "block_win_rates": [round(x, 4) for x in block_wins],
        }
    return report


def half_width(block_values: Sequence[float]) -> float:
    """Half the 95% interval of the mean, over blocks (0 with fewer than two)."""
    if len(block_values) < 2:
        return 0.0
    return 1.96 * statistics.stdev(block_values) / math.sqrt(len(block_values))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", required=True, choices=list(VARIANTS), help="the game (the registry's)"
    )
    parser.add_argument("--seats", required=True, help="bot levels by seat, e.g. expert,greedy")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a variant option, e.g. --option splash=25 (repeatable)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=min(2, multiprocessing.cpu_count()))
    parser.add_argument("--budget-ms", type=float, default=None, help="expert's time budget")
    parser.add_argument("--expert", action="append", default=[], metavar="KEY=VALUE",
                        help="an expert setting, e.g. --expert hold=false or "
                             "--expert rummy_playouts=240 (repeatable)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


EXPERT_SETTINGS = {"hold": bool, "rummy_playouts": int, "rummy_threshold": float, "samples": int}


def expert_settings(pairs: Sequence[str]) -> dict[str, Any]:
    """``["hold=false", "rummy_playouts=240"]`` -> the expert's keyword arguments."""
    out: dict[str, Any] = {}
    for p in pairs:
        key, sep, raw = p.partition("=")
        kind = EXPERT_SETTINGS.get(key)
        if not sep or kind is None:
            raise SystemExit(f"--expert wants one of {', '.join(EXPERT_SETTINGS)}=VALUE, not {p!r}")
        try:
            if kind is bool:
                if raw.lower() not in ("true", "false"):
                    raise ValueError(raw)
                out[key] = raw.lower() == "true"
            else:
                out[key] = kind(raw)
        except ValueError:
            raise SystemExit(f"--expert {key} wants a {kind.__name__}, not {raw!r}") from None
    return out


def run(args: argparse.Namespace) -> int:
    seats = [s.strip() for s in str(args.seats).split(",") if s.strip()]
    try:
        report = duel(
            args.variant, seats, args.deals, args.seed, parse_options(args.option),
            workers=args.workers, budget_ms=args.budget_ms, expert=expert_settings(args.expert),
        )  # fmt: skip
    except DuelFailure as e:
        print(f"duel stopped: {e}", file=sys.stderr)
        return 3
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['variant']}: {report['deals']} deals, seed {report['seed']}, "
          f"{report['seconds']} s; outcomes {report['outcomes']}")  # fmt: skip
    for name, b in report["bots"].items():
        lo, hi = b["ci95"]
        wlo, whi = b["win_ci95"]
        print(f"  {name:8} x{b['seats']}  win rate {b['win_rate']:.3f} [{wlo:.3f}, {whi:.3f}]  points/deal "
              f"{b['mean_points']:+.3f} [{lo:+.3f}, {hi:+.3f}]  decision ms median "
              f"{b['decision_ms_median']:.2f} p99 {b['decision_ms_p99']:.2f} (with a choice: "
              f"{b['choice_ms_median']:.2f}, p99 {b['choice_ms_p99']:.2f})")  # fmt: skip
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots duel", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
