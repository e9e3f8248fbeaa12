"""``python -m games.engine {replay,play,bench}`` (argparse subcommands). The computer
players' duel is a command of their own package: the engine imports nothing of theirs.

Exit codes of ``replay``: 0 every action legal, 1 an illegal action, 2 malformed input.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from .deal import new_deal
from .errors import InvalidActionError
from .protocol import DealState
from .replay import load, record, replay
from .rules import Rules, make_rules, parse_option_pairs
from .variant import first_variant


def play_random(state: DealState, rng: random.Random, limit: int = 10_000_000) -> int:
    """Random legal actions to the end of the deal; the number applied."""
    n = 0
    while not state.is_over() and n < limit:
        seat = state.to_move()
        assert seat is not None
        state.apply(rng.choice(state.legal_actions(seat)))
        n += 1
    return n


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=None) + "\n")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            data = load(f.read())
        result = replay(data)
    except (OSError, InvalidActionError) as e:
        _emit({"ok": False, "error": str(e)})
        return 2
    state = result.state
    if result.error is not None:
        raw = data["actions"][result.index] if isinstance(data, dict) else None
        _emit({"ok": False, "index": result.index, "action": raw,
               "reason": result.error.reason, "law": result.error.law})  # fmt: skip
        return 1
    out: dict[str, Any] = {"ok": True, "actions": result.applied}
    o = state.outcome()
    if o is not None:
        out["outcome"] = o.to_json()
    else:
        summary = state.spectator_view()
        summary.pop("log", None)
        out["state"] = summary
    _emit(out)
    return 0


def _rules(args: argparse.Namespace) -> Rules:
    variant = args.variant if args.variant is not None else first_variant().name
    return make_rules(variant, parse_option_pairs(args.option or []))


def cmd_play(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
        players = args.players or rules.spec.default_players
        state = new_deal(rules, players, args.dealer, seed=args.seed)
    except InvalidActionError as e:
        _emit({"ok": False, "error": str(e)})
        return 2
    play_random(state, random.Random(args.seed))
    _emit(record(state, seed=args.seed))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
        players = args.players or rules.spec.default_players
        new_deal(rules, players, 0, seed=0)
    except InvalidActionError as e:
        _emit({"ok": False, "error": str(e)})
        return 2
    rng = random.Random(args.seed)
    deals = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state = new_deal(rules, players, deals % players, seed=rng.randrange(2**32))
        actions += play_random(state, rng)
        deals += 1
    elapsed = time.perf_counter() - start
    result = {
        "variant": rules.variant,
        "players": players,
        "deals": deals,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "deals_per_s": round(deals / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
    }
    if args.json:
        _emit(result)
    else:
        print(" ".join(f"{k}={v}" for k, v in result.items()))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser(
        "replay", help="replay a deal's JSON; print its outcome or first illegal action"
    )
    r.add_argument("file")
    r.set_defaults(func=cmd_replay)
    for name, func, help_ in (
        ("play", cmd_play, "play random legal actions to the end; print the replay JSON"),
        ("bench", cmd_bench, "random self-play speed"),
    ):
        q = sub.add_parser(name, help=help_)
        q.add_argument("--variant", default=None, help="a game's name (default: the first)")
        q.add_argument("--players", type=int, default=0)
        q.add_argument("--option", action="append", metavar="NAME=VALUE")
        q.add_argument("--seed", type=int, default=0)
        q.set_defaults(func=func)
        if name == "play":
            q.add_argument("--dealer", type=int, default=0)
        else:
            q.add_argument("--seconds", type=float, default=5.0)
            q.add_argument("--json", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    code: int = args.func(args)
    return code
