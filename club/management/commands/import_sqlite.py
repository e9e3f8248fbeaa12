"""Copy a club kept by an earlier `make run` on SQLite (``.run/db.sqlite3``) into the
PostgreSQL database, which is the only one the club runs on now (issue 35).

``python manage.py import_sqlite .run/db.sqlite3``; `make run` calls it by itself when it
finds that file beside a database with no club in it, then renames the file
``db.sqlite3.imported``. The old file is first migrated to today's schema (the migrations
that ran on it are not run again), then every row but what migrate makes by itself
(content types, permissions) is copied in one transaction with natural keys. Triggers are
held off while loading (rows come in table order, legs after their sealed posting), and
the books are then proved by hand: a posting's legs and a washbook line's entries must
sum to zero, or nothing is copied. A database that already holds a club is refused.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections, transaction

OLD = "sqlite_import"
SKIP = ["contenttypes", "auth.permission", "sessions"]
# The books the database proves zero-sum (migration 0002), each: legs, header FK, amount.
BOOKS = [("club_leg", "posting_id", "amount"), ("club_washbookentry", "line_id", "points")]


class Command(BaseCommand):
    help = "Copy a club from an earlier make run's SQLite file into the PostgreSQL database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the SQLite file, e.g. .run/db.sqlite3")

    def handle(self, *args: Any, **options: Any) -> None:
        from club.models import Member

        path: Path = options["path"]
        if not path.is_file():
            raise CommandError(f"{path} is not a file")
        if Member.objects.exists():
            raise CommandError(
                f"the database already holds a club ({Member.objects.count()} members): "
                f"nothing was copied from {path}"
            )
        old = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}
        connections.settings[OLD] = connections.configure_settings(
            {"default": dict(connections.settings["default"]), OLD: old}
        )[OLD]
        try:
            call_command("migrate", database=OLD, interactive=False, verbosity=0)
            dump = io.StringIO()
            call_command(
                "dumpdata", *[f"--exclude={x}" for x in SKIP], database=OLD,
                natural_foreign=True, natural_primary=True, format="json", stdout=dump,
            )  # fmt: skip
        finally:
            connections[OLD].close()
        fixture = path.with_name(path.name + ".json")
        fixture.write_text(dump.getvalue())
        try:
            with transaction.atomic():
                with connections["default"].cursor() as cur:
                    cur.execute("SET LOCAL session_replication_role = replica")
                call_command("loaddata", str(fixture), verbosity=0)
                with connections["default"].cursor() as cur:
                    cur.execute("SET LOCAL session_replication_role = origin")
                    for legs, fk, amount in BOOKS:
                        cur.execute(
                            f"SELECT {fk} FROM {legs} GROUP BY {fk} HAVING SUM({amount}) <> 0"
                        )
                        bad = [row[0] for row in cur.fetchall()]
                        if bad:
                            raise CommandError(
                                f"{path}: {legs} of {bad[:5]} do not sum to zero; nothing copied"
                            )
        finally:
            fixture.unlink(missing_ok=True)
        members = Member.objects.count()
        self.stdout.write(f"copied the club in {path} into PostgreSQL: {members} members")
