"""Load the demo club into an empty club (club.services.demo): ``manage.py demo``.

``--if-empty`` (what `make run DEMO=1` calls, through prepare_club) loads it only into an
empty club; in a club started already it only prints the demo's logins, where the demo
is there and its password known.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from club.services import setup
from club.services.demo import MEMBERS, demo_password, password_file, retire_published_password


class Command(BaseCommand):
    help = "Load a demo club (members, evenings, tables, washbooks, a settlement)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="only print the demo's logins if the club has been started already",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if setup.started():
            if not options["if_empty"]:
                raise CommandError(
                    "this club has been started: the demo is loaded only into an empty club"
                )
            stale = retire_published_password()
            if stale:
                self.stdout.write(
                    f"  The demo's logins took the password once published in the README: "
                    f"{stale} given this install's own.\n"
                )
            self.print_logins(loaded=False)
            return
        with transaction.atomic():
            setup.load_demo_into_empty_club()
        self.print_logins(loaded=True)

    def print_logins(self, *, loaded: bool) -> None:
        """The demo's logins and this install's password, where the demo is here and
        its password known (not for a club of one's own)."""
        User = get_user_model()
        if not password_file().exists() or not User.objects.filter(username="secretary").exists():
            return
        head = "Demo club loaded." if loaded else "Demo club already present."
        names = ", ".join(u for u, _ in MEMBERS)
        self.stdout.write(
            f"  {head} Log in as 'secretary' (staff) or a member ({names})\n"
            f"  with this install's demo password: {demo_password()}"
            f"  (kept in {password_file()})\n"
        )
