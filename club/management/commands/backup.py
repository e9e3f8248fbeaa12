"""`make backup`: a consistent dump of the club, taken while it runs (issue 57)."""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.office import backups


class Command(BaseCommand):
    help = "Write a backup of the club's database (pg_dump) to BACKUP_DIR, or --folder."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--folder", help="where to write it (default: settings.BACKUP_DIR)")
        parser.add_argument(
            "--seal",
            action="store_true",
            help="seal it with a passphrase (asked twice at a terminal, or BACKUP_PASSPHRASE)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        folder = Path(options["folder"]) if options.get("folder") else None
        passphrase = self.passphrase() if options["seal"] else ""
        try:
            path = backups.take_backup("by-hand", folder)
            if passphrase:
                path = backups.seal(path, passphrase)
        except backups.BackupError as e:
            raise CommandError(str(e)) from None
        size = path.stat().st_size
        mode, folder_mode = path.stat().st_mode & 0o777, path.parent.stat().st_mode & 0o777
        self.stdout.write(f"Backup written: {path} ({size / 1024:.0f} KB).")
        self.stdout.write(
            f"Only this user can read it (mode {mode:04o}, its folder {folder_mode:04o}). It "
            "holds the members' password hashes and the books: keep it like a key. Login "
            "sessions are left out: a restored club signs everyone in again."
        )
        if passphrase:
            self.stdout.write(
                "It is sealed with your passphrase: without it nobody can read it, the club "
                "included. Keep the passphrase apart from the stick."
            )
        self.stdout.write(
            "Copy it off this machine (a USB stick, another computer: scp, rsync); "
            f"`make restore FILE={path}` loads it."
        )

    def passphrase(self) -> str:
        given = os.environ.get("BACKUP_PASSPHRASE", "")
        if given:
            return given
        if not sys.stdin.isatty():
            raise CommandError(
                "a sealed backup needs a passphrase: run it at a terminal, or set BACKUP_PASSPHRASE"
            )
        first = getpass.getpass("Passphrase for the backup (8 characters or more): ")
        if getpass.getpass("The passphrase again: ") != first:
            raise CommandError("the two passphrases differ: nothing was written")
        return first
