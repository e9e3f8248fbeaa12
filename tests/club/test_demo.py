"""The demo club loads through the services and only once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from club import services
from club.models import ClubSession, Member, Transfer


@pytest.mark.django_db
def test_it_loads_the_demo_club_once() -> None:
    out = io.StringIO()
    call_command("demo", "--if-empty", stdout=out)
    assert "cooncan-demo" in out.getvalue() and "secretary" in out.getvalue()
    assert Member.objects.filter(is_bot=False).count() == 13
    assert ClubSession.objects.filter(status="balanced").count() == 1
    assert ClubSession.objects.filter(status="open").count() == 1
    assert Transfer.objects.exists() and not services.verify_balances()
    call_command("demo", "--if-empty", stdout=io.StringIO())
    assert Member.objects.filter(is_bot=False).count() == 13
