"""The Celery app: JSON only, tasks discovered from the apps, the beat schedule in code.

django-celery-beat does not support Django 6.1, so periodic work is listed here and
timed work is driven by due rows in the database (claimed with a conditional UPDATE),
never by long ETA messages (those are redelivered after the Redis visibility timeout).
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import beat_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")

app = Celery("club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    # Proves to /healthz that beat schedules and a worker runs tasks.
    "heartbeat": {"task": "club.tasks.heartbeat", "schedule": 10.0},
}


# Tasks beat queues once as it starts (the apps register theirs with add_at_start): a
# heartbeat, and the work a cut left queued (issue 57: a balancing queued on the bundled
# Redis, which keeps nothing, waited for the sweep's grace, a minute).
AT_START: list[str] = ["club.tasks.heartbeat", "club.tasks.resume_after_start"]


@beat_init.connect
def first_heartbeat(sender: Any = None, **_: Any) -> None:
    """Beat queues a heartbeat as it starts, not one interval later: /healthz answers
    "ok" as soon as a worker runs it (a fresh `make run` said "starting" for ten seconds
    after every process was up); then what was queued before a cut is taken up at once.
    Celery logs an error raised here; beat goes on."""
    for task in AT_START:
        app.send_task(task)


def add_at_start(task: str) -> None:
    """Apps register a task for beat to queue as it starts (see games/tasks.py)."""
    if task not in AT_START:
        AT_START.append(task)


def add_periodic(name: str, task: str, seconds: float) -> None:
    """Apps register their periodic tasks here (see club/tasks.py, games/tasks.py)."""
    app.conf.beat_schedule[name] = {"task": task, "schedule": seconds}
