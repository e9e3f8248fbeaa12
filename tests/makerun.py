"""`make run` driven from a test as a club starts it (issue 57 and the foundation tests):
its processes found by the RUN_DIR in their environment, /healthz awaited, a person's
visits over HTTP with cookies and the CSRF token."""

from __future__ import annotations

import html
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


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


def worker_main(marker: str) -> int | None:
    """The Celery worker's main process (its pool's children come after it)."""
    pids = []
    for pid in processes_with(marker):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(a.endswith(b"celery") for a in argv) and b"worker" in argv:
            pids.append(pid)
    return min(pids) if pids else None


def wait_until(condition: Callable[[], object], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def wait_gone(run_dir: Path, timeout: float = 30.0) -> None:
    """Every process of that `make run` ends, within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while processes_with(str(run_dir)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(str(run_dir)) == [], "processes left behind after the stop"


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except OSError:
        return 0, b""


class MakeRun:
    """`make run` in its own session (as at a terminal), its output read as it comes."""

    def __init__(
        self,
        run_dir: Path,
        *,
        host: str | None = None,
        demo: bool = True,
        settings: dict[str, str] | None = None,
    ) -> None:
        """``demo``: `make run DEMO=1`, the demo club loaded into an empty club (without
        it, an empty club prints its setup link, issue 78); ``settings``: given in the
        environment, as a club would give them."""
        self.run_dir, self.port, self.events_port = run_dir, free_port(), free_port()
        drop = {"DATABASE_URL", "REDIS_URL", "TESTING", "REDIS_PREFIX", "TEST_DB_NAME",
                "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "HOST"}  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k not in drop}
        env |= {"RUN_DIR": str(run_dir), "PORT": str(self.port),
                "EVENTS_PORT": str(self.events_port)} | (settings or {})  # fmt: skip
        # As the README says: `make run`, or `make run HOST=0.0.0.0` for phones.
        self.proc = subprocess.Popen(
            ["make", "-s", "run", *([f"HOST={host}"] if host else []), *(["DEMO=1"] if demo else [])],
            cwd=ROOT, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace"))

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def browser(self) -> Browser:
        """A new visit to this club, logging in with this install's demo password."""
        return Browser(self.url(""), password=self.demo_password())

    def demo_password(self) -> str:
        """The password `make run` made for this install's demo logins (issue 78)."""
        return (self.run_dir / "demo-password").read_text().strip()

    def wait_healthy(self) -> dict:  # type: ignore[type-arg]
        """Wait for /healthz to say "ok"; before that it may only say "starting" (the
        worker's first heartbeat awaited), never a bare 503 or "degraded"."""
        health: dict = {}  # type: ignore[type-arg]
        self.statuses: list[str] = []

        def healthy() -> bool:
            assert self.proc.poll() is None, f"make run exited early:\n{self.output[-3000:]}"
            status, body = get(self.url("/healthz"))
            if status == 0:
                return False  # not listening yet
            report = json.loads(body)  # JSON whatever the status: never a bare 503
            self.statuses.append(report["status"])
            if status == 200:
                health.update(report)
            return status == 200

        wait_until(healthy, "/healthz to answer 200", timeout=120)
        assert set(self.statuses) <= {"starting", "ok"}, self.statuses
        return health

    def stop(self, how: Callable[[int], None]) -> None:
        how(self.proc.pid)
        try:
            self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise
        wait_gone(self.run_dir)


class Browser:
    """One person's visits over HTTP: cookies, the CSRF token, the page as text."""

    def __init__(self, base: str, cookies: httpx.Cookies | None = None, password: str = "") -> None:
        """A new visit, or (``cookies``) the same person coming back with his session;
        ``password`` the one its logins take (the install's demo password)."""
        self.password = password
        self.client = httpx.Client(
            base_url=base, timeout=15, headers={"Origin": base}, cookies=cookies
        )
        if cookies is None:
            self.client.get("/login/")

    def get(self, path: str) -> httpx.Response:
        r = self.client.get(path)
        assert r.status_code == 200, f"GET {path} answered {r.status_code}: {r.text[:800]}"
        return r

    def post(self, path: str, data: dict[str, str], status: int = 302) -> httpx.Response:
        token = self.client.cookies.get("csrftoken", "")
        r = self.client.post(path, data=data | {"csrfmiddlewaretoken": token})
        assert r.status_code == status, f"POST {path} answered {r.status_code}: {r.text[:800]}"
        return r

    def log_in(self, username: str) -> None:
        assert self.password, "which password? MakeRun.browser() gives the demo's"
        self.post("/login/", {"username": username, "password": self.password})


def words(page: httpx.Response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.text)))
