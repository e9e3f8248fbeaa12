"""`make test` needs nothing running (issue 35): tests/services.py uses PostgreSQL and
Redis on localhost when they answer, and otherwise starts embedded ones for the run on
the very address and port the suite names, stopping them after, whatever the end."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What the suite does with them: a table in PostgreSQL, a key in Redis.
USE_BOTH = """
import os, sys, psycopg, redis
with psycopg.connect(os.environ["TEST_DATABASE_URL"].rsplit("/", 1)[0] + "/postgres") as c:
    print("postgres", c.execute("SHOW server_version").fetchone()[0].split()[0])
    c.execute("CREATE TEMP TABLE t (x int)")
r = redis.Redis.from_url(os.environ["TEST_REDIS_URL"])
r.set("k", "v"); print("redis", r.get("k").decode())
sys.exit(7)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def run(db: str, cache: str, *command: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"TEST_DATABASE_URL": db, "TEST_REDIS_URL": cache}
    return subprocess.run(
        [sys.executable, "-m", "tests.services", "--", *command],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_with_nothing_running_embedded_servers_are_started_on_the_named_ports_and_stopped() -> None:
    pg, rd = free_port(), free_port()
    done = run(
        f"postgres://postgres@127.0.0.1:{pg}/cooncan", f"redis://127.0.0.1:{rd}/14",
        sys.executable, "-c", USE_BOTH,
    )  # fmt: skip
    assert done.returncode == 7, done.stderr  # the command's own exit code
    assert "postgres 18." in done.stdout and "redis v" in done.stdout
    assert f"started an embedded PostgreSQL 18 on 127.0.0.1:{pg}" in done.stderr
    assert f"started an embedded Redis on 127.0.0.1:{rd}" in done.stderr
    assert "stopped the embedded PostgreSQL" in done.stderr
    assert not listening(pg) and not listening(rd)


def test_servers_that_answer_are_used_as_they_are() -> None:
    done = run(
        os.environ["DATABASE_URL"], os.environ["REDIS_URL"], sys.executable, "-c", "print('ran')"
    )
    assert done.returncode == 0 and done.stdout == "ran\n"
    assert "embedded" not in done.stderr


def test_a_server_named_elsewhere_that_does_not_answer_is_an_error_said_plainly() -> None:
    # 192.0.2.0/24 is TEST-NET-1: never a real host.
    done = run("postgres://postgres@192.0.2.1:5432/cooncan", os.environ["REDIS_URL"], "true")
    assert done.returncode == 1
    assert "ERROR: PostgreSQL is not reachable at postgres://postgres@192.0.2.1:5432" in done.stderr


def makefile_default(name: str) -> str:
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line.startswith(f"{name} ?= "):
            return line.split("?= ", 1)[1].strip()
    raise AssertionError(f"the Makefile gives no default {name}")


def test_make_test_runs_by_default_on_the_postgresql_18_and_redis_a_club_runs() -> None:
    """Issue 55, item 5: whatever the machine has (this kind runs PostgreSQL 15 on 5432),
    the suite's default servers are the embedded PostgreSQL 18 and the bundled Redis, on
    ports of their own: started for the run, or the very ones this run started."""
    db, cache = makefile_default("TEST_DATABASE_URL"), makefile_default("TEST_REDIS_URL")
    assert ":5432/" not in db and ":6379/" not in cache  # never the machine's own servers
    done = run(db, cache, sys.executable, "-c", USE_BOTH)
    assert done.returncode == 7, done.stderr
    assert "postgres 18." in done.stdout and "redis v" in done.stdout
