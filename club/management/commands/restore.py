"""`make restore FILE=...`: a backup loaded into a fresh database that then replaces the
club's, after saying what it replaces, what the club would lose, and asking (issues 57
and 79). A refusal is a plain sentence and exit status 2, never a traceback."""

from __future__ import annotations

import getpass
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from club.office import backups

# How the refusals name the ways to go on: `make restore` sets MAKE_WORDS=1 for its run.
BY_MAKE = {"yes": "YES=1", "drop": "make restore DROP={name}"}
BY_MANAGE = {"yes": "--yes", "drop": "python manage.py restore --drop {name}"}


class Refused(Exception):
    """A restore not done: one sentence saying why; nothing was changed."""


class Command(BaseCommand):
    help = "Replace the club's database with a backup (the old one is kept, renamed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="a backup written by make backup (.dump)")
        parser.add_argument("--yes", action="store_true", help="do not ask: replace it")
        parser.add_argument(
            "--drop", metavar="NAME", help="drop a database a restore kept aside, by its name"
        )
        parser.add_argument("--make-words", action="store_true", help=f"say {BY_MAKE['yes']}")

    def refuse(self, why: str) -> NoReturn:
        self.stderr.write(f"{why}\nNothing was changed.")
        sys.exit(2)

    def handle(self, *args: Any, **options: Any) -> None:
        words = BY_MAKE if options["make_words"] else BY_MANAGE
        if options.get("drop"):
            self.drop(str(options["drop"]))
            return
        if not options.get("file"):
            self.refuse("Which backup? make restore FILE=.run/backups/club-....dump")
        path = Path(options["file"])
        yes = bool(options["yes"])

        def confirm(now: backups.Contents, then: backups.Contents, lost: list[str]) -> bool:
            self.stdout.write(f"The club's database now holds {now.words()}.")
            self.stdout.write(f"The backup {path.name} holds {then.words()}.")
            for line in lost or ["The club holds nothing the backup does not."]:
                self.stdout.write(line[:1].upper() + line[1:] + ("" if line.endswith(".") else "."))
            if yes:
                return True
            if not sys.stdin.isatty():
                raise Refused(
                    "Not replaced: answer at a terminal, or give "
                    f"{words['yes']} to replace it without asking."
                )
            answer = input("Replace the club's database with the backup? Type yes: ")
            return answer.strip().lower() == "yes"

        try:
            with tempfile.TemporaryDirectory(prefix="cooncan-restore-") as plain:  # 0700
                loaded = self.opened(path, Path(plain))
                aside = backups.replace(loaded, confirm)
        except (backups.BackupError, Refused) as e:
            said = str(e)
            self.refuse(said[:1].upper() + said[1:] + ("" if said.endswith(".") else "."))
        if aside is None:
            self.stdout.write("Nothing was changed.")
            return
        self.stdout.write(
            f"Restored {path.name}. The database it replaced is kept as {aside}; once you "
            f"are satisfied, drop it: {words['drop'].format(name=aside)}. Everyone signs "
            "in again (a backup holds no login session). Start the club: make run (it "
            "migrates a backup of an earlier release)."
        )

    def opened(self, path: Path, plain: Path) -> Path:
        """The dump to load: the file itself, or a sealed one's plain dump in ``plain``
        (its passphrase from BACKUP_PASSPHRASE, or asked at the terminal)."""
        if not path.is_file() or not backups.is_sealed(path):
            return path
        passphrase = os.environ.get("BACKUP_PASSPHRASE", "")
        if not passphrase:
            if not sys.stdin.isatty():
                raise Refused(
                    f"{path.name} is sealed with a passphrase: run it at a terminal to give "
                    "it, or set BACKUP_PASSPHRASE"
                )
            passphrase = getpass.getpass(f"The passphrase of {path.name}: ")
        return backups.unsealed(path, passphrase, plain)

    def drop(self, name: str) -> None:
        club = str(backups._db()["NAME"])
        if not re.fullmatch(re.escape(club) + r"_before_restore_\d{14}", name):
            self.refuse(
                f"{name} is not a database a restore kept aside (their names are "
                f"{club}_before_restore_ and the time of the restore)."
            )
        try:
            backups.drop_aside(name)
        except backups.BackupError as e:
            self.refuse(str(e)[:1].upper() + str(e)[1:] + ".")
        self.stdout.write(f"Dropped {name}.")
