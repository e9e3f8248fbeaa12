"""Print an empty club's setup link (issue 78): on the compose path the web container
runs this before gunicorn, so its log holds the code (`docker-compose logs web`). Every
replica prints the same code (club.services.setup: the HMAC of a stored salt). A club
already started prints nothing."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Print the setup page's link with its one-time code, if the club is empty."

    def add_arguments(self, parser: Any) -> None:
        site = os.environ.get("SITE_ADDRESS", "")
        parser.add_argument(
            "--url",
            default=f"https://{site}/" if site else "",
            help="the club's address (default https://$SITE_ADDRESS/)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from club.services import setup

        setup.ensure_started()
        if setup.started():
            return
        code = setup.setup_code()
        self.stdout.write(
            "  This club is new: no members, no books. Start it (or load the demo club) at\n"
            f"      {options['url'].rstrip('/')}/setup/?code={code}\n"
            f"  (setup code {code}: it works once; manage.py start_club does the same "
            "without a browser).\n"
        )
