"""The demo club loads through the services and only once, its logins under a password
made for this install (issue 78), never the one once published."""

from __future__ import annotations

import io
import stat
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import call_command

from club.models import ClubSession, Member, Transfer
from club.services.base import create_member
from club.services.demo import PUBLISHED
from club.services.ledger import verify_balances
from tests.passwords import repository_passwords


@pytest.fixture
def run_dir(settings: Any, tmp_path: Path) -> Path:
    settings.RUN_DIR = tmp_path
    return tmp_path


@pytest.mark.django_db
def test_it_loads_the_demo_club_once_under_this_installs_own_password(run_dir: Path) -> None:
    out = io.StringIO()
    call_command("demo", "--if-empty", stdout=out)
    kept = run_dir / "demo-password"
    password = kept.read_text().strip()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and len(password) >= 16
    assert password in out.getvalue() and "secretary" in out.getvalue()
    assert PUBLISHED not in out.getvalue()
    users = get_user_model().objects.filter(username__in=["secretary", "alice", "leo"])
    assert len(users) == 3
    for user in users:
        assert user.check_password(password) and not user.check_password(PUBLISHED)
    assert Member.objects.filter(is_bot=False).count() == 13
    assert ClubSession.objects.filter(status="balanced").count() == 1
    assert ClubSession.objects.filter(status="open").count() == 1
    assert Transfer.objects.exists() and not verify_balances()
    again = io.StringIO()
    call_command("demo", "--if-empty", stdout=again)
    assert Member.objects.filter(is_bot=False).count() == 13
    assert password in again.getvalue() and kept.read_text().strip() == password


@pytest.mark.django_db
def test_two_installs_have_two_passwords(settings: Any, tmp_path: Path) -> None:
    made = []
    for name in ("one", "two"):
        settings.RUN_DIR = tmp_path / name
        from club.services.demo import demo_password

        made.append(demo_password())
    assert made[0] != made[1]


@pytest.mark.django_db
def test_a_demo_loaded_under_the_published_password_is_given_its_own(run_dir: Path) -> None:
    """A club that kept the demo from before issue 78: its logins took the password the
    README printed. The next start gives them this install's own and says so; a login
    whose password the club changed keeps it."""
    call_command("demo", "--if-empty", stdout=io.StringIO())
    (run_dir / "demo-password").unlink()  # as it was before issue 78: no file
    User = get_user_model()
    User.objects.exclude(username="bob").update(password=make_password(PUBLISHED))
    User.objects.filter(username="bob").update(password=make_password("bobs-own-choice"))
    out = io.StringIO()
    call_command("demo", "--if-empty", stdout=out)
    password = (run_dir / "demo-password").read_text().strip()
    assert "12 given this install's own" in out.getvalue(), out.getvalue()
    for user in User.objects.filter(username__in=["secretary", "alice", "bob"]):
        assert not user.check_password(PUBLISHED)
    assert User.objects.get(username="alice").check_password(password)
    assert User.objects.get(username="bob").check_password("bobs-own-choice")


@pytest.mark.django_db
def test_a_club_of_its_own_is_not_told_demo_logins(run_dir: Path) -> None:
    create_member("zelda", "Zelda Own")
    out = io.StringIO()
    call_command("demo", "--if-empty", stdout=out)
    assert out.getvalue() == "" and not (run_dir / "demo-password").exists()


@pytest.mark.django_db
def test_no_password_in_the_repository_opens_a_demo_login(run_dir: Path) -> None:
    """Issue 78's acceptance: the demo's logins take this install's own password, and no
    password the repository holds (its tests', its docs', the one once published) opens
    any of them."""
    candidates = repository_passwords()
    assert PUBLISHED in candidates and len(candidates) > 20, sorted(candidates)[:50]
    call_command("demo", "--if-empty", stdout=io.StringIO())
    users = list(get_user_model().objects.filter(member__is_bot=False))
    assert len(users) == 13
    opened = [(u.username, p) for u in users for p in candidates if u.check_password(p)]
    assert opened == []
