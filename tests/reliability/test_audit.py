"""Roles and the audit log (issue 42, item 7): the secretary's role is a group made by a
migration, with the admin's permissions for the club's models; members have none. Every
secretary action is recorded with who, when, what and why, and staff read it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from club.models import AuditEntry
from club.services.base import create_member

from .conftest import World
from .test_authorisation import ACTIONS, _client, _ready

pytestmark = pytest.mark.django_db

# The action each secretary's URL is recorded as (and whether it takes a reason).
RECORDED = {
    "club:arrival_add": (AuditEntry.CHECK_IN, False),
    "club:arrival_leave": (AuditEntry.CHECK_OUT, False),
    "club:arrival_fee": (AuditEntry.FEE, True),
    "club:table_cancel": (AuditEntry.TABLE_CANCEL, False),
    "club:table_computer": (AuditEntry.TABLE_COMPUTER, False),
    "club:session_cancel": (AuditEntry.CANCEL, False),
    "club:table_result": (AuditEntry.RESULT, False),
    "club:line_correct": (AuditEntry.CORRECTION, True),
    "club:transfer_pay": (AuditEntry.PAYMENT, False),
    "club:member_payment": (AuditEntry.PAYMENT, False),
    "club:member_refund": (AuditEntry.REFUND, True),
    "club:payment_reverse": (AuditEntry.REVERSAL, True),
    "club:session_open": (AuditEntry.OPEN, False),
    "club:house_rules": (AuditEntry.HOUSE_RULES, False),
    "club:table_create": (AuditEntry.TABLE, False),
    "club:table_void": (AuditEntry.TABLE_VOID, True),
    "club:session_close": (AuditEntry.CLOSE, True),
    "club:session_void": (AuditEntry.VOID, True),
    # Issue 78: the members' logins.
    "club:member_add": (AuditEntry.MEMBER_ADD, False),
    "club:member_import": (AuditEntry.MEMBER_ADD, False),
    "club:member_signin_link": (AuditEntry.SIGNIN_LINK, False),
    "club:member_sign_out": (AuditEntry.SIGN_OUT, False),
    "club:member_login": (AuditEntry.LOGIN_DISABLED, False),
    "club:member_join": (AuditEntry.MEMBER, False),
}


def test_every_secretary_action_is_recorded_with_who_what_and_why(world: World) -> None:
    _ready(world)
    assert {a.name for a in ACTIONS if a.role == "staff"} == set(RECORDED)
    for a in ACTIONS:
        before = AuditEntry.objects.count()
        r = _client(a.actor(world)).post(reverse(a.name, args=a.args(world)), a.data(world))
        assert r.status_code in (200, 302), (a.name, r.status_code)
        if a.role != "staff":  # a member's own action is not the secretary's
            assert AuditEntry.objects.count() == before, a.name
            continue
        assert AuditEntry.objects.count() == before + 1, a.name
        entry = AuditEntry.objects.latest("pk")
        action, reasoned = RECORDED[a.name]
        assert (entry.action, entry.actor) == (action, world.secretary.user), a.name
        assert entry.what, a.name
        assert bool(entry.why) == reasoned, (a.name, entry.why)
    # Staff read it, newest first, one evening at a time if asked.
    page = _client(world.secretary).get(reverse("club:audit")).content.decode()
    assert "a practice night" in page and "the wrong game" in page and "misread" in page
    assert page.index("a practice night") < page.index("the wrong game")
    one = (
        _client(world.secretary)
        .get(reverse("club:audit"), {"session": world.mistake.pk})
        .content.decode()
    )
    assert "Cancelled Mistake." in one and "the wrong game" not in one
    assert _client(world.players[0]).get(reverse("club:audit")).status_code == 403


def test_a_refused_action_records_nothing(staff_client: Client, world: World) -> None:
    before = AuditEntry.objects.count()
    r = staff_client.post(
        reverse("club:member_payment", args=[world.players[0].pk]),
        {"to": "club", "amount": "-3", "method": "cash"},
    )
    assert r.status_code == 400
    assert AuditEntry.objects.count() == before


@pytest.fixture
def staff_client(world: World) -> Client:
    return _client(world.secretary)


def test_the_secretary_has_the_admins_permissions_for_the_clubs_models_and_members_none(
    make_members: Callable[..., list[Any]], secretary: Any
) -> None:
    group = Group.objects.get(name="Secretary")  # made by migration 0012
    user = secretary.user
    assert group in user.groups.all()
    for model in ("member", "clubsession", "table", "posting", "leg", "washbookline",
                  "transfer", "account", "auditentry"):  # fmt: skip
        assert user.has_perm(f"club.view_{model}"), model
    assert user.has_perm("club.change_member") and user.has_perm("club.add_member")
    # The books are the services' to write: viewed in the admin, never changed there.
    for model in ("posting", "leg", "washbookline", "washbookentry", "transfer", "auditentry"):
        assert not user.has_perm(f"club.change_{model}"), model
    (member,) = make_members(1, "plain")
    assert not member.user.groups.exists() and not member.user.get_all_permissions()
    admin = Client()
    admin.force_login(user)
    assert admin.get(reverse("admin:club_posting_changelist")).status_code == 200
    assert admin.get(reverse("admin:club_auditentry_changelist")).status_code == 200
    member_client = Client()
    member_client.force_login(member.user)
    assert member_client.get(reverse("admin:index")).status_code == 302  # to the login


def test_a_new_staff_user_is_made_a_secretary() -> None:
    made = create_member("treasurer", "The Treasurer", is_staff=True)
    assert made.user.has_perm("club.view_posting")


def test_the_secretary_group_keeps_its_permissions_after_a_flush() -> None:
    """A flush (the test runner's between transactional tests; a restore from nothing)
    empties every table, then sends post_migrate: the permissions are made again, and
    the Secretary group with them, so a secretary made afterwards has his role. (The
    emptying is done by hand here: the flush command itself resets the id sequences,
    which a worker's caches of ids would then misread.)"""
    from django.contrib.auth.models import Permission
    from django.core.management.sql import emit_post_migrate_signal

    Group.objects.all().delete()
    Permission.objects.all().delete()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    assert Group.objects.get(name="Secretary").permissions.filter(codename="view_posting").exists()
    made = create_member("after-flush", "After Flush", is_staff=True)
    assert made.user.has_perm("club.view_posting")


@pytest.mark.parametrize("name", ["club:table_result", "club:arrival_leave", "club:transfer_pay"])
def test_an_action_whose_entry_cannot_be_written_is_not_done(
    world: World, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The action and its audit entry are one transaction: when the entry cannot be
    written (here it raises), the action is undone with it, not done unrecorded (the
    entry was written after the action's own commit before)."""
    from .conftest import state_snapshot

    _ready(world)
    action = next(a for a in ACTIONS if a.name == name)

    def fails(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the audit table is unwritable")

    monkeypatch.setattr(AuditEntry.objects, "create", fails)
    before, entries = state_snapshot(), AuditEntry.objects.count()
    client = Client(raise_request_exception=False)
    client.force_login(world.secretary.user)
    r = client.post(reverse(name, args=action.args(world)), action.data(world))
    assert r.status_code == 500
    assert state_snapshot() == before, name
    assert AuditEntry.objects.count() == entries
