"""`make restore FILE=...`: a backup loaded into a fresh database that then replaces the
club's, after saying what it replaces and asking (issue 57)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.office import backups


class Command(BaseCommand):
    help = "Replace the club's database with a backup (the old one is kept, renamed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a backup written by make backup (a .dump file)")
        parser.add_argument("--yes", action="store_true", help="do not ask: replace it")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        yes = bool(options["yes"])

        def confirm(now: backups.Contents, then: backups.Contents) -> bool:
            self.stdout.write(f"The club's database now holds {now.words()}.")
            self.stdout.write(f"The backup {path.name} holds {then.words()}.")
            if yes:
                return True
            if not sys.stdin.isatty():
                raise CommandError("not replaced: run it in a terminal to answer, or add --yes")
            answer = input("Replace the club's database with the backup? Type yes: ")
            return answer.strip().lower() == "yes"

        try:
            aside = backups.replace(path, confirm)
        except backups.BackupError as e:
            raise CommandError(str(e)) from None
        if aside is None:
            self.stdout.write("Nothing was changed.")
            return
        self.stdout.write(
            f"Restored {path.name}. The database it replaced is kept as {aside}; once you "
            f"are satisfied, drop it (psql: DROP DATABASE {aside};). Start the club: make run "
            "(it migrates a backup of an earlier release)."
        )
