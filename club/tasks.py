"""Club background work. Tasks take ids, are idempotent, and call services."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from club import dispatch
from club.celery import add_periodic
from club.infra import redis as club_redis

logger = logging.getLogger(__name__)

# L4: open the redraw window of tables whose hour has ended; and balance the sessions left
# "closing" (the broker was down when they closed). Both are cheap indexed queries, run
# often enough (15 s) that due work resumes within a minute of the broker returning.
add_periodic("redraw-due", "club.tasks.open_due_redraw_windows", settings.CLUB_SWEEP_SECONDS)
add_periodic("balance-sweep", "club.tasks.balance_pending_sessions", settings.CLUB_SWEEP_SECONDS)
add_periodic("close-sweep", "club.tasks.finish_due_closes", settings.CLUB_SWEEP_SECONDS)


@shared_task(name="club.tasks.heartbeat", ignore_result=True)
def heartbeat() -> float:
    """Beat queues this every 10 s; a worker running it proves beat and worker alive."""
    now = time.time()
    club_redis.client().set(club_redis.key("worker-heartbeat"), repr(now), ex=600)
    return now


# acks_late: balancing is idempotent (a claimed, unique posting), so a redelivery after a
# worker died mid-task is harmless and finishes the work.
@shared_task(name="club.tasks.balance_session", ignore_result=True, acks_late=True)
def balance_session(session_id: int) -> str:
    from club.services import ledger

    result = ledger.balance_session(session_id)
    logger.info("balance_session(%s): %s", session_id, result)
    if result.posted:  # balanced now, by this run: the books changed (issue 57)
        backup_after_balancing(session_id)
    return result.status


def backup_after_balancing(session_id: int) -> None:
    """A backup of the club once an evening is balanced, the oldest such beyond
    BACKUP_KEEP removed. A backup that fails is logged and never undoes the balancing."""
    from club.office import backups

    try:
        path = backups.take_backup(f"evening-{session_id}")
        gone = backups.prune()
    except Exception:
        logger.exception("the backup after balancing evening %s failed", session_id)
        return
    logger.info("backup after balancing evening %s: %s (%d older removed)",
                session_id, path, len(gone))  # fmt: skip


@shared_task(name="club.tasks.open_due_redraw_windows", ignore_result=True)
def open_due_redraw_windows() -> list[int]:
    from club.services import seats

    return seats.open_due_redraw_windows()


@shared_task(name="club.tasks.balance_pending_sessions", ignore_result=True)
def balance_pending_sessions() -> list[int]:
    from club.models import ClubSession

    stale = timezone.now() - timedelta(seconds=settings.CLUB_BALANCE_GRACE_SECONDS)
    ids = list(
        ClubSession.objects.filter(status=ClubSession.CLOSING, closed_at__lte=stale).values_list(
            "pk", flat=True
        )
    )
    for pk in ids:
        dispatch.queue_balance(pk)
    return ids


@shared_task(name="club.tasks.resume_after_start", ignore_result=True)
def resume_after_start() -> list[int]:
    """Queued by beat as it starts (issue 57): every evening left closing is balanced now,
    not after the sweep's grace (its balancing task went with a Redis that keeps
    nothing, or with the power), and evenings waiting on deals that have ended close.
    Balancing twice posts once, so one queued again here is harmless. The backup after
    the last balancing is taken if the power went before it was."""
    from club.models import ClubSession
    from club.services import sessions

    sessions.finish_due_closes()
    ids = list(ClubSession.objects.filter(status=ClubSession.CLOSING).values_list("pk", flat=True))
    for pk in ids:
        dispatch.queue_balance(pk)
    backup_missed_at_start()
    return ids


def backup_missed_at_start() -> bool:
    """The backup after the last balancing, taken now if the power went between the
    balancing's commit and its backup (the balancing queued again posts nothing, so it
    would never be taken). Returns whether one was taken."""
    from club.models import ClubSession
    from club.office import backups

    last = (
        ClubSession.objects.filter(status=ClubSession.BALANCED, balanced_at__isnull=False)
        .order_by("-balanced_at")
        .values_list("pk", "balanced_at")
        .first()
    )
    if last is None or backups.taken_since(last[1]):
        return False
    backup_after_balancing(last[0])
    return True


@shared_task(name="club.tasks.finish_due_closes", ignore_result=True)
def finish_due_closes() -> list[int]:
    """Close the evenings waiting for their deals in progress whose deals have ended (each
    deal's end does it too; this catches one missed when the process died between)."""
    from club.services import sessions

    return sessions.finish_due_closes()
