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
from pathlib import Path

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


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_make_run_serves_the_demo_club_and_stops_cleanly(tmp_path: Path, stop: int) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "TESTING", "REDIS_PREFIX", "TEST_DB_NAME"}}  # fmt: skip
    env |= {"RUN_DIR": str(tmp_path), "PORT": str(port), "EVENTS_PORT": str(free_port())}
    proc = subprocess.Popen(
        [sys.executable, "-m", "club.run"], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    health: dict = {}  # type: ignore[type-arg]
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status, body = get(f"http://127.0.0.1:{port}/healthz")
            if status == 200:
                health = json.loads(body)
                break
            assert proc.poll() is None, "make run exited early"
            time.sleep(0.5)
        assert health.get("status") == "ok", health
        assert health["database"]["vendor"] == "sqlite"
        status, body = get(f"http://127.0.0.1:{port}/login/")
        assert status == 200 and b"Log in" in body
        assert len(processes_with(str(tmp_path))) >= 5  # redis, web, events, worker, beat
    finally:
        os.kill(proc.pid, stop)
        try:
            out, _ = proc.communicate(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
    text = out.decode(errors="replace")
    assert f"http://127.0.0.1:{port}/" in text  # the URL is printed
    assert "cooncan-demo" in text or "password" in text.lower()  # and a demo login
    time.sleep(0.5)
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
