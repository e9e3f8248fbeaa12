"""``python -m games.bots duel ...``: the computer players' own commands.

The duel (games/bots/duel.py) plays seeded deals between computer players and reports
their strength. It lives here, with the players, so that the engine imports nothing of
theirs (``python -m games.engine`` is replay, play and bench).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from games.bots import duel


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m games.bots", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("duel", help="seeded deals between computer players, seats rotated")
    duel.add_arguments(d)
    d.set_defaults(func=duel.run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
