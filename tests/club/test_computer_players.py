"""Computer players at a club table (issue 27, item 2).

The secretary seats computer players in the seats of an online table the members leave
empty. They cut for seats with the members, play through the same service, and are left
out of money: a table a computer player sat at is booked in points (each line balancing)
but never staked. A member who queues for the table takes a computer player's seat first.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club import services
from club.models import ClubSession, CutBatch, Member, Seat, Table, WashbookLine

from .conftest import field_error

pytestmark = pytest.mark.django_db


def _arrive(session: ClubSession, members: list[Member]) -> None:
    for m in members:
        services.check_in(session, m)


def test_a_member_and_a_computer_player_form_a_conquian_table(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    (ann,) = make_members(1)
    _arrive(session, [ann])
    table = services.form_table(session, variant="conquian", computer_players=1)
    seats = list(Seat.objects.filter(table=table).select_related("member"))
    assert table.size == 2 and table.status == Table.PLAYING
    assert sorted(s.member.is_bot for s in seats) == [False, True]
    assert {s.member for s in seats if not s.member.is_bot} == {ann}
    # They cut for seats and deal like anybody (L3): both drew a card.
    cut = CutBatch.objects.get(table=table, purpose=CutBatch.SEATS)
    assert {d.member_id for d in cut.draws.all()} == {s.member_id for s in seats}
    # The games app sees the seat as a computer player's.
    assert [s.is_bot for s in services.table_seating(table.pk)].count(True) == 1


def test_members_cut_for_the_places_the_computer_players_leave(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    members = make_members(3)
    _arrive(session, members)
    table = services.form_table(session, variant="conquian", computer_players=1)
    humans = [s.member for s in table.seats.select_related("member") if not s.member.is_bot]
    assert len(humans) == 1
    assert CutBatch.objects.filter(table=table, purpose=CutBatch.PLACES).exists()
    # The two who cut low wait for this table, in order of arrival.
    assert [a.member for a in services.table_queue(table)] == [
        m for m in members if m not in humans
    ]


def test_two_tables_get_different_computer_players(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    a, b = make_members(2)
    _arrive(session, [a])
    t1 = services.form_table(session, variant="conquian", computer_players=1)
    _arrive(session, [b])
    t2 = services.form_table(session, variant="conquian", computer_players=1)
    bot1 = t1.seats.get(member__is_bot=True).member
    bot2 = t2.seats.get(member__is_bot=True).member
    assert bot1 != bot2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": Table.PHYSICAL, "computer_players": 1}, "only at online tables"),
        ({"size": 2, "computer_players": 2}, "at most 1 computer player"),
        ({"computer_players": -1}, "cannot be negative"),
    ],
)
def test_impossible_computer_players_are_refused_and_nothing_is_made(
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    kwargs: dict[str, Any],
    message: str,
) -> None:
    _arrive(session, make_members(2))
    with pytest.raises(services.ClubError, match=message) as raised:
        services.form_table(session, variant="conquian", **kwargs)
    assert raised.value.field == "computers"
    assert not Table.objects.filter(session=session).exists()


def test_the_form_shows_the_refusal_beside_the_field(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    _arrive(session, make_members(2))
    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "foster", "size": "5", "mode": Table.PHYSICAL, "computers": "1"},
    )
    assert r.status_code == 400
    assert "only at online tables" in field_error(r.content.decode(), "computers")
    assert not Table.objects.filter(session=session).exists()


def test_the_form_seats_a_computer_player(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    _arrive(session, make_members(1))
    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "conquian", "mode": Table.ONLINE, "computers": "1"},
    )
    assert r.status_code == 302
    table = Table.objects.get(session=session)
    assert table.seats.filter(member__is_bot=True).count() == 1
    page = staff.get(table.get_club_url()).content.decode()
    assert "Bot " in page


def test_a_queued_member_takes_the_computer_players_seat_after_the_game(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ann, bob = make_members(2)
    _arrive(session, [ann])
    table = services.form_table(session, variant="conquian", computer_players=1)
    bot = table.seats.get(member__is_bot=True).member
    _arrive(session, [bob])
    services.join_queue(table, bob)
    turn = services.advance_after_deal(table.pk)  # two players: each deal is a game (L5)
    seated = {s.member for s in table.seats.select_related("member")}
    assert seated == {ann, bob}
    assert bot not in seated
    assert turn.seating_changed
    assert any(f"takes {bot}'s seat" in e for e in turn.events)
    # Nobody cut to go out: the member only took the computer player's seat.
    assert not CutBatch.objects.filter(table=table, purpose=CutBatch.ROTATION).exists()


def _book(table: Table, points: dict[Member, int]) -> WashbookLine:
    line = WashbookLine.objects.create(table=table, number=1, value=max(points.values()))
    for position, (m, p) in enumerate(points.items()):
        line.entries.create(member=m, points=p, position=position)
    return line


def test_a_table_with_a_computer_player_is_booked_in_points_but_not_staked(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ann, bob, cy = make_members(3)
    _arrive(session, [ann])
    with_bot = services.form_table(session, variant="conquian", computer_players=1)
    bot = with_bot.seats.get(member__is_bot=True).member
    _arrive(session, [bob, cy])
    people = services.form_table(session, variant="conquian")
    _book(with_bot, {ann: -30, bot: 30})
    _book(people, {bob: 12, cy: -12})

    assert services.staked_tables(session.pk) == [people.pk]
    assert services.session_points(session.pk) == {bob.pk: 12, cy.pk: -12}

    page = staff.get(reverse("club:washbook", args=[with_bot.pk])).content.decode()
    assert "not staked</strong> (a computer player sat at it)" in page
    assert (
        "not staked" not in staff.get(reverse("club:washbook", args=[people.pk])).content.decode()
    )
    across = staff.get(reverse("club:session_washbook", args=[session.pk])).content.decode()
    assert f"Not staked</strong>: table {with_bot.number} (a computer player sat at it)." in across

    # Balancing converts only the staked table's points into money.
    services.close_session(session.pk)
    services.balance_session(session.pk)
    money = services.session_money(session.pk)
    assert set(money) == {bob.pk, cy.pk}
    assert money[bob.pk] == Decimal("0.60") and money[cy.pk] == Decimal("-0.60")


def test_a_table_stays_unstaked_after_a_member_takes_the_computer_players_seat(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Its first deal a tableau (no entries), then the computer player's seat taken: the
    table keeps the mark it was formed with, and balancing still leaves it out."""
    ann, bob = make_members(2)
    _arrive(session, [ann])
    table = services.form_table(session, variant="conquian", computer_players=1)
    WashbookLine.objects.create(table=table, number=1, kind=WashbookLine.TABLEAU)
    _arrive(session, [bob])
    services.join_queue(table, bob)
    services.advance_after_deal(table.pk)
    assert not table.seats.filter(member__is_bot=True).exists()
    assert table.pk not in services.staked_tables(session.pk)
