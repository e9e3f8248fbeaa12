"""Queueing background work by the task's name (issue 54, item 2).

The services queue work here and never import a tasks module: the tasks call the
services, one direction only. A task is named explicitly where it is defined
(``@shared_task(name=...)``), so queued work and the beat schedule outlive a move of its
module."""

from __future__ import annotations

import logging

from club.celery import app

logger = logging.getLogger(__name__)

BALANCE_SESSION = "club.tasks.balance_session"


def queue(name: str, args: list[object], *, countdown: float | None = None) -> None:
    """Queue the task called ``name`` (the one way work is queued, the games' included:
    issue 80, item 4); the broker's error is the caller's to log, as each has a sweep
    that picks the work up again."""
    app.send_task(name, args=args, countdown=countdown)


def queue_balance(session_id: int) -> None:
    """Queue the balancing of a closed evening; with the broker down, the worker's minute
    sweep (``club.tasks.balance_pending_sessions``) does it."""
    try:
        app.send_task(BALANCE_SESSION, args=[session_id])
    except Exception:  # the session stays "closing"; the sweep retries
        logger.exception("could not queue balancing of session %s", session_id)
