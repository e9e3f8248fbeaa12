"""The smaller cases of issue 36, each failing on the commit before it: a newcomer added
twice at once is one member; computer players' names are theirs; players of a voided or
cancelled table are free; a leaver whose substitute plays may go; an evening no longer
open takes no substitutes or check-outs; the standings leave out what balancing does."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Arrival, ClubSession, Member, Seat, Substitution, Table
from club.services.base import ClubError, create_member
from club.services.ledger import balance_session
from club.services.mistakes import cancel_table, void_table
from club.services.seats import consent_substitute, propose_substitute
from club.services.sessions import (
    cancel_session,
    check_in,
    check_out,
    close_session,
    open_session,
    void_session,
)
from club.services.tables import form_table, join_queue
from club.services.washbook import PhysicalResult, enter_physical_result, post_online_deal
from tests.club.conftest import field_error

pytestmark = pytest.mark.django_db

Make = Callable[..., list[Member]]


def physical(session: ClubSession, players: list[Member]) -> Table:
    for m in players:
        check_in(session, m)
    return form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL, candidates=players)


def test_a_newcomer_submitted_twice_is_one_member_checked_in_once(
    staff: Client, session: ClubSession
) -> None:
    url = reverse("club:arrival_add", args=[session.pk])
    first = staff.post(url, {"new_name": "Nell Ray"})
    again = staff.post(url, {"new_name": " nell  ray "})  # the double tap, as typed
    assert first.status_code == again.status_code == 302
    assert Member.objects.filter(display_name__iexact="Nell Ray").count() == 1
    assert Arrival.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("name", ["Bot Delta", "bot  golf", "BOT ALFA"])
def test_a_computer_players_name_is_refused_before_it_exists(
    staff: Client, session: ClubSession, name: str
) -> None:
    assert not Member.objects.filter(is_bot=True).exists()
    r = staff.post(reverse("club:arrival_add", args=[session.pk]), {"new_name": name})
    assert r.status_code == 400
    assert "is a computer player&#x27;s name" in field_error(r.content.decode(), "new_name")
    assert not Member.objects.filter(display_name__iexact=" ".join(name.split())).exists()
    with pytest.raises(ClubError, match="computer player"):
        create_member("sneaky", name)


def test_players_of_a_voided_table_queue_and_substitute_elsewhere(
    session: ClubSession, make_members: Make
) -> None:
    ann, bob, cat, dan = make_members(4)
    voided = physical(session, [ann, bob])
    enter_physical_result(voided.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 5}))
    void_table(voided.pk, "the wrong game")
    other = physical(session, [cat, dan])
    assert join_queue(other, ann).queue_table_id == other.pk
    sub = propose_substitute(other, cat, bob)
    assert sub.status == Substitution.PROPOSED


def test_players_of_a_cancelled_table_queue_elsewhere(
    session: ClubSession, make_members: Make
) -> None:
    ann, bob, cat, dan = make_members(4)
    cancelled = physical(session, [ann, bob])
    cancel_table(cancelled.pk)
    other = physical(session, [cat, dan])
    assert join_queue(other, bob).queue_table_id == other.pk


def test_a_leaver_whose_substitute_plays_may_check_out_and_the_substitute_keeps_the_seat(
    session: ClubSession, make_members: Make
) -> None:
    ann, bob, cat = make_members(3)
    table = physical(session, [ann, bob])
    check_in(session, cat)
    consent_substitute(propose_substitute(table, ann, cat), bob)
    # The substitute plays the seat: he may not leave until the game ends.
    with pytest.raises(ClubError, match="plays for"):
        check_out(session, cat)
    check_out(session, ann)  # refused before, with advice to appoint one
    assert Arrival.objects.get(session=session, member=ann).left_at is not None
    # The game ends (two players: each deal is a game): Cat keeps Ann's seat.
    enter_physical_result(table.pk, PhysicalResult(winner_id=bob.pk, losses={ann.pk: 4}))
    assert set(Seat.objects.filter(table=table).values_list("member", flat=True)) == {
        bob.pk,
        cat.pk,
    }


@pytest.mark.parametrize("end", ["close", "cancel", "void"])
def test_an_evening_no_longer_open_takes_no_substitute_and_no_check_out(
    session: ClubSession, make_members: Make, end: str
) -> None:
    ann, bob, cat = make_members(3)
    table = physical(session, [ann, bob])
    check_in(session, cat)
    if end == "cancel":
        cancel_session(session.pk)
    else:
        enter_physical_result(table.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 3}))
        if end == "close":
            close_session(session.pk, queue=False)
        else:
            void_session(session.pk, "the wrong stake")
    left_before = Arrival.objects.filter(session=session, left_at__isnull=True).count()
    with pytest.raises(ClubError, match="substitute"):
        propose_substitute(table, ann, cat)
    assert not Substitution.objects.exists()
    if left_before:  # a closed evening keeps its arrivals: none of them checks out now
        with pytest.raises(ClubError, match="nobody checks out"):
            check_out(session, cat)


def test_the_standings_leave_out_a_table_a_computer_player_sat_at_and_say_so(
    client: Client, secretary: Member, make_members: Make
) -> None:
    ann, bob, cat = make_members(3)
    session = open_session(stake=Decimal("0.05"), by=secretary.user)
    staked = physical(session, [ann, bob])
    enter_physical_result(staked.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 6}))
    check_in(session, cat)
    with_bot = form_table(session, variant="conquian", size=2, candidates=[cat], computer_players=1)
    mine = Seat.objects.get(table=with_bot, member=cat).position  # Cat beats the computer
    post_online_deal(with_bot.pk, deal_key="deal:test", points={mine: 40, 1 - mine: -40}, detail={})
    close_session(session.pk, queue=False)
    balance_session(session.pk)
    client.force_login(ann.user)
    page = client.get(reverse("club:standings")).content.decode()
    rows = {
        r.member.display_name: r.points
        for r in client.get(reverse("club:standings")).context["rows"]
    }
    assert rows[ann.display_name] == 6 and rows[bob.display_name] == -6
    assert rows[cat.display_name] == 0  # balancing left his 40 out of money: so do these
    assert "tables a computer player sat at are left out" in page
