"""club/runner/postgres.py against the real PostgreSQL: `make run` with DATABASE_URL naming a
database that does not exist makes it, or says in one line what to run; a server that
does not answer is said in one line too (not a traceback after a long wait)."""

from __future__ import annotations

import os
import signal
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import dj_database_url
import psycopg
import pytest
from psycopg import sql

from club.runner import postgres


def server() -> dict[str, str]:
    db = dj_database_url.parse(os.environ["DATABASE_URL"])
    return {"host": db["HOST"], "port": str(db["PORT"] or 5432), "user": db["USER"]}


def admin() -> psycopg.Connection:  # type: ignore[type-arg]
    s = server()
    return psycopg.connect(
        host=s["host"], port=s["port"], user=s["user"], dbname="postgres", autocommit=True
    )


@pytest.fixture
def name() -> Iterator[str]:
    made = f"cooncan_make_{uuid.uuid4().hex[:10]}"
    yield made
    with admin() as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(made)))


def exists(name: str) -> bool:
    with admin() as conn:
        return bool(conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone())


def test_a_missing_database_is_made_and_an_existing_one_left_alone(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    s = server()
    url = f"postgres://{s['user']}@{s['host']}:{s['port']}/{name}"
    assert not exists(name)
    postgres.ensure_database(url)
    assert exists(name)
    assert f"made the database {name!r}" in capsys.readouterr().out
    postgres.ensure_database(url)  # again: nothing to do, nothing said
    assert capsys.readouterr().out == ""


def test_a_user_who_may_not_create_it_is_told_in_one_line_what_to_run(name: str) -> None:
    s = server()
    role = f"cooncan_nocreate_{uuid.uuid4().hex[:8]}"
    with admin() as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN NOCREATEDB").format(sql.Identifier(role)))
    try:
        with pytest.raises(SystemExit) as exit_:
            postgres.ensure_database(f"postgres://{role}@{s['host']}:{s['port']}/{name}")
        message = str(exit_.value)
        assert "\n" not in message
        assert f"does not exist at {s['host']}:{s['port']}" in message
        assert f"createdb -h {s['host']} -p {s['port']} -U {role} {name}" in message
        assert not exists(name)
    finally:
        with admin() as conn:
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def test_a_server_that_does_not_answer_is_said_in_one_line() -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SystemExit) as exit_:
        postgres.ensure_database(f"postgres://postgres@127.0.0.1:{port}/club", timeout=1)
    message = str(exit_.value)
    assert message.startswith(f"PostgreSQL at 127.0.0.1:{port} does not answer")
    assert "\n" not in message
    assert "is DATABASE_URL right?" in message and "Traceback" not in message


def test_a_stale_postmaster_pid_is_cleared_and_a_live_server_is_named(tmp_path: Path) -> None:
    """Issue 57: a postmaster.pid left by a server that is gone (a reboot, a kill -9), its
    pid now any other process's or none, stopped the next start ("lock file already
    exists", make run giving up with no advice). It is removed; the pid file of the data
    directory's own running server is kept, and make run says how to stop that one."""
    import subprocess
    import sys

    postgres.prepare(tmp_path, durable=False)
    data = postgres.data_dir(tmp_path)
    lock = data / "postmaster.pid"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        sockets = postgres.socket_dir(tmp_path)
        socket_lock = sockets / ".s.PGSQL.5432.lock"
        for pid in (other.pid, 2**22 - 1):  # an unrelated process; no process at all
            lock.write_text(f"{pid}\n{data}\n")
            # The socket's lock file names the same gone server (a power cut left both,
            # and PostgreSQL refused on it: "Is another postmaster using socket file").
            socket_lock.write_text(f"{pid}\n{data}\n")
            (sockets / ".s.PGSQL.5432").touch()
            assert postgres.postmaster(data) is None and not lock.exists()
            assert not socket_lock.exists() and not (sockets / ".s.PGSQL.5432").exists()
    finally:
        other.kill()
        other.wait()
    server = subprocess.Popen(
        postgres.command(tmp_path, durable=False), preexec_fn=postgres.as_user(postgres.server_user()),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        postgres.wait_ready(postgres.url(tmp_path, "postgres"), alive=lambda: server.poll() is None)
        assert postgres.postmaster(data) == server.pid and lock.exists()
        assert socket_lock.exists()  # the live server's are kept
        with pytest.raises(
            SystemExit, match=rf"already running .* \(its PostgreSQL is pid {server.pid}\)"
        ):
            postgres.prepare(tmp_path, durable=False)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
