"""Faults: Redis stopped during play, PostgreSQL restarted during play.

The servers are real processes (gunicorn for pages, the Celery worker and beat as `make
run` starts them) pointed at a
PRIVATE redis-server or a PRIVATE PostgreSQL cluster on spare ports, which the test
stops and starts; the machine's services are never touched.
"""

from __future__ import annotations

import html
import json
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from django.utils import timezone

from club.models import ClubSession, Posting, Table
from club.runner.processes import commands
from club.services.sessions import open_session
from games.models import Deal, DealAction
from games.play import reading

from .conftest import (
    ROOT,
    VENV_BIN,
    PgCluster,
    RedisServer,
    child_env,
    play_physical,
    start_web,
    stop,
)

pytestmark = pytest.mark.slow

ACTION_RE = re.compile(r'name="action" value="([^"]+)"')
HAND_RE = re.compile(r'class="card [a-z ]*in-hand"[^>]* data-card="([^"]+)"')
HIDDEN_RE = re.compile(r'<input type="hidden" name="(version|deal)" value="(\d+)"')


def seed(env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "tests.reliability.seed"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def browser(port: int, cookie: str) -> httpx.Client:
    c = httpx.Client(base_url=f"http://127.0.0.1:{port}", cookies={"sessionid": cookie}, timeout=15)
    c.get("/")  # the CSRF cookie, as a page would set it
    return c


def post(c: httpx.Client, url: str, data: dict[str, Any], **headers: str) -> httpx.Response:
    return c.post(
        url, data=data, headers={"X-CSRFToken": c.cookies.get("csrftoken", ""), **headers}
    )


def act_once(clients: list[httpx.Client], table: int) -> httpx.Response:
    """The player whose turn it is clicks the first action offered on his page."""
    for c in clients:
        page = c.get(f"/tables/{table}/state/", headers={"HX-Request": "true"})
        assert page.status_code == 200, page.text[:500]
        actions = ACTION_RE.findall(page.text)
        if "your-turn" not in page.text:
            continue
        hidden = dict(HIDDEN_RE.findall(page.text))
        data = {**hidden, "token": f"t{time.monotonic_ns()}"}
        if actions:
            data["action"] = html.unescape(actions[0])
        elif 'name="intent" value="discard"' in page.text:
            # Only a discard is left (nothing to force, no play to list): the player
            # selects a card of his hand and discards it, as the page's buttons do.
            data |= {"intent": "discard", "cards": HAND_RE.findall(page.text)[0]}
        else:
            continue
        return post(c, f"/tables/{table}/act/", data, **{"HX-Request": "true"})
    raise AssertionError("nobody may act at the table")


def pages_load(c: httpx.Client, ids: dict[str, Any]) -> None:
    for url in ["/", f"/tables/{ids['online']}/", f"/sessions/{ids['session']}/",
                f"/club/tables/{ids['physical']}/", f"/club/tables/{ids['physical']}/washbook/",
                f"/tables/{ids['online']}/club/", "/standings/"]:  # fmt: skip
        started = time.monotonic()
        r = c.get(url)
        assert r.status_code == 200, (url, r.status_code, r.text[:300])
        assert time.monotonic() - started < 5, f"{url} hung on the missing service"


class Service:
    """A process of the club as `make run` starts it (club/runner/processes.py), its output in a
    file (a pipe nobody reads would fill and stall it)."""

    def __init__(self, name: str, command: str, env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.log = log_dir / f"{name}.log"
        env = {**env, "PATH": f"{VENV_BIN}:{env.get('PATH', '')}"}  # as club/runner/run.py does
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                shlex.split(command), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def assert_up(self) -> None:
        assert self.proc.poll() is None, f"{self.name} died:\n{self.output()[-4000:]}"


def wait_for(predicate: Callable[[], bool], timeout: float, what: str, up: list[Service]) -> float:
    """Wait for ``predicate`` (checking the services stay up); returns the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():
            return time.monotonic() - started
        for service in up:
            service.assert_up()
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


@pytest.fixture
def redis_stack(
    private_redis: RedisServer, transactional_db: None, tmp_path: Path
) -> Iterator[dict[str, Any]]:
    env = child_env(
        REDIS_URL=private_redis.url,
        GAMES_BOT_DELAY="1.5,1.5",  # a bot's move is still queued when the test stops Redis
        # The sweeps of production (every 15 s, deals quiet for 10 s) at a pace a test can
        # wait for; docs/reliability.md gives the production bound (within a minute).
        GAMES_BOT_SWEEP_SECONDS="2", GAMES_BOT_QUIET_SECONDS="3",
        CLUB_SWEEP_SECONDS="2", CLUB_BALANCE_GRACE_SECONDS="3",
    )  # fmt: skip
    ids = seed(env)
    web, port = start_web(env)
    programs = commands(run_dir=str(tmp_path))
    # The pause before a bot's move is kept where a member's move queues it (the web), so
    # it is pending when Redis stops; the worker's own next moves are quick.
    quick = {**env, "GAMES_BOT_DELAY": "0.05,0.1"}
    services = [Service(name, programs[name], quick, tmp_path) for name in ("worker", "beat")]
    import redis as redis_lib

    r = redis_lib.Redis.from_url(private_redis.url)
    try:
        wait_for(lambda: bool(r.keys("*_kombu.binding.celery*")), 30, "the worker's queue",
                 services)  # fmt: skip
        yield {"env": env, "ids": ids, "port": port, "redis": private_redis,
               "web": web, "services": services}  # fmt: skip
    finally:
        stop(web, *(service.proc for service in services))


def _practice_deal(table: int) -> Deal:
    deal = Deal.objects.filter(table_id=table).order_by("-number").first()
    assert deal is not None
    return deal


def _bot_actions(table: int) -> int:
    return DealAction.objects.filter(deal__table_id=table, seat=1).count()


def test_redis_stopped_three_times_with_a_bot_move_pending_loses_nothing_and_applies_nothing_twice(
    redis_stack: dict[str, Any], make_members: Callable[..., list[Any]]
) -> None:
    """Three outages, each while a computer player's move is queued: the worker, beat and
    web stay up; during the first, members load pages, play, log in and close the
    session; after each, the pending move is made exactly once, a redraw that fell due
    is opened, and the closed session is balanced once."""
    ids, port, redis = redis_stack["ids"], redis_stack["port"], redis_stack["redis"]
    up = [*redis_stack["services"]]
    web = redis_stack["web"]
    east, west = browser(port, ids["cookies"]["east"]), browser(port, ids["cookies"]["west"])
    secretary = browser(port, ids["cookies"]["secretary"])
    solo = browser(port, ids["cookies"]["solo"])
    practice = ids["practice"]
    assert act_once([east, west], ids["online"]).status_code == 200
    # A second evening whose table's hourly redraw falls due during the second outage.
    other = open_session(stake="0.05", name="Late", second=True)
    late_table = play_physical(other, make_members(4, "late"), deals=1)
    resumed: list[float] = []

    for cycle in range(3):
        wait_for(lambda: _practice_deal(practice).to_move == 0, 60, "the member's turn", up)
        while _practice_deal(practice).to_move == 0:  # he plays until the bot is to move
            assert act_once([solo], practice).status_code == 200
        before = _bot_actions(practice)
        redis.stop()  # the bot's move (a 1.5 s countdown) is pending
        assert _bot_actions(practice) == before, "the move was made before the outage"

        assert web.poll() is None
        if cycle == 0:
            _members_carry_on_without_redis(redis_stack, east, west, secretary)
        elif cycle == 1:
            Table.objects.filter(pk=late_table.pk).update(
                next_redraw_at=timezone.now() - timedelta(seconds=1)
            )
        pages_load(solo, ids)
        for service in up:
            service.assert_up()
        assert _bot_actions(practice) == before  # its message went with Redis

        redis.start()  # same port: web, worker and beat reconnect by themselves
        resumed.append(
            wait_for(lambda n=before: _bot_actions(practice) > n, 60, "the bot's pending move", up)
        )
        if cycle == 1:
            wait_for(lambda: Table.objects.get(pk=late_table.pk).redraw_window_until is not None,
                     60, "the redraw that fell due", up)  # fmt: skip

    # Seconds from Redis's return to the bot's pending move (pytest -s shows them).
    print(f"bot move resumed after Redis returned: {[round(s, 1) for s in resumed]} s")
    assert max(resumed) < 60, resumed
    wait_for(lambda: ClubSession.objects.get(pk=ids["session"]).status == "balanced", 60,
             "the session closed during the outage to be balanced", up)  # fmt: skip
    assert Posting.objects.filter(session_id=ids["session"], kind="session-balance").count() == 1
    # Nothing applied twice: every bot action came from exactly one task that applied it,
    # and each deal's log replays to the state stored for it (read once the bot is done).
    wait_for(lambda: _practice_deal(practice).to_move == 0, 60, "the member's turn", up)

    def applied() -> int:
        return len(re.findall(r"games\.tasks\.bot_move\[[^]]+\] succeeded in [^:]+: True",
                              redis_stack["services"][0].output()))  # fmt: skip

    # The worker logs a task's success after its move commits: the last move can be in
    # the database before its line is in the log (a clean-clone run read it first).
    wait_for(lambda: applied() >= _bot_actions(practice), 30, "the last bot move's log line", up)
    assert applied() == _bot_actions(practice), redis_stack["services"][0].output()[-3000:]
    for deal in Deal.objects.filter(table_id=practice):
        assert reading.replay(deal).version == deal.version
    for service in up:
        service.assert_up()
    assert web.poll() is None
    pages_load(east, ids)
    assert act_once([east, west], ids["online"]).status_code == 200


def _members_carry_on_without_redis(
    stack: dict[str, Any], east: httpx.Client, west: httpx.Client, secretary: httpx.Client
) -> None:
    """With the broker down: pages load, moves apply (the live notice is lost; polling the
    state fragment shows the move), the secretary closes the session (balancing waits),
    logging in works, and /healthz says what is down."""
    ids, port = stack["ids"], stack["port"]
    pages_load(east, ids)
    before = Deal.objects.get(table_id=ids["online"]).version
    for _ in range(3):
        r = act_once([east, west], ids["online"])
        assert r.status_code == 200 and 'role="alert"' not in r.text, r.text[:500]
    deal = Deal.objects.get(table_id=ids["online"])
    assert deal.version == before + 3
    polled = west.get(
        f"/tables/{ids['online']}/state/?since={deal.pk}:{before}", headers={"HX-Request": "true"}
    )
    assert polled.status_code == 200 and f'data-stamp="{deal.pk}:{deal.version}"' in polled.text
    r = post(secretary, f"/sessions/{ids['session']}/close/", {"deals": "end"})
    assert r.status_code == 302
    assert ClubSession.objects.get(pk=ids["session"]).status == "closing"
    anon = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=15)
    anon.get("/login/")
    r = anon.post("/login/", data={"username": "nobody", "password": "x"},
                  headers={"X-CSRFToken": anon.cookies.get("csrftoken", "")})  # fmt: skip
    assert r.status_code == 200
    health = east.get("/healthz").json()
    assert health["database"]["ok"] and not health["broker"]["ok"]


@pytest.fixture
def pg_stack(private_postgres: PgCluster) -> Iterator[dict[str, Any]]:
    with psycopg.connect(private_postgres.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE cooncan_fault")
    env = child_env(DATABASE_URL=private_postgres.url("cooncan_fault"))
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=180
    )
    ids = seed(env)
    servers = {}
    # Production's pooled connections, and persistent connections with health checks.
    for mode, extra in {"pool": {"DB_POOL": "1"}, "persistent": {"DB_POOL": "0"}}.items():
        servers[mode] = start_web({**env, **extra}, workers=1, threads=2)
    try:
        yield {"ids": ids, "servers": servers, "cluster": private_postgres}
    finally:
        stop(*(proc for proc, _ in servers.values()))


def test_after_a_postgresql_restart_the_app_recovers_without_restarting(
    pg_stack: dict[str, Any],
) -> None:
    ids, cluster = pg_stack["ids"], pg_stack["cluster"]
    clients = {}
    for mode, (_, port) in pg_stack["servers"].items():
        east, west = browser(port, ids["cookies"]["east"]), browser(port, ids["cookies"]["west"])
        clients[mode] = (east, west)
        for _ in range(4):  # warm every pooled/persistent connection of every thread
            pages_load(east, ids)
        assert act_once([east, west], ids["online"]).status_code == 200

    cluster.ctl("restart", "-m", "fast")

    failures: dict[str, list[str]] = {}
    for mode, (east, west) in clients.items():
        failures[mode] = []
        for i in range(6):  # the first requests after the restart must already succeed
            for url in ["/", f"/tables/{ids['online']}/", f"/sessions/{ids['session']}/"]:
                r = east.get(url)
                if r.status_code != 200:
                    failures[mode].append(f"request {i} {url}: {r.status_code}")
        r = act_once([east, west], ids["online"])
        if r.status_code != 200:
            failures[mode].append(f"action: {r.status_code}")
    assert failures == {"pool": [], "persistent": []}, (
        "error pages after the restart (a pooled connection handed out dead?): " + repr(failures)
    )
