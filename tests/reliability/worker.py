"""A Celery worker with a deterministic pause point, for the kill tests.

``python -m tests.reliability.worker -A club worker ...`` runs the real worker; when
``RELIABILITY_PAUSE_ON`` names a point, the worker touches ``RELIABILITY_MARKER`` there
and sleeps, so that a test can SIGKILL it at exactly that point (mid-transaction):

* ``balance``: inside ``balance_session``'s transaction, after the posting's legs are
  written and before it commits;
* ``redraw:N``: inside ``open_due_redraw_windows``, at the N-th table's claim (the tables
  before it are committed, this one is not);
* ``slow-balance``: wait for the other workers at ``RELIABILITY_BARRIER`` (a directory;
  ``RELIABILITY_PARTIES`` of them), then hold the session's claim for a second, so two
  workers' runs overlap.

Every task the worker finishes (whatever its result) adds a line to ``RELIABILITY_DONE``
when that names a file, so that a test waits for the runs to be over, not for a while.

``RELIABILITY_VISIBILITY_TIMEOUT=N`` shortens the broker's visibility timeout (3600 s in
settings) so that a test sees the redelivery of a killed worker's unacked message.

No hook lives in the app: this wrapper patches the services' module functions.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def _pause() -> None:
    Path(os.environ["RELIABILITY_MARKER"]).touch()
    time.sleep(600)


def _barrier(timeout: float = 60.0) -> None:
    """Wait until every worker of ``RELIABILITY_BARRIER`` (a directory) has arrived: each
    leaves a file there named by its pid; ``RELIABILITY_PARTIES`` are awaited."""
    where = Path(os.environ["RELIABILITY_BARRIER"])
    parties = int(os.environ["RELIABILITY_PARTIES"])
    (where / str(os.getpid())).touch()
    deadline = time.monotonic() + timeout
    while len(list(where.iterdir())) < parties:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{parties} workers never met at {where}")
        time.sleep(0.01)


def install(point: str) -> None:
    from club.services import ledger, seats

    if point == "balance":
        original = ledger._update_cached_balances

        def paused(*args: Any) -> None:
            original(*args)
            _pause()

        ledger._update_cached_balances = paused  # type: ignore[assignment]
    elif point.startswith("redraw:"):
        nth = int(point.split(":", 1)[1])
        calls = {"n": 0}
        original_log = seats.log

        def log(table: Any, text: str) -> str:
            calls["n"] += 1
            if calls["n"] == nth:
                _pause()
            return original_log(table, text)

        seats.log = log  # type: ignore[assignment]
    elif point == "slow-balance":
        original_balance = ledger.balance_session
        original_staked = ledger.staked_tables

        def balance(session_id: int) -> Any:
            Path(os.environ["RELIABILITY_MARKER"]).touch()
            _barrier()  # both workers claim at one instant
            return original_balance(session_id)

        def staked(session_id: int) -> list[int]:
            time.sleep(1.0)  # hold the claim: the other worker's claim waits on the row
            return original_staked(session_id)

        ledger.balance_session = balance  # type: ignore[assignment]
        ledger.staked_tables = staked  # type: ignore[assignment]


def record_done(path: str) -> None:
    from celery.signals import task_postrun

    def done(sender: Any = None, **_: Any) -> None:
        with open(path, "a") as f:
            f.write(f"{getattr(sender, 'name', sender)}\n")

    task_postrun.connect(done, weak=False)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    import django

    django.setup()
    if os.environ.get("RELIABILITY_DONE"):
        record_done(os.environ["RELIABILITY_DONE"])
    visibility = os.environ.get("RELIABILITY_VISIBILITY_TIMEOUT")
    if visibility:
        # Redelivery of unacked (acks_late) messages, compressed from an hour to seconds.
        from django.conf import settings

        from club.celery import app

        app.conf.broker_transport_options = {
            **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
            "visibility_timeout": int(visibility),
            "unacked_restore_interval": 1,
            "unacked_restore_throttle": 1,
        }
    point = os.environ.get("RELIABILITY_PAUSE_ON", "")
    if point:
        install(point)
    from celery.bin.celery import main as celery_main

    sys.argv = ["celery", *sys.argv[1:]]
    celery_main()


if __name__ == "__main__":
    main()
