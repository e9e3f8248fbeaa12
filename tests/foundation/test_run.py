"""`make run` on the embedded default: SQLite and the bundled Redis, every process up,
/healthz healthy, and Ctrl-C leaves nothing behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def processes_with(marker: str) -> list[int]:
    """Pids whose environment carries RUN_DIR=<marker> (every child of `make run`)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if f"RUN_DIR={marker}".encode() in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except OSError:
        return 0, b""


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def wait_until(condition: Callable[[], bool], what: str, timeout: float, proc: Any) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        assert proc.poll() is None, f"make run exited while waiting for {what}"
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_make_run_serves_the_demo_club_restarts_a_dead_process_and_stops_cleanly(
    tmp_path: Path, stop: int
) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "TESTING", "REDIS_PREFIX", "TEST_DB_NAME"}}  # fmt: skip
    env |= {"RUN_DIR": str(tmp_path), "PORT": str(port), "EVENTS_PORT": str(free_port())}
    log = tmp_path / "make-run.log"
    with log.open("wb") as out:  # a file, not a pipe: read while it runs, never stalls it
        proc = subprocess.Popen(
            [sys.executable, "-m", "club.run"], cwd=ROOT, env=env,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def healthy() -> bool:
        status, body = get(f"http://127.0.0.1:{port}/healthz")
        return status == 200 and json.loads(body).get("status") == "ok"

    def workers() -> list[int]:
        return [p for p in processes_with(str(tmp_path)) if " worker " in cmdline(p)]

    try:
        wait_until(healthy, "a healthy club", 120, proc)
        health = json.loads(get(f"http://127.0.0.1:{port}/healthz")[1])
        assert health["database"]["vendor"] == "sqlite"
        status, body = get(f"http://127.0.0.1:{port}/login/")
        assert status == 200 and b"Log in" in body
        assert len(processes_with(str(tmp_path))) >= 5  # redis, web, events, worker, beat
        # The worker dies (SIGKILL: no goodbye): the supervisor says so and starts it
        # again; the other processes run on and the club is healthy again.
        web = [p for p in processes_with(str(tmp_path)) if "gunicorn" in cmdline(p)]
        dead = workers()
        assert dead and web
        for pid in dead:
            os.kill(pid, signal.SIGKILL)
        wait_until(lambda: "restarting worker (restart 1)" in log.read_text(errors="replace"),
                   "the supervisor to restart the worker", 30, proc)  # fmt: skip
        wait_until(lambda: bool(workers()) and not set(workers()) & set(dead),
                   "a new worker process", 30, proc)  # fmt: skip
        assert all(pid in processes_with(str(tmp_path)) for pid in web), "web was stopped too"
        assert get(f"http://127.0.0.1:{port}/login/")[0] == 200
    finally:
        os.kill(proc.pid, stop)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = log.read_text(errors="replace")
    assert "worker exited with code" in text, text[-3000:]
    assert f"http://127.0.0.1:{port}/" in text  # the URL is printed
    assert "cooncan-demo" in text or "password" in text.lower()  # and a demo login
    deadline = time.monotonic() + 10
    while processes_with(str(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(str(tmp_path)) == [], "processes left behind after the stop"


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "kill"])
def test_make_run_itself_stops_everything(tmp_path: Path, how: str) -> None:
    """Through `make run`: Ctrl-C at a terminal sends SIGINT to the whole foreground
    process group; `kill <pid of make>` sends SIGTERM to make alone, which passes it on."""
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "TESTING", "REDIS_PREFIX", "TEST_DB_NAME"}}  # fmt: skip
    env |= {"RUN_DIR": str(tmp_path), "PORT": str(port), "EVENTS_PORT": str(free_port())}
    make = subprocess.Popen(
        ["make", "-s", "run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and get(f"http://127.0.0.1:{port}/healthz")[0] != 200:
            time.sleep(0.5)
        assert get(f"http://127.0.0.1:{port}/healthz")[0] == 200
    finally:
        if how == "ctrl-c":
            os.killpg(make.pid, signal.SIGINT)
        else:
            os.kill(make.pid, signal.SIGTERM)
        try:
            make.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
            raise
    deadline = time.monotonic() + 30
    while processes_with(str(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert processes_with(str(tmp_path)) == [], "processes left behind after the stop"
