"""A real Celery worker on the real Redis balances a closed session (once)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from club import tasks
from club.models import ClubSession, Member, Posting, Table
from club.services.ledger import balance_of
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_balances_the_session_once(
    secretary: Member,
    make_members: Callable[..., list[Member]],
    no_queue: list[int],
    tmp_path: Path,
) -> None:
    session = open_session(stake="0.05", by=secretary.user)
    members = make_members(4)
    for m in members:
        check_in(session, m)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=members[0].pk, losses={m.pk: 10 for m in members[1:]})
    )
    close_session(session.pk)
    queue = f"club-test-{uuid.uuid4().hex[:8]}"
    done = tmp_path / "done"  # a line for each task the worker finishes
    env = {
        **os.environ,
        "TESTING": "1",
        "DATABASE_URL": _database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "REDIS_PREFIX": settings.REDIS_PREFIX,
        "RELIABILITY_DONE": str(done),
        "BACKUP_DIR": str(tmp_path / "backups"),
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.worker", "-A", "club", "worker", "--pool",
         "solo", "-Q", queue, "--without-gossip", "--without-mingle", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        for _ in range(2):  # twice: the second run must post nothing
            tasks.balance_session.apply_async(args=[session.pk], queue=queue)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if done.exists() and len(done.read_text().splitlines()) == 2:
                break  # both runs are over
            assert worker.poll() is None, worker.stdout.read().decode() if worker.stdout else ""
            time.sleep(0.2)
    finally:
        worker.terminate()
        try:
            worker.wait(10)
        except subprocess.TimeoutExpired:
            worker.kill()
    assert ClubSession.objects.get(pk=session.pk).status == "balanced"
    assert Posting.objects.filter(session=session, kind="session-balance").count() == 1
    assert balance_of(members[0]) == 30 * session.stake
    # The worker backed the club up once, after the run that balanced it (issue 57).
    backups = sorted(p.name for p in (tmp_path / "backups").iterdir())
    assert len(backups) == 1 and backups[0].endswith(f"-evening-{session.pk}.dump"), backups
