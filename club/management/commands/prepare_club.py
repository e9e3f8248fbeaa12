"""What `make run` does before it starts the club's programs, in one process: migrate,
collect the static files (DEBUG is off: WhiteNoise serves them), load the demo club if
there are no members. Three `manage.py` runs cost a Django start each (about 2 s here,
every start of `make run`, and the suite starts it six times)."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate, collect the static files and load the demo club if it is empty."

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("demo", if_empty=True, stdout=self.stdout)
