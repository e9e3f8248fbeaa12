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


@beat_init.connect
def first_heartbeat(sender: Any = None, **_: Any) -> None:
    """Beat queues a heartbeat as it starts, not one interval later: /healthz answers
    "ok" as soon as a worker runs it (a fresh `make run` said "starting" for ten seconds
    after every process was up). Celery logs an error raised here; beat goes on."""
    app.send_task("club.tasks.heartbeat")


def add_periodic(name: str, task: str, seconds: float) -> None:
    """Apps register their periodic tasks here (see club/tasks.py, games/tasks.py)."""
    app.conf.beat_schedule[name] = {"task": task, "schedule": seconds}
