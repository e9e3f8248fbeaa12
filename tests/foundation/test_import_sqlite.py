"""A club kept by an earlier `make run` on SQLite is copied into PostgreSQL, not lost in
silence (issue 35): `manage.py import_sqlite` (which `make run` calls when it finds
.run/db.sqlite3) copies every row in one transaction, proves the books, and refuses a
database that already holds a club or a file whose books do not balance."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection

from club.models import ClubSession, Leg, Member, Posting
from club.services.base import create_member

ROOT = Path(__file__).resolve().parents[2]

# An old club: made on SQLite by today's models, as an earlier `make run` kept it.
MAKE_OLD_CLUB = """
from club.settings import *  # noqa: F403
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": %(path)r}}
# Its passwords hashed as a club's were (the suite's own MD5 is for TESTING only).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
"""

FILL = """
import django
django.setup()
from decimal import Decimal
from django.contrib.auth.models import User
from django.core.management import call_command
from club.models import Account, ClubSession, Leg, Member, Posting
call_command("migrate", "club", "0001", verbosity=0)
call_command("migrate", "club", "0002", fake=True, verbosity=0)  # its triggers: PostgreSQL's
call_command("migrate", verbosity=0)
a = Member.objects.create(user=User.objects.create_user("zelda", password="old-secret"),
                          display_name="Zelda Old")
b = Member.objects.create(user=User.objects.create_user("yann", password="old-secret"),
                          display_name="Yann Old")
evening = ClubSession.objects.create(stake=Decimal("0.05"), name="Last winter")
p = Posting.objects.create(kind="payment", session=evening, memo="paid in cash", sealed=True)
legs = {a: Decimal(%(amount)r), b: Decimal("-1.50")}
for m, amount in legs.items():
    Leg.objects.create(posting=p, account=Account.objects.create(member=m, balance=amount),
                       amount=amount)
"""


def old_club(tmp_path: Path, *, amount: str = "1.50") -> Path:
    path = tmp_path / "db.sqlite3"
    (tmp_path / "old_settings.py").write_text(MAKE_OLD_CLUB % {"path": str(path)})
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "old_settings",
        "PYTHONPATH": f"{tmp_path}:{ROOT}",
    }
    code = textwrap.dedent(FILL % {"amount": amount})
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=ROOT)
    return path


def import_sqlite(path: Path) -> subprocess.CompletedProcess[str]:
    """The command, as `make run` runs it, on this test's database."""
    env = os.environ | {"TEST_DB_NAME": "", "DB_POOL": "0"}
    settings = connection.settings_dict
    env["DATABASE_URL"] = (
        f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT'] or 5432}"
        f"/{settings['NAME']}"
    )
    return subprocess.run(
        [sys.executable, "manage.py", "import_sqlite", str(path)],
        env=env, cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_an_old_sqlite_club_is_copied_with_its_logins_and_books(tmp_path: Path) -> None:
    path = old_club(tmp_path)
    done = import_sqlite(path)
    assert done.returncode == 0, done.stderr
    assert "copied the club" in done.stdout and "2 members" in done.stdout
    zelda = Member.objects.get(display_name="Zelda Old")
    assert zelda.user.check_password("old-secret")  # logins kept
    assert ClubSession.objects.get().name == "Last winter"
    posting = Posting.objects.get()
    assert posting.sealed and posting.memo == "paid in cash"
    assert sorted(Leg.objects.values_list("amount", flat=True)) == [
        Decimal("-1.50"), Decimal("1.50"),
    ]  # fmt: skip
    # The sequences go on after the copied rows, and the database's triggers are back on.
    assert create_member("newbie", "New").pk > zelda.pk
    # Run again: the database holds a club now, so it is refused and nothing changes.
    again = import_sqlite(path)
    assert again.returncode != 0
    assert "already holds a club (3 members): nothing was copied" in again.stderr
    assert Member.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_file_whose_books_do_not_balance_copies_nothing(tmp_path: Path) -> None:
    path = old_club(tmp_path, amount="1.49")  # legs +1.49 and -1.50
    done = import_sqlite(path)
    assert done.returncode != 0
    assert "club_leg of" in done.stderr and "do not sum to zero; nothing copied" in done.stderr
    assert not Member.objects.exists() and not Posting.objects.exists()
