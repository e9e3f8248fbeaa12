"""A session or a table made by mistake is cancelled while nothing is played on it
(issue 27, item 3); after play it is refused and nothing changes."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Table
from club.services.base import ClubError
from club.services.mistakes import cancel_table
from club.services.sessions import cancel_session, check_in, open_session, played_at
from club.services.tables import form_table, waiting_members
from club.services.washbook import PhysicalResult, enter_physical_result
from games.play.moves import Move

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(session: ClubSession, make_members: Callable[..., list[Member]]) -> list[Member]:
    ms = make_members(5)
    for m in ms:
        check_in(session, m)
    return ms


def _played_table(session: ClubSession) -> Table:
    """A physical table of four with one deal posted on its washbook."""
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    seated = [s.member for s in table.seats.all()]
    enter_physical_result(
        table.pk,
        PhysicalResult(
            winner_id=seated[0].pk, losses={seated[1].pk: 5, **{m.pk: 0 for m in seated[2:]}}
        ),
    )
    return table


def test_a_table_formed_by_mistake_is_cancelled_and_its_players_wait_again(
    session: ClubSession, evening: list[Member], client: Client, secretary: Member
) -> None:
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    assert len(waiting_members(session)) == 1
    client.force_login(secretary.user)
    page = client.get(table.get_club_url()).content.decode()
    assert "Cancel this table" in page
    r = client.post(reverse("club:table_cancel", args=[table.pk]))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.CLOSED
    assert len(waiting_members(session)) == 5  # everybody waits again
    assert "nothing had been played" in table.events.first().text  # type: ignore[union-attr]
    assert "Cancel this table" not in client.get(table.get_club_url()).content.decode()


def test_a_table_with_a_line_cannot_be_cancelled(
    session: ClubSession, evening: list[Member], client: Client, secretary: Member
) -> None:
    table = _played_table(session)
    client.force_login(secretary.user)
    assert "Cancel this table" not in client.get(table.get_club_url()).content.decode()
    r = client.post(reverse("club:table_cancel", args=[table.pk]))
    assert r.status_code == 400 and "it stays in the washbook" in r.content.decode()
    table.refresh_from_db()
    assert table.status == Table.PLAYING


def test_an_online_deal_with_a_move_counts_as_play(
    session: ClubSession, evening: list[Member], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games app tells the club about online play (a deal with an applied action)."""
    from games.play import reading
    from games.play import services as game_services

    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: None)
    table = form_table(session, variant="conquian", size=2, mode=Table.ONLINE)
    deal = game_services.ensure_deal(table.pk)
    assert deal is not None and not played_at(table_id=table.pk)
    state = reading.load_state(deal)
    seat = state.to_move()
    mover = table.seats.get(position=seat).member
    game_services.act(Move(table.pk, member_id=mover.pk, version=deal.version, deal_id=deal.pk, action=json.loads(json.dumps(state.legal_actions(seat)[0].to_json()))))  # fmt: skip
    assert played_at(table_id=table.pk)
    with pytest.raises(ClubError, match="deals have been played at this table"):
        cancel_table(table.pk)
    with pytest.raises(ClubError, match="close and balance it instead"):
        cancel_session(session.pk)


def test_an_evening_opened_by_mistake_is_cancelled_and_never_balanced(
    session: ClubSession, evening: list[Member], client: Client, secretary: Member
) -> None:
    form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    client.force_login(secretary.user)
    console = reverse("club:console", args=[session.pk])
    assert "Cancel this evening" in client.get(console).content.decode()
    assert client.post(reverse("club:session_cancel", args=[session.pk])).status_code == 302
    session.refresh_from_db()
    assert session.status == ClubSession.CANCELLED and not session.is_open
    assert not session.tables.exclude(status=Table.CLOSED).exists()
    assert not session.arrivals.filter(left_at=None).exists()
    # The club has no open evening now: the next one opens without "a second".
    open_session(stake="0.05", name="The real one")
    with pytest.raises(ClubError, match="only an open evening"):
        cancel_session(session.pk)


def test_an_evening_with_play_is_closed_not_cancelled(
    session: ClubSession, evening: list[Member], client: Client, secretary: Member
) -> None:
    _played_table(session)
    client.force_login(secretary.user)
    assert "Cancel this evening" not in client.get(session.get_absolute_url()).content.decode()
    r = client.post(reverse("club:session_cancel", args=[session.pk]))
    assert r.status_code == 400 and "close and balance it instead" in r.content.decode()
    session.refresh_from_db()
    assert session.status == ClubSession.OPEN
