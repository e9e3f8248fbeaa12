"""The processes of a running club, in one place.

`make run` (club/run.py) starts exactly these under its supervisor (club/supervisor.py), and docker-compose.yml's
services run the same commands (tests/club/test_compose.py checks that they match).
"""

from __future__ import annotations


def commands(*, port: int = 8000, events_port: int = 8001, run_dir: str = "/tmp") -> dict[str, str]:
    return {
        "web": (
            f"gunicorn club.wsgi:application --bind 0.0.0.0:{port} --worker-class gthread "
            "--workers 2 --threads 8 --graceful-timeout 5 --access-logfile -"
        ),
        "events": (
            f"uvicorn club.asgi:application --host 0.0.0.0 --port {events_port} "
            "--lifespan off --no-access-log --timeout-graceful-shutdown 2"
        ),
        "worker": (
            "celery -A club worker --loglevel INFO --concurrency 2 "
            "--without-gossip --without-mingle"
        ),
        "beat": f"celery -A club beat --loglevel INFO --schedule {run_dir}/celerybeat-schedule",
    }
