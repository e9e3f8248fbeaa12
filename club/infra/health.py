"""Health: /healthz (database, broker and worker liveness, for humans and the web
container's healthcheck) and the containers' healthchecks without curl,
``python -m club.infra.health web|worker``: web asks /healthz?check=database,broker on
the local port; worker (and beat) find the worker's heartbeat in Redis fresh (beat
schedules it, a worker runs it)."""

from __future__ import annotations

import os
import sys
import time
import urllib.request
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from club.infra import redis as club_redis

STALE_AFTER = 60.0  # seconds without a heartbeat before the worker counts as down
# This process's start: a worker's first heartbeat is awaited for STALE_AFTER seconds
# ("starting") before its absence counts as down ("degraded").
STARTED = time.monotonic()


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
            cur.fetchone()
        return {"ok": True, "vendor": connection.vendor}
    except Exception as e:  # noqa: BLE001 - reported, not raised
        return {"ok": False, "error": type(e).__name__}


def check_broker() -> dict[str, Any]:
    try:
        club_redis.client().ping()
        return {"ok": True}
    except Exception as e:  # noqa: BLE001
        return {"ok": False, "error": type(e).__name__}


def check_worker() -> dict[str, Any]:
    try:
        raw = club_redis.client().get(club_redis.key("worker-heartbeat"))
    except Exception as e:  # noqa: BLE001
        return {"ok": False, "error": type(e).__name__}
    if raw is None:
        if time.monotonic() - STARTED < STALE_AFTER:
            return {"ok": False, "starting": True, "error": "waiting for the first heartbeat"}
        return {"ok": False, "error": "no heartbeat"}
    age = time.time() - float(raw)
    return {"ok": age < STALE_AFTER, "heartbeat_age_s": round(age, 1)}


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """``?check=database,broker`` limits the report (the web container's healthcheck does
    not wait for the worker); the default is every check."""
    every = {"database": check_database, "broker": check_broker, "worker": check_worker}
    wanted = [c for c in request.GET.get("check", "").split(",") if c in every] or list(every)
    checks = {name: every[name]() for name in wanted}
    ok = all(c["ok"] for c in checks.values())
    starting = not ok and all(c["ok"] or c.get("starting") for c in checks.values())
    status = "ok" if ok else "starting" if starting else "degraded"
    # Which `make run` answers (issue 57: orphans of a killed run once answered "ok").
    run = {"id": os.environ.get("CLUB_RUN_ID", ""), "pid": os.getpid()}
    body = {"status": status, **checks, "debug": settings.DEBUG, "run": run}
    response = JsonResponse(body, status=200 if ok else 503, json_dumps_params={"indent": 2})
    if starting:
        response["Retry-After"] = "5"
    return response


def main(argv: list[str]) -> int:
    what = argv[1] if len(argv) > 1 else "web"
    if what == "web":
        port = os.environ.get("PORT", "8000")
        url = f"http://127.0.0.1:{port}/healthz?check=database,broker"
        try:
            with urllib.request.urlopen(url, timeout=5) as r:  # a local URL only
                return 0 if r.status == 200 else 1
        except Exception:  # noqa: BLE001
            return 1
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    import django

    django.setup()
    return 0 if check_worker()["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
