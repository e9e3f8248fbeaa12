"""Background work is applied exactly once in effect: run twice, run on two workers at
once, and killed mid-run (SIGKILL of a real worker process, mid-transaction).

The recovery paths tested are the app's real ones: for balancing, the late-acked message
redelivered by the broker (its visibility timeout is shortened from 3600 s to 2 s in
the test worker) AND the minute sweep ``balance_pending_sessions``; for the hourly
redraw, the next beat run of ``open_due_redraw_windows`` (every minute).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from club import tasks
from club.celery import app
from club.infra import redis as club_redis
from club.models import ClubSession, Leg, Posting, RedrawDemand, Table, TableEvent, Transfer
from club.services.ledger import money_from_points, session_money, session_points
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table

from .conftest import books_consistent, play_physical

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _wait(predicate: Callable[[], bool], timeout: float, what: str, workers: list[Any]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        for w in workers:
            assert w.proc.poll() is None, f"worker died:\n{w.output()}"
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _closed_session(
    secretary: Any, make_members: Callable[..., list[Any]]
) -> tuple[ClubSession, list[Any]]:
    session = open_session(stake=Decimal("0.05"), by=secretary.user)
    members = make_members(4)
    play_physical(session, members, deals=5)
    with transaction.atomic():
        assert close_session(session.pk, queue=False)
    session.refresh_from_db()
    return session, members


def _balance_status(pk: int) -> str:
    return ClubSession.objects.values_list("status", flat=True).get(pk=pk)


def _purge_default_queue() -> None:
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(app.conf.task_default_queue)


def _queued(*queues: str) -> int:
    r = club_redis.client()
    return sum(int(r.llen(f"{settings.REDIS_PREFIX}:{q}")) for q in queues)


def _unacked() -> int:
    return int(club_redis.client().hlen(f"{settings.REDIS_PREFIX}:unacked"))


def test_tasks_ack_late_only_where_idempotent_and_queue_after_commit(
    secretary: Any, make_members: Callable[..., list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert tasks.balance_session.acks_late is True  # idempotent: a claimed, unique posting
    for name, task in app.tasks.items():
        if name.startswith(("club.", "games.")) and task.acks_late:
            assert name == "club.tasks.balance_session", f"{name} acks late: is it idempotent?"
    queued: list[int] = []
    monkeypatch.setattr("club.dispatch.queue_balance", queued.append)
    session = open_session(stake="0.05", by=secretary.user)
    with pytest.raises(RuntimeError), transaction.atomic():
        assert close_session(session.pk)
        assert queued == []  # not before the commit...
        raise RuntimeError("the request failed after closing")
    assert queued == [] and _balance_status(session.pk) == "open"  # ...nor after a rollback
    assert close_session(session.pk)
    assert queued == [session.pk]


def test_two_workers_balancing_at_once_post_once(
    secretary: Any,
    make_members: Callable[..., list[Any]],
    start_worker: Callable[..., Any],
    tmp_path: Path,
) -> None:
    session, members = _closed_session(secretary, make_members)
    # Both workers' first runs meet at a barrier before claiming (tests/reliability/worker.py).
    meet = {"RELIABILITY_BARRIER": str(tmp_path), "RELIABILITY_PARTIES": "2"}
    a = start_worker(pause_on="slow-balance", **meet)
    b = start_worker(pause_on="slow-balance", **meet)
    for _ in range(2):  # each worker gets the task twice: four runs, two of them concurrent
        tasks.balance_session.apply_async(args=[session.pk], queue=a.queue)
        tasks.balance_session.apply_async(args=[session.pk], queue=b.queue)
    _wait(lambda: _balance_status(session.pk) == "balanced", 40, "balancing", [a, b])
    _wait(lambda: a.done() + b.done() == 4, 30, "the other runs to finish", [a, b])
    assert a.done() == 2 and b.done() == 2, "both workers ran the task twice"
    assert Posting.objects.filter(session=session, kind="session-balance").count() == 1
    n_transfers = Transfer.objects.filter(session=session).count()
    assert n_transfers >= 1
    assert sum(session_money(session.pk).values()) == 0
    books_consistent()


def test_a_worker_killed_mid_balancing_leaves_nothing_and_recovery_posts_once(
    secretary: Any, make_members: Callable[..., list[Any]], start_worker: Callable[..., Any]
) -> None:
    session, members = _closed_session(secretary, make_members)
    points = session_points(session.pk)
    doomed = start_worker(pause_on="balance")
    tasks.balance_session.apply_async(args=[session.pk], queue=doomed.queue)
    doomed.wait_paused()  # the legs are written, the transaction is open
    assert _unacked() >= 1  # acks_late: the message is not acknowledged yet
    doomed.kill()  # SIGKILL mid-transaction
    # PostgreSQL rolls the dead connection's transaction back: nothing was posted.
    _wait(lambda: _balance_status(session.pk) == "closing", 10, "the rollback", [])
    assert not Posting.objects.exists() and not Leg.objects.exists()
    assert _unacked() >= 1

    # Recovery: (1) the minute sweep finds the session still closing a minute on, and
    # (2) the broker redelivers the killed worker's unacked message (visibility timeout).
    ClubSession.objects.filter(pk=session.pk).update(
        closed_at=timezone.now() - timedelta(minutes=2)
    )
    _purge_default_queue()
    rescuer = start_worker(
        f"{doomed.queue},{app.conf.task_default_queue}", RELIABILITY_VISIBILITY_TIMEOUT="2"
    )
    tasks.balance_pending_sessions.apply_async(queue=doomed.queue)
    _wait(lambda: _balance_status(session.pk) == "balanced", 40, "balancing", [rescuer])
    _wait(lambda: _unacked() == 0, 30, "the redelivered message to run", [rescuer])
    # The sweep has run, and whatever it queued has run too (late acks: a message leaves
    # the unacked set when its task is over).
    _wait(
        lambda: rescuer.done_file.exists()
        and "club.tasks.balance_pending_sessions" in rescuer.done_file.read_text()
        and _queued(doomed.queue, app.conf.task_default_queue) == 0 and _unacked() == 0,
        30, "the sweep and what it queued", [rescuer],
    )  # fmt: skip
    assert Posting.objects.filter(session=session, kind="session-balance").count() == 1
    assert Posting.objects.count() == 1
    money = session_money(session.pk)
    assert money == money_from_points(points, Decimal("0.05"))
    books_consistent()


def _due_tables(secretary: Any, make_members: Callable[..., list[Any]], n: int) -> list[Table]:
    session = open_session(stake="0.05", by=secretary.user)
    tables = []
    for _ in range(n):
        members = make_members(4)
        for m in members:
            check_in(session, m)
        tables.append(
            form_table(
                session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=members,
                auto_redraw=True,
            )
        )  # fmt: skip
    due = timezone.now() - timedelta(minutes=1)
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(next_redraw_at=due)
    return tables


def _redraws_exactly_once(tables: list[Table], due_before: dict[int, Any]) -> None:
    for t in tables:
        t.refresh_from_db()
        assert RedrawDemand.objects.filter(table=t).count() == 1, t
        assert TableEvent.objects.filter(table=t, text__startswith="The hour is up").count() == 1
        assert t.next_redraw_at == due_before[t.pk] + timedelta(hours=1)
        assert t.redraw_window_until is not None


def test_the_redraw_task_twice_and_on_two_workers_opens_each_window_once(
    secretary: Any, make_members: Callable[..., list[Any]], start_worker: Callable[..., Any]
) -> None:
    tables = _due_tables(secretary, make_members, 4)
    due = {t.pk: Table.objects.get(pk=t.pk).next_redraw_at for t in tables}
    a, b = start_worker(), start_worker()
    for _ in range(2):
        tasks.open_due_redraw_windows.apply_async(queue=a.queue)
        tasks.open_due_redraw_windows.apply_async(queue=b.queue)
    _wait(
        lambda: not Table.objects.filter(pk__in=due, next_redraw_at__lte=timezone.now()).exists(),
        30, "the windows", [a, b],
    )  # fmt: skip
    _wait(lambda: a.done() + b.done() == 4, 30, "the remaining runs", [a, b])
    _redraws_exactly_once(tables, due)


def test_a_worker_killed_mid_redraw_sweep_is_finished_by_the_next_run_once(
    secretary: Any, make_members: Callable[..., list[Any]], start_worker: Callable[..., Any]
) -> None:
    tables = _due_tables(secretary, make_members, 3)
    due = {t.pk: Table.objects.get(pk=t.pk).next_redraw_at for t in tables}
    doomed = start_worker(pause_on="redraw:2")  # the first table committed, the second not
    tasks.open_due_redraw_windows.apply_async(queue=doomed.queue)
    doomed.wait_paused()
    doomed.kill()
    _wait(
        lambda: Table.objects.filter(pk__in=due, next_redraw_at__lte=timezone.now()).count() == 2,
        10, "the rollback of the second table", [],
    )  # fmt: skip
    assert RedrawDemand.objects.count() == 1
    beat = start_worker()  # the next minute's run, on another worker
    tasks.open_due_redraw_windows.apply_async(queue=beat.queue)
    tasks.open_due_redraw_windows.apply_async(queue=beat.queue)
    _wait(
        lambda: not Table.objects.filter(pk__in=due, next_redraw_at__lte=timezone.now()).exists(),
        30, "the windows", [beat],
    )  # fmt: skip
    _wait(lambda: beat.done() == 2, 30, "both runs", [beat])
    _redraws_exactly_once(tables, due)
