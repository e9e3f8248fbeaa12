"""Faults: Redis stopped during play, PostgreSQL restarted during play.

The servers are real processes (gunicorn for pages, a Celery worker) pointed at a
PRIVATE redis-server or a PRIVATE PostgreSQL cluster on spare ports, which the test
stops and starts; the machine's services are never touched.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from django.utils import timezone

from club.models import ClubSession, Posting
from games.models import Deal, DealAction

from .conftest import ROOT, PgCluster, RedisServer, child_env, start_web, stop

pytestmark = pytest.mark.slow

ACTION_RE = re.compile(r'name="action" value="([^"]+)"')
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
        if "your-turn" in page.text and actions:
            hidden = dict(HIDDEN_RE.findall(page.text))
            data = {
                **hidden,
                "token": f"t{time.monotonic_ns()}",
                "action": html.unescape(actions[0]),
            }
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


@pytest.fixture
def redis_stack(private_redis: RedisServer, transactional_db: None) -> Iterator[dict[str, Any]]:
    env = child_env(REDIS_URL=private_redis.url, GAMES_BOT_DELAY="0.05,0.1")
    ids = seed(env)
    web, port = start_web(env)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "club", "worker", "--pool", "solo",
         "--without-gossip", "--without-mingle", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    import redis as redis_lib

    r = redis_lib.Redis.from_url(private_redis.url)
    deadline = time.monotonic() + 30
    while not r.keys("*_kombu.binding.celery*") and time.monotonic() < deadline:
        time.sleep(0.1)  # the worker has declared its queue: it is up
    try:
        yield {
            "env": env,
            "ids": ids,
            "port": port,
            "redis": private_redis,
            "worker": worker,
            "web": web,
        }
    finally:
        stop(worker)
        stop(web)


def test_with_redis_stopped_members_load_pages_and_play_and_work_resumes_after(
    redis_stack: dict[str, Any],
) -> None:
    ids, port, redis = redis_stack["ids"], redis_stack["port"], redis_stack["redis"]
    east, west = browser(port, ids["cookies"]["east"]), browser(port, ids["cookies"]["west"])
    secretary = browser(port, ids["cookies"]["secretary"])
    solo = browser(port, ids["cookies"]["solo"])
    assert act_once([east, west], ids["online"]).status_code == 200

    redis.stop()
    # Pages and fragments load; actions apply (the live-update notice is lost; the
    # browsers' polling of the state fragment shows the move).
    pages_load(east, ids)
    before = Deal.objects.get(table_id=ids["online"]).version
    for _ in range(3):
        r = act_once([east, west], ids["online"])
        assert r.status_code == 200 and 'role="alert"' not in r.text, r.text[:500]
    deal = Deal.objects.get(table_id=ids["online"])
    assert deal.version == before + 3
    stamp = f"{deal.pk}:{before}"
    polled = west.get(
        f"/tables/{ids['online']}/state/?since={stamp}", headers={"HX-Request": "true"}
    )
    assert polled.status_code == 200 and f'data-stamp="{deal.pk}:{deal.version}"' in polled.text
    # The member plays at his practice table: his move applies; the bot's is queued later.
    practice_deal = Deal.objects.get(table_id=ids["practice"])
    if practice_deal.to_move == 0:
        assert act_once([solo], ids["practice"]).status_code == 200
    # The secretary closes the session: no error page; balancing waits for the broker.
    r = post(secretary, f"/sessions/{ids['session']}/close/", {})
    assert r.status_code == 302
    assert ClubSession.objects.get(pk=ids["session"]).status == "closing"
    # Logging in still works (the rate limit's counter is in Redis: it fails open).
    anon = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=15)
    anon.get("/login/")
    r = anon.post("/login/", data={"username": "nobody", "password": "x"},
                  headers={"X-CSRFToken": anon.cookies.get("csrftoken", "")})  # fmt: skip
    assert r.status_code == 200
    health = east.get("/healthz").json()
    assert health["database"]["ok"] and not health["broker"]["ok"]

    redis.start()  # same port: the web process and the worker reconnect by themselves
    # What beat runs every minute: the sweeps find the work the broker missed.
    ClubSession.objects.filter(pk=ids["session"]).update(
        closed_at=timezone.now() - timedelta(minutes=2)
    )
    DealAction.objects.filter(deal__table_id=ids["practice"]).update(
        created_at=timezone.now() - timedelta(minutes=1)
    )
    Deal.objects.filter(table_id=ids["practice"]).update(
        created_at=timezone.now() - timedelta(minutes=1)
    )
    sweep = ("from club.tasks import balance_pending_sessions as b; from games.tasks import bot_sweep as s; "
             "b.delay(); s.delay()")  # fmt: skip
    subprocess.run([sys.executable, "-c", f"import django; django.setup(); {sweep}"], cwd=ROOT,
                   env={**redis_stack["env"], "DJANGO_SETTINGS_MODULE": "club.settings"}, check=True, timeout=60)  # fmt: skip
    deadline = time.monotonic() + 40
    practice_version = (
        Deal.objects.filter(table_id=ids["practice"]).order_by("-number").first().version
    )
    while time.monotonic() < deadline:
        balanced = ClubSession.objects.get(pk=ids["session"]).status == "balanced"
        moved = Deal.objects.filter(table_id=ids["practice"]).order_by("-number").first()
        bot_moved = moved is not None and (moved.version > practice_version or moved.to_move == 0)
        if balanced and bot_moved:
            break
        worker = redis_stack["worker"]
        if worker.poll() is not None:
            out = worker.stdout.read().decode(errors="replace")[-3000:] if worker.stdout else ""
            raise AssertionError(f"the worker died while Redis was down:\n{out}")
        time.sleep(0.3)
    assert ClubSession.objects.get(pk=ids["session"]).status == "balanced"
    assert Posting.objects.filter(session_id=ids["session"], kind="session-balance").count() == 1
    assert bot_moved, "the bot's move was not retried after Redis returned"
    pages_load(east, ids)
    assert act_once([east, west], ids["online"]).status_code == 200


@pytest.fixture
def pg_stack(private_postgres: PgCluster) -> Iterator[dict[str, Any]]:
    subprocess.run(
        ["runuser", "-u", "postgres", "--", "psql", "-h", "127.0.0.1", "-p", str(private_postgres.port),
         "-c", "CREATE DATABASE cooncan_fault"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
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
        for proc, _ in servers.values():
            stop(proc)


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
