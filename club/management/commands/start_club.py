"""Start an empty club without a browser (issue 78): the same as the setup page's
"Start your club", by flags or, where one is missing and a terminal is there, by asking.

    python manage.py start_club --name "The Tuesday Club" --time-zone Europe/London \\
        --currency-symbol £ --currency-places 2 --game foster \\
        --username rosa --display-name "Rosa Grey"

The password is asked twice at the terminal (never a flag: a shell's history keeps
flags), or read from the file named by --password-file (its first line). Every mistake
is said at once and nothing is made; a club already started is refused.
"""

from __future__ import annotations

import getpass
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.engine.variant import VARIANTS, first_variant


class Command(BaseCommand):
    help = "Start an empty club: its name, time zone, money, game and secretary."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--name")
        parser.add_argument("--time-zone", dest="time_zone")
        parser.add_argument("--currency-symbol", dest="currency_symbol")
        parser.add_argument("--currency-places", dest="currency_places", type=int)
        parser.add_argument("--game", dest="default_variant", choices=sorted(VARIANTS))
        parser.add_argument(
            "--language", choices=[code for code, _name in settings.LANGUAGES], default=""
        )
        parser.add_argument("--username")
        parser.add_argument("--display-name", dest="display_name")
        parser.add_argument("--password-file", dest="password_file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        from club.services import setup

        setup.ensure_started()
        if setup.started():
            raise CommandError("this club has been started already")
        defaults = {
            "time_zone": settings.TIME_ZONE,
            "currency_symbol": settings.CLUB_CURRENCY_SYMBOL,
            "currency_places": settings.CLUB_CURRENCY_PLACES,
            "default_variant": first_variant().name,
        }
        asks = {
            "name": "The club's name",
            "time_zone": "Time zone",
            "currency_symbol": "Currency symbol",
            "currency_places": "Decimal places of money (0, 1 or 2)",
            "default_variant": f"The club's usual game ({', '.join(sorted(VARIANTS))})",
            "username": "Secretary's username",
            "display_name": "Secretary's name, as members see it",
        }
        given: dict[str, Any] = {}
        for field, question in asks.items():
            value = options.get(field)
            if value is None:
                value = self.ask(question, defaults.get(field))
            given[field] = value
        try:
            given["currency_places"] = int(given["currency_places"])
        except (TypeError, ValueError):
            given["currency_places"] = -1
        given["password"] = self.password(options.get("password_file"))
        given["language"] = options.get("language") or settings.LANGUAGE_CODE
        new = setup.NewClub(
            **{k: v if k == "currency_places" else str(v) for k, v in given.items()}
        )
        errors = setup.check(new)
        if errors:
            said = "\n".join(f"  {field}: {m}" for field, ms in errors.items() for m in ms)
            raise CommandError(f"the club was not started:\n{said}")
        secretary = setup.start_club(setup.setup_code(), new, address="manage.py start_club")
        self.stdout.write(
            f"Started {new.name.strip()}: log in as {secretary.user.username} (the secretary) "
            "and add the members.\n"
        )

    def ask(self, question: str, default: Any) -> str:
        if not sys.stdin.isatty():
            hint = question.lower().split(" (")[0]
            raise CommandError(f"{hint}: give it as a flag (no terminal to ask at)")
        shown = f" [{default}]" if default not in (None, "") else ""
        answer = input(f"{question}{shown}: ").strip()
        return answer or ("" if default is None else str(default))

    def password(self, path: Path | None) -> str:
        if path is not None:
            try:
                return path.read_text().splitlines()[0]
            except (OSError, IndexError) as e:
                raise CommandError(f"--password-file: cannot read a password from {path}") from e
        if not sys.stdin.isatty():
            raise CommandError("the secretary's password: give --password-file (no terminal)")
        first = getpass.getpass("Secretary's password: ")
        if getpass.getpass("The password again: ") != first:
            raise CommandError("the two passwords differ: nothing was made")
        return first
