"""`make backup` and `make restore` (issue 57): the club's own management commands, run
against the embedded PostgreSQL `make run` uses (started for the command when the club is
not running) or against DATABASE_URL, with the settings `make run` gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def main(argv: list[str]) -> int:
    from club.runner import local

    run_dir = Path(os.environ.get("RUN_DIR", BASE_DIR / ".run"))
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", local.secret_key(run_dir))
    env["RUN_DIR"] = str(run_dir)
    env["DB_POOL"] = "0"  # one command, one connection: none kept open in a pool
    manage = [sys.executable, str(BASE_DIR / "manage.py"), *argv]
    if env.get("DATABASE_URL"):
        return subprocess.run(manage, env=env).returncode
    from club.runner import postgres

    env["DATABASE_URL"] = postgres.url(run_dir)
    with postgres.running(run_dir) as started:
        if started:
            print(f"(the club is not running: its PostgreSQL in {run_dir} started for this)")
        return subprocess.run(manage, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
