"""A table or an evening played in error is voided with a reason (issue 27, item 3).

Its washbooks are kept, marked void; balancing leaves it out of money, the standings
leave it out, and an online deal in progress there stops. Without a reason, or before
any play (cancel instead), or after balancing, it is refused beside the field and
nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Table
from club.services.base import ClubError
from club.services.ledger import balance_session, session_money, staked_tables
from club.services.mistakes import void_table
from club.services.sessions import check_in, close_session, void_session
from club.services.tables import form_table, waiting_members
from club.services.washbook import PhysicalResult, enter_physical_result
from games.models import Deal
from games.play import reading
from games.play import services as games
from games.play.moves import Rejection
from tests.games.helpers import move_for_mover

from .conftest import field_error

pytestmark = pytest.mark.django_db


def _played(session: ClubSession, members: list[Member], points: int = 5) -> Table:
    """A physical table of the members with one deal on its washbook."""
    for m in members:
        check_in(session, m)
    table = form_table(
        session, variant="foster", size=len(members), mode=Table.PHYSICAL, candidates=members
    )
    seated = [s.member for s in table.seats.all()]
    enter_physical_result(
        table.pk,
        PhysicalResult(
            winner_id=seated[0].pk, losses={seated[1].pk: points, **{m.pk: 0 for m in seated[2:]}}
        ),
    )
    return table


def test_a_table_played_in_error_is_voided_and_left_out_of_money(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    members = make_members(8)
    wrong = _played(session, members[:4])
    right = _played(session, members[4:], points=7)
    console = reverse("club:console", args=[session.pk])
    assert "Void this table" in staff.get(console).content.decode()
    r = staff.post(
        reverse("club:table_void", args=[wrong.pk]),
        {f"void-{wrong.pk}-reason": "  played Foster's laws for three by mistake "},
    )
    assert r.status_code == 302 and r["Location"] == console
    wrong.refresh_from_db()
    assert wrong.status == Table.CLOSED and wrong.voided_at is not None
    assert wrong.void_reason == "played Foster's laws for three by mistake"
    assert len(waiting_members(session)) == 4  # its players wait again
    # The lines stay in its washbook, which says why the table is not staked.
    assert wrong.lines.count() == 1
    book = staff.get(reverse("club:washbook", args=[wrong.pk])).content.decode()
    assert "(voided: played Foster&#x27;s laws for three by mistake)" in book
    assert "Voided" in staff.get(console).content.decode()
    # Balancing converts only the other table.
    assert staked_tables(session.pk) == [right.pk]
    close_session(session.pk)
    balance_session(session.pk)
    money = session_money(session.pk)
    assert set(money) <= {m.pk for m in members[4:]}
    assert sum(money.values()) == Decimal("0")
    # His statement lists the voided table's line, marked, and leaves it out of his points.
    winner = wrong.lines.get().entries.get(points__gt=0).member
    statement = re.sub(
        r"\s+",
        " ",
        re.sub(
            r"<[^>]+>",
            " ",
            staff.get(reverse("club:statement", args=[winner.pk, session.pk])).content.decode(),
        ),
    )
    assert "not staked (voided: played Foster&#x27;s laws for three by mistake)" in statement
    assert "net 0 points (and +5 at tables not staked, left out of money)" in statement


@pytest.mark.parametrize(
    ("reason", "message"),
    [("", "Give the reason."), ("   ", "Give the reason."), ("x" * 201, "at most 200")],
)
def test_voiding_a_table_without_a_good_reason_is_told_beside_the_field(
    staff: Client,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    reason: str,
    message: str,
) -> None:
    table = _played(session, make_members(4))
    r = staff.post(reverse("club:table_void", args=[table.pk]), {f"void-{table.pk}-reason": reason})
    assert r.status_code == 400
    body = r.content.decode()
    assert message in field_error(body, f"void-{table.pk}-reason")
    assert "The table was not voided" in body
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.voided_at is None


def test_a_table_not_yet_played_is_cancelled_not_voided(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    for m in make_members(4):
        check_in(session, m)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    r = staff.post(reverse("club:table_void", args=[table.pk]), {f"void-{table.pk}-reason": "x"})
    assert r.status_code == 400
    assert "cancel it instead" in r.content.decode()
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.voided_at is None


def test_voiding_an_online_table_stops_its_deal(
    session: ClubSession, make_members: Callable[..., list[Member]], client: Client
) -> None:
    ann, bob = make_members(2)
    for m in (ann, bob):
        check_in(session, m)
    table = form_table(session, variant="conquian")
    deal = games.ensure_deal(table.pk)
    assert deal is not None
    move_for_mover(table.pk, deal)
    void_table(table.pk, "the wrong players sat down")
    deal = Deal.objects.get(pk=deal.pk)
    assert deal.finished and deal.washbook_line_id is None
    assert reading.stopped_reason(deal) == "The table was voided: the wrong players sat down"
    # Nobody plays on, and nothing more is dealt there.
    with pytest.raises(Rejection, match="voided"):
        move_for_mover(table.pk, deal)
    assert games.ensure_deal(table.pk) == deal
    client.force_login(ann.user)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "The table was voided: the wrong players sat down" in page
    assert 'name="action"' not in page  # no play is offered


def test_an_evening_played_in_error_is_voided_never_balanced_and_not_in_the_standings(
    staff: Client,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    no_queue: list[int],
) -> None:
    members = make_members(4)
    _played(session, members)
    console = reverse("club:console", args=[session.pk])
    assert "Void the evening" in staff.get(console).content.decode()
    r = staff.post(
        reverse("club:session_void", args=[session.pk]),
        {"void-session-reason": "a practice night, opened as a staked evening"},
    )
    assert r.status_code == 302
    session.refresh_from_db()
    assert session.status == ClubSession.VOIDED
    assert session.void_reason == "a practice night, opened as a staked evening"
    assert not session.tables.exclude(status=Table.CLOSED).exists()
    assert not session.arrivals.filter(left_at=None).exists()
    # It is never balanced: closing it is refused, and a queued balancing claims nothing.
    assert close_session(session.pk) is False
    assert balance_session(session.pk).posted is False
    assert session_money(session.pk) == {}
    rows = staff.get(reverse("club:standings")).context["rows"]
    assert {r.member.pk: r.points for r in rows if r.member in members} == {
        m.pk: 0 for m in members
    }
    assert "Voided: a practice night" in staff.get(session.get_absolute_url()).content.decode()
    washbook = staff.get(reverse("club:session_washbook", args=[session.pk])).content.decode()
    assert "The evening was voided" in washbook


@pytest.mark.parametrize(
    ("reason", "message"), [("", "Give the reason."), ("y" * 201, "at most 200")]
)
def test_voiding_an_evening_without_a_good_reason_changes_nothing(
    staff: Client,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    reason: str,
    message: str,
) -> None:
    _played(session, make_members(4))
    r = staff.post(reverse("club:session_void", args=[session.pk]), {"void-session-reason": reason})
    assert r.status_code == 400
    assert message in field_error(r.content.decode(), "void-session-reason")
    session.refresh_from_db()
    assert session.status == ClubSession.OPEN


def test_an_evening_is_voided_only_after_play_and_before_balancing(
    session: ClubSession, make_members: Callable[..., list[Member]], no_queue: list[int]
) -> None:
    with pytest.raises(ClubError, match="cancel it instead"):
        void_session(session.pk, "nothing yet")
    _played(session, make_members(4))
    close_session(session.pk)
    balance_session(session.pk)
    with pytest.raises(ClubError, match="can no longer be voided"):
        void_session(session.pk, "too late")
    session.refresh_from_db()
    assert session.status == ClubSession.BALANCED


def test_voiding_what_can_no_longer_be_voided_still_says_why(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """The void form is no longer on the page (nothing played yet): the refusal, even a
    missing reason, is shown at the top of the console."""
    for m in make_members(4):
        check_in(session, m)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    r = staff.post(reverse("club:table_void", args=[table.pk]), {})
    assert r.status_code == 400
    assert 'role="alert">Not done: Give the reason.' in r.content.decode()
    r = staff.post(reverse("club:session_void", args=[session.pk]), {})
    assert r.status_code == 400
    assert 'role="alert">Not done: Give the reason.' in r.content.decode()
