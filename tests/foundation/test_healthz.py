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

from club.infra import redis as club_redis
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
    from club.infra import health

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
    from club.infra import health

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


@pytest.mark.django_db
def test_it_says_which_run_answers(client, no_heartbeat, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 57: the orphans of a killed `make run` answered "ok" for the next one."""
    import os

    monkeypatch.setenv("CLUB_RUN_ID", "4242-1764300000")
    heartbeat()
    assert client.get("/healthz").json()["run"] == {"id": "4242-1764300000", "pid": os.getpid()}


def test_make_run_says_which_earlier_run_still_runs_here(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A run.json naming a live `make run` stops the next one with how to stop it; one
    naming a process gone, or another program, does not."""
    import json
    import subprocess
    import sys

    from club.runner.run import earlier_run

    alive = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", "club.runner.run"]
    )
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        for pid, said in ((alive.pid, True), (other.pid, False), (2**22 - 1, False)):
            (tmp_path / "run.json").write_text(json.dumps(
                {"pid": pid, "id": "run-1", "started": "20:00", "url": "http://127.0.0.1:8000"}))  # fmt: skip
            told = earlier_run(tmp_path)
            assert bool(told) is said, (pid, told)
        (tmp_path / "run.json").write_text(json.dumps({"pid": alive.pid, "id": "run-1"}))
        assert f"kill -INT {alive.pid}" in (earlier_run(tmp_path) or "")
    finally:
        for p in (alive, other):
            p.kill()
            p.wait()
