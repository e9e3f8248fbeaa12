"""/healthz reports database, broker and worker liveness."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from club import redis as club_redis
from club.tasks import heartbeat

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_heartbeat(redis_client):  # type: ignore[no-untyped-def]
    redis_client.delete(club_redis.key("worker-heartbeat"))
    yield
    redis_client.delete(club_redis.key("worker-heartbeat"))


@pytest.mark.django_db
def test_it_says_starting_while_the_first_heartbeat_is_awaited(
    client, no_heartbeat, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from club import health

    monkeypatch.setattr(health, "STARTED", time.monotonic())  # the web process just started
    r = client.get("/healthz")
    assert r.status_code == 503 and r["Retry-After"] == "5"
    body = r.json()
    assert body["status"] == "starting"
    assert body["database"]["ok"] is True and body["database"]["vendor"] == "postgresql"
    assert body["broker"]["ok"] is True
    assert body["worker"] == {
        "ok": False,
        "starting": True,
        "error": "waiting for the first heartbeat",
    }


@pytest.mark.django_db
def test_it_reports_worker_down_when_no_heartbeat_came_after_the_start(
    client, no_heartbeat, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from club import health

    monkeypatch.setattr(health, "STARTED", time.monotonic() - health.STALE_AFTER - 1)
    r = client.get("/healthz")
    assert r.status_code == 503 and not r.has_header("Retry-After")
    assert r.json()["status"] == "degraded"
    assert r.json()["worker"] == {"ok": False, "error": "no heartbeat"}


@pytest.mark.django_db
def test_it_is_healthy_after_a_heartbeat(client, no_heartbeat) -> None:  # type: ignore[no-untyped-def]
    heartbeat()  # what the worker runs every 10 s
    r = client.get("/healthz")
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "ok"
    assert r.json()["worker"]["heartbeat_age_s"] < 5


@pytest.mark.django_db
def test_it_reports_a_stale_heartbeat(client, no_heartbeat, redis_client) -> None:  # type: ignore[no-untyped-def]
    redis_client.set(club_redis.key("worker-heartbeat"), repr(time.time() - 3600))
    r = client.get("/healthz")
    assert r.status_code == 503
    assert r.json()["worker"]["ok"] is False


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_the_real_redis_beats(client, no_heartbeat) -> None:  # type: ignore[no-untyped-def]
    """Start a Celery worker process on the test Redis, queue the heartbeat task through
    the broker, and see /healthz turn healthy."""
    env = dict(os.environ)
    env.update(
        TESTING="1",
        REDIS_URL=settings.REDIS_URL,
        REDIS_PREFIX=settings.REDIS_PREFIX,
        DATABASE_URL=os.environ.get("DATABASE_URL", ""),
        TEST_DB_NAME="",
    )
    env["DATABASE_URL"] = (
        env["DATABASE_URL"].rsplit("/", 1)[0] + "/" + connection.settings_dict["NAME"]
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "club", "worker", "--pool", "solo",
         "--without-gossip", "--without-mingle", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        heartbeat.delay()
        deadline = time.monotonic() + 30
        status = 0
        while time.monotonic() < deadline:
            status = client.get("/healthz").status_code
            if status == 200:
                break
            time.sleep(0.2)
        assert status == 200, "the worker never ran the heartbeat task"
    finally:
        worker.terminate()
        worker.wait(timeout=20)
