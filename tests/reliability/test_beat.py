"""Beat as `make run` starts it (club/runner/processes.py), on a private Redis."""

from __future__ import annotations

import json
import shlex
import subprocess
import time
from pathlib import Path

import redis

from club.runner.processes import commands

from .conftest import ROOT, VENV_BIN, RedisServer, child_env, stop


def test_beat_queues_a_heartbeat_as_it_starts_not_an_interval_later(
    private_redis: RedisServer, tmp_path: Path
) -> None:
    """/healthz says "ok" once a worker has run a heartbeat that beat queued. Beat's
    schedule first fires one interval (10 s) after it starts, so a fresh `make run` said
    "starting" for ten seconds with every process up; beat now queues one at start."""
    env = child_env(REDIS_URL=private_redis.url)
    env["PATH"] = f"{VENV_BIN}:{env.get('PATH', '')}"
    queue = f"{env['REDIS_PREFIX']}:celery"
    log = tmp_path / "beat.log"
    with log.open("wb") as out:
        beat = subprocess.Popen(
            shlex.split(commands(run_dir=str(tmp_path))["beat"]), cwd=ROOT, env=env,
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    r = redis.Redis.from_url(private_redis.url)
    try:
        deadline = time.monotonic() + 60
        while not r.llen(queue):
            assert beat.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, f"nothing queued:\n{log.read_text()[-3000:]}"
            time.sleep(0.05)
        # Read as soon as it is there: the schedule's own run logs "Sending due task".
        scheduled = "Sending due task heartbeat" in log.read_text()
        message = json.loads(r.lindex(queue, -1) or b"{}")
        # Then the work a cut left queued is taken up (issue 57): evenings left closing
        # balanced, computer players' turns moved, at once rather than after the sweeps'
        # grace and quiet time.
        while r.llen(queue) < 3:
            assert time.monotonic() < deadline, f"not all queued:\n{log.read_text()[-3000:]}"
            time.sleep(0.05)
        at_start = {json.loads(m)["headers"]["task"] for m in r.lrange(queue, 0, -1)}
    finally:
        stop(beat)
    assert message["headers"]["task"] == "club.tasks.heartbeat"
    assert not scheduled, "the first heartbeat came from the schedule, an interval late"
    assert {"club.tasks.resume_after_start", "games.tasks.bot_sweep_at_start"} <= at_start
