"""What `make run` does before it starts the club's programs, in one process: migrate,
collect the static files (DEBUG is off: WhiteNoise serves them), then either say how to
start an empty club or the demo's logins. Three `manage.py` runs cost a Django start
each (about 2 s here, every start of `make run`, and the suite starts it six times).

An empty club (issue 78) is not given the demo: a one-time setup code is made and
printed with the setup page's address, as Jupyter prints its token, so that only the
person at this terminal can start the club. ``--demo`` (`make run DEMO=1`) loads the
demo into an empty club instead, for trying the app and for tests.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate, collect the static files, and print how to start an empty club."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--url", default="", help="the club's address, for the setup link")
        parser.add_argument(
            "--demo", action="store_true", help="load the demo club if the club is empty"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from club.services import setup

        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        setup.ensure_started()  # a club with members from before the setup page
        if options["demo"] or setup.started():
            call_command("demo", if_empty=True, stdout=self.stdout)
            return
        call_command("setup_link", url=options["url"], stdout=self.stdout)
