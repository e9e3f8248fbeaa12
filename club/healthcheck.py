"""Container healthchecks without curl: ``python -m club.healthcheck web|worker``.

web: GET /healthz?check=database,broker on the local port; worker (and beat): the worker
heartbeat in Redis is fresh (beat schedules it, a worker runs it).
"""

from __future__ import annotations

import os
import sys
import urllib.request


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
    from club.health import check_worker

    return 0 if check_worker()["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
