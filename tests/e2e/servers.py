"""Real server processes for live tests: uvicorn (events), gunicorn (pages), a Celery worker.

They run against the test database pytest-django created and the test Redis prefix.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .waits import until

BASE = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env(extra: dict[str, str] | None = None) -> dict[str, str]:
    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    url = f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    e = dict(os.environ)
    e.pop("TEST_DB_NAME", None)
    e.update(
        {
            "TESTING": "1",
            "DATABASE_URL": url,
            "DB_POOL": "0",
            "REDIS_URL": settings.REDIS_URL,
            "REDIS_PREFIX": settings.REDIS_PREFIX,
            "PYTHONUNBUFFERED": "1",
        }
    )
    e.update(extra or {})
    return e


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 20) -> None:
    def listening() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) == 0

    until(listening, f"a server listening on {port}", timeout, every=0.1)


@contextmanager
def process(
    cmd: list[str],
    *,
    port: int | None = None,
    extra: dict[str, str] | None = None,
    log: Path | None = None,
    kill: bool = False,
) -> Iterator[subprocess.Popen[bytes]]:
    """``cmd`` running for the block; stopped after it by SIGTERM (a graceful stop, up to
    10 s), or at once by SIGKILL with ``kill`` (a test's servers, when nothing they would
    finish gracefully matters any more)."""
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=BASE, env=env(extra), stdout=out, stderr=subprocess.STDOUT)
    try:
        if port is not None:
            wait_port(port, proc)
        yield proc
    finally:
        if kill:
            proc.kill()
        else:
            proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log:
            out.close()  # type: ignore[union-attr]


def uvicorn(port: int, **kw: object) -> object:
    return process(
        [str(BIN / "uvicorn"), "club.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--lifespan", "off", "--no-access-log", "--timeout-graceful-shutdown", "1"],
        port=port, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def gunicorn(port: int, *, workers: int = 2, threads: int = 8, **kw: object) -> object:
    return process(
        [str(BIN / "gunicorn"), "club.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--worker-class", "gthread", "--workers", str(workers), "--threads", str(threads),
         "--keep-alive", "20", "--graceful-timeout", "2"],  # keep-alive: as make run's
        port=port, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def celery_worker(**kw: object) -> object:
    return process(
        [str(BIN / "celery"), "-A", "club", "worker", "--loglevel", "INFO", "--concurrency", "2",
         "--without-gossip", "--without-mingle", "--pool", "threads"],
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip
