"""`make backup` and `make restore` (issue 57): the club's own management commands, run
against the embedded PostgreSQL `make run` uses (started for the command when the club is
not running) or against DATABASE_URL, with the settings `make run` gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def from_make(argv: list[str]) -> list[str]:
    """`make backup` and `make restore` give their variables (FOLDER, FILE, DROP) in the
    environment, where make puts a command line's variables: never pasted into the
    shell's text, so a file name holding quotes, backticks or $(...) is only a name."""
    command, rest = argv[0], argv[1:]
    if command == "backup" and os.environ.get("FOLDER"):
        rest += ["--folder", os.environ["FOLDER"]]
    if command == "backup" and os.environ.get("SEAL"):
        rest.append("--seal")
    if command == "restore":
        rest.append("--make-words")
        if os.environ.get("DROP"):
            rest += ["--drop", os.environ["DROP"]]
        elif os.environ.get("FILE"):
            rest.append(os.environ["FILE"])
    return [command, *rest]


def main(argv: list[str]) -> int:
    from club.runner import local

    by_make = "--from-make" in argv
    if by_make:
        argv = from_make([a for a in argv if a != "--from-make"])

    run_dir = Path(os.environ.get("RUN_DIR", BASE_DIR / ".run"))
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", local.secret_key(run_dir))
    env["RUN_DIR"] = str(run_dir)
    env["DB_POOL"] = "0"  # one command, one connection: none kept open in a pool
    manage = [sys.executable, str(BASE_DIR / "manage.py"), *argv]
    if env.get("DATABASE_URL"):
        status = subprocess.run(manage, env=env).returncode
    else:
        from club.runner import postgres

        env["DATABASE_URL"] = postgres.url(run_dir)
        with postgres.running(run_dir) as started:
            if started:
                print(f"(the club is not running: its PostgreSQL in {run_dir} started for this)")
            status = subprocess.run(manage, env=env).returncode
    # A restore refused (2: nothing changed, and the command said why) is an answer, not
    # a failure of make's: no "make: *** Error" under the sentence.
    return 0 if by_make and argv[0] == "restore" and status == 2 else status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
