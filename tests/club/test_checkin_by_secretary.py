"""The secretary checks members in and out for them, and adds a newcomer (issue 27,
item 2, in part): a member need not log in, or own a phone, to be seated."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Arrival, ClubSession, Member
from club.services.base import ClubError
from club.services.ledger import balance_session, session_money
from club.services.mistakes import cancel_table
from club.services.sessions import check_in, check_out, close_session, open_session
from club.services.tables import form_table, waiting_members
from tests.club.conftest import field_error

pytestmark = pytest.mark.django_db


def test_the_secretary_checks_in_a_member_who_never_logged_in(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    (ann,) = make_members(1)
    console = reverse("club:console", args=[session.pk])
    page = staff.get(console).content.decode()
    offered = f'name="member" value="{ann.pk}"'
    assert "Check in" in page and offered in page
    r = staff.post(reverse("club:arrival_add", args=[session.pk]), {"member": ann.pk})
    assert r.status_code == 302
    assert [a.member for a in waiting_members(session)] == [ann]
    page = staff.get(console).content.decode()
    assert offered not in page  # no longer offered
    r = staff.post(reverse("club:arrival_leave", args=[session.pk, ann.pk]))
    assert r.status_code == 302
    assert Arrival.objects.get(session=session, member=ann).left_at is not None


def test_the_secretary_adds_a_newcomer_and_checks_him_in(
    staff: Client, session: ClubSession
) -> None:
    r = staff.post(reverse("club:arrival_add", args=[session.pk]), {"new_name": "  Dora Ames "})
    assert r.status_code == 302
    dora = Member.objects.get(display_name="Dora Ames")
    assert not dora.user.has_usable_password() and not dora.user.is_staff
    assert [a.member for a in waiting_members(session)] == [dora]


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (lambda m: {}, "member", "Choose a member, or give a new member's name."),
        (lambda m: {"new_name": "   "}, "member", "Choose a member, or give a new member's name."),
        (lambda m: {"new_name": m.display_name.upper()}, "new_name", "choose them from the list."),
        (lambda m: {"member": "999999"}, "member", "Select a valid choice."),
        (lambda m: {"member": m.pk, "guest": "on"}, "guest", "A guest is added by name"),
    ],
)
def test_a_bad_check_in_is_told_beside_its_field_and_changes_nothing(
    staff: Client,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    data: object,
    field: str,
    message: str,
) -> None:
    (ann,) = make_members(1)
    members = Member.objects.count()
    r = staff.post(reverse("club:arrival_add", args=[session.pk]), data(ann))  # type: ignore[operator]
    assert r.status_code == 400
    body = r.content.decode()
    assert message in field_error(body, field).replace("&#x27;", "'")
    assert 'role="alert">Nobody was checked in' in body
    assert not Arrival.objects.exists() and Member.objects.count() == members


def test_the_secretary_adds_a_guest_who_plays_and_settles_but_is_not_in_the_standings(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    (ann,) = make_members(1)
    r = staff.post(
        reverse("club:arrival_add", args=[session.pk]), {"new_name": "Gus Visitor", "guest": "on"}
    )
    assert r.status_code == 302
    gus = Member.objects.get(display_name="Gus Visitor")
    assert gus.is_guest and not gus.user.has_usable_password()
    check_in(session, ann)
    page = staff.get(session.get_absolute_url()).content.decode()
    assert 'Gus Visitor <span class="badge">guest</span>' in page
    # He plays and is booked like a member, and his money is in the settlement...
    table = form_table(session, variant="conquian")
    line = table.lines.create(number=1, value=20)
    line.entries.create(member=gus, points=20, position=0)
    line.entries.create(member=ann, points=-20, position=1)
    close_session(session.pk)
    balance_session(session.pk)
    assert set(session_money(session.pk)) == {gus.pk, ann.pk}
    # ...marked as a guest there (issue 79, item 6), in the transfer and the results...
    settled = staff.get(reverse("club:settlement", args=[session.pk])).content.decode()
    assert settled.count('Gus Visitor</a> <span class="badge">guest</span>') == 2, settled
    # ...but the club's standings are its members'.
    # (a guest is listed apart, unranked, his fees in the columns: issue 81)
    standings = staff.get(reverse("club:standings"))
    assert ann in [r.member for r in standings.context["rows"]]
    assert gus not in [r.member for r in standings.context["rows"]]
    assert [r.member for r in standings.context["guests"]] == [gus]


def test_a_seated_player_is_not_checked_out_and_keeps_playing(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Checked out while seated, a member kept a seat nobody played: the secretary and the
    member himself are told he leaves the table first (a substitute, L6); nothing changes.
    Once the table is over he may leave."""
    from club.models import Table

    members = make_members(5)
    for m in members:
        check_in(session, m)
    table = form_table(
        session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=members[:4]
    )
    seated = table.seats.first().member  # type: ignore[union-attr]
    r = staff.post(reverse("club:arrival_leave", args=[session.pk, seated.pk]))
    assert r.status_code == 400
    assert f"{seated.display_name} is seated at Table 1 and must leave the table first" in (
        r.content.decode()
    )
    own = Client()
    own.force_login(seated.user)
    r = own.post(reverse("club:check_out", args=[session.pk]))
    assert r.status_code == 400 and "must leave the table first" in r.content.decode()
    assert Arrival.objects.get(session=session, member=seated).left_at is None
    # The one not seated leaves as before; after the table is cancelled, so may the player.
    assert (
        staff.post(reverse("club:arrival_leave", args=[session.pk, members[4].pk])).status_code
        == 302
    )
    cancel_table(table.pk)
    assert (
        staff.post(reverse("club:arrival_leave", args=[session.pk, seated.pk])).status_code == 302
    )
    assert Arrival.objects.get(session=session, member=seated).left_at is not None


def test_members_ticked_and_a_newcomer_refused_check_nobody_in(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Members ticked and a newcomer named go in one submit (issue 56), and together:
    the newcomer refused (Bob's name again), Ann ticked with him is not checked in."""
    ann, bob = make_members(2)
    r = staff.post(reverse("club:arrival_add", args=[session.pk]),
                   {"member": [ann.pk], "new_name": bob.display_name.upper()})  # fmt: skip
    assert r.status_code == 400
    assert "choose them from the list" in field_error(r.content.decode(), "new_name").replace(
        "&#x27;", "'"
    )
    assert not Arrival.objects.exists()


def test_a_member_in_another_open_evening_is_refused_and_told_where(
    staff: Client,
    session: ClubSession,
    secretary: Member,
    make_members: Callable[..., list[Member]],
) -> None:
    """Issue 79, item 5: a member waiting in one open evening was checked in and seated in
    a second open evening, with no word to the secretary. Refused now, the refusal naming
    the other evening, beside the field; once checked out there, checked in here."""
    (ann,) = make_members(1)
    check_in(session, ann)
    other = open_session(stake="0.10", by=secretary.user, name="Upstairs", second=True)
    # The other evening's console does not offer her, and says where she is.
    console = staff.get(reverse("club:console", args=[other.pk])).content.decode()
    assert f'name="member" value="{ann.pk}"' not in console
    elsewhere = re.search(r'<p class="small muted" id="elsewhere">(.*?)</p>', console, re.S)
    assert elsewhere and f"{ann.display_name} ({session})" in elsewhere.group(1)
    r = staff.post(reverse("club:arrival_add", args=[other.pk]), {"member": ann.pk})
    assert r.status_code == 400  # not a choice there
    assert not Arrival.objects.filter(session=other).exists()
    # The service itself refuses, naming the evening, whichever way she is checked in.
    with pytest.raises(ClubError, match=f"{ann.display_name} is checked in at {session}"):
        check_in(other, ann)
    assert not Arrival.objects.filter(session=other).exists()
    check_out(session, ann)
    r = staff.post(reverse("club:arrival_add", args=[other.pk]), {"member": ann.pk})
    assert r.status_code == 302
    assert Arrival.objects.filter(session=other, member=ann, left_at=None).exists()
