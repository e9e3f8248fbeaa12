"""The processes of a running club, in one place.

`make run` (club/runner/run.py) starts exactly these under its supervisor (club/runner/supervisor.py), and docker-compose.yml's
services run the same commands (tests/club/test_compose.py checks that they match).
"""

from __future__ import annotations


def commands(
    *, host: str = "127.0.0.1", port: int = 8000, events_port: int = 8001, run_dir: str = "/tmp"
) -> dict[str, str]:
    """The processes, listening on ``host``: loopback on a laptop unless asked
    (club/runner/local.py), 0.0.0.0 in a container, where the port is published."""
    bind = f"[{host}]" if ":" in host else host
    return {
        "web": (
            f"gunicorn club.wsgi:application --bind {bind}:{port} --worker-class gthread "
            "--workers 2 --threads 8 --keep-alive 20 --graceful-timeout 5 --access-logfile -"
        ),
        "events": (
            f"uvicorn club.asgi:application --host {host} --port {events_port} "
            "--lifespan off --no-access-log --timeout-graceful-shutdown 2"
        ),
        "worker": (
            "celery -A club worker --loglevel INFO --concurrency 2 "
            "--without-gossip --without-mingle"
        ),
        "beat": f"celery -A club beat --loglevel INFO --schedule {run_dir}/celerybeat-schedule",
    }
