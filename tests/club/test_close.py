"""Close and balance through a confirmation page (issue 29, item 2): each table's totals,
the deals in progress and what becomes of them (wait for them, or end them now,
unscored, with a note). Once closed, a table refuses moves and its page says so."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.infra import redis as club_redis
from club.models import ClubSession, Member, Table
from club.services.base import ClubError
from club.services.sessions import (
    cancel_session,
    check_in,
    close_session,
    close_when_deals_end,
    finish_due_closes,
    open_session,
)
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result
from games.models import Deal
from games.play import reading
from games.play import services as games
from games.play.moves import Rejection
from tests.games.helpers import move_for_mover

from .conftest import field_error

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def evening(session: ClubSession, make_members: Callable[..., list[Member]]) -> dict[str, Table]:
    members = make_members(6)
    for m in members:
        check_in(session, m)
    physical = form_table(
        session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=members[:4]
    )
    seated = [s.member for s in physical.seats.all()]
    enter_physical_result(
        physical.pk,
        PhysicalResult(
            winner_id=seated[0].pk, losses={seated[1].pk: 9, **{m.pk: 0 for m in seated[2:]}}
        ),
    )
    online = form_table(session, variant="conquian", candidates=members[4:])
    deal = games.ensure_deal(online.pk)
    assert deal is not None
    move_for_mover(online.pk, deal)
    return {"physical": physical, "online": online}


def test_the_confirmation_page_shows_totals_and_the_deals_in_progress(
    staff: Client, session: ClubSession, evening: dict[str, Table]
) -> None:
    page = staff.get(reverse("club:session_close_confirm", args=[session.pk]))
    assert page.status_code == 200
    text = _text(page.content.decode())
    seated = [s.member for s in evening["physical"].seats.all()]
    assert f"{seated[0].display_name} 9" in text and f"{seated[1].display_name} -9" in text
    assert "A deal is in progress (game 1, deal 1, 1 move)" in text
    assert "End them now, unscored" in text and "Wait for them" in text


def test_closing_with_a_deal_in_progress_asks_first_and_changes_nothing(
    staff: Client, session: ClubSession, evening: dict[str, Table], no_queue: list[int]
) -> None:
    r = staff.post(reverse("club:session_close", args=[session.pk]), {"note": ""})
    assert r.status_code == 400
    message = field_error(r.content.decode(), "deals")
    assert f"1 deal is in progress (table {evening['online'].number})" in message
    session.refresh_from_db()
    assert session.is_open and not no_queue
    assert not Deal.objects.get(table=evening["online"]).finished


def test_closing_ends_the_deal_in_progress_with_the_note_and_the_table_refuses_moves(
    staff: Client,
    session: ClubSession,
    evening: dict[str, Table],
    no_queue: list[int],
) -> None:
    online = evening["online"]
    r = staff.post(
        reverse("club:session_close", args=[session.pk]),
        {"deals": "end", "note": "the room closes at eleven"},
    )
    assert r.status_code == 302
    session.refresh_from_db()
    assert session.status == ClubSession.CLOSING
    deal = Deal.objects.get(table=online)
    assert deal.finished and deal.washbook_line_id is None
    assert reading.stopped_reason(deal) == "The evening was closed: the room closes at eleven."
    with pytest.raises(Rejection, match="the room closes at eleven"):
        move_for_mover(online.pk, deal)
    player = Client()
    player.force_login(online.seats.first().member.user)  # type: ignore[union-attr]
    page = _text(player.get(f"/tables/{online.pk}/").content.decode())
    assert "This table is closed" in page
    assert "The evening was closed: the room closes at eleven." in page
    assert "Your turn" not in page or "Play has stopped" in page
    # Nobody is to play at a closed table (issue 56: its page still named the player to
    # move, with a "to play" tag): for a player and for a spectator.
    for who in (player, staff):
        page = _text(who.get(f"/tables/{online.pk}/").content.decode())
        assert "Play has stopped at this table." in page
        assert "to play" not in page and " to draw" not in page and "Your turn" not in page


def test_an_evening_with_nothing_in_progress_closes_at_once(
    staff: Client,
    session: ClubSession,
    no_queue: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        r = staff.post(reverse("club:session_close", args=[session.pk]), {})
    assert r.status_code == 302
    session.refresh_from_db()
    assert session.status == ClubSession.CLOSING and no_queue == [session.pk]


def _play_to_the_end(table: Table, seed: int = 29) -> Deal:
    """Random legal moves through `act` until the deal ends (out, or a tableau)."""
    import random

    rng = random.Random(seed)
    deal = Deal.objects.filter(table=table).order_by("number").last()
    assert deal is not None
    for _ in range(600):
        deal.refresh_from_db()
        if deal.finished:
            return deal
        move_for_mover(table.pk, deal, rng)
    raise AssertionError("the deal did not end in 600 moves")


def test_waiting_deals_no_more_and_closes_the_evening_when_the_last_deal_ends(
    staff: Client,
    session: ClubSession,
    evening: dict[str, Table],
    no_queue: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    online = evening["online"]
    player = Client()
    player.force_login(online.seats.first().member.user)  # type: ignore[union-attr]
    panel = f"/tables/{online.pk}/club/"
    assert "The evening is closing" not in _text(player.get(panel).content.decode())
    told_before = club_redis.client().get(club_redis.key("table", online.pk, "last"))
    with django_capture_on_commit_callbacks(execute=True):
        r = staff.post(
            reverse("club:session_close", args=[session.pk]),
            {"deals": "wait", "note": "last deal, please"},
        )
    assert r.status_code == 302
    session.refresh_from_db()
    assert session.is_open and session.is_closing_after_deals and not no_queue
    # The players at the table are told at once (issue 38): their screens are refreshed
    # (the table's stamp is published again) and the club panel says the evening closes.
    told = club_redis.client().get(club_redis.key("table", online.pk, "last"))
    assert told is not None and told != told_before
    assert "The evening is closing" in _text(player.get(panel).content.decode())
    console = _text(staff.get(reverse("club:console", args=[session.pk])).content.decode())
    assert "Closing when the deals in progress end" in console
    # No new table while it waits; asking to wait twice is refused in place.
    with pytest.raises(ClubError, match="closes when its deals"):
        form_table(session, variant="foster", size=2, mode=Table.PHYSICAL)
    again = staff.post(reverse("club:session_close", args=[session.pk]), {"deals": "wait"})
    assert again.status_code == 400
    assert "already closes when its deals end" in field_error(again.content.decode(), "deals")
    # The deal in progress is played to its end and booked: the evening closes by itself.
    with django_capture_on_commit_callbacks(execute=True):
        last = _play_to_the_end(online)
    assert last.washbook_line_id is not None and not reading.stopped_reason(last)
    assert Deal.objects.filter(table=online).count() == 1  # nothing more was dealt
    # The last deal's end is told in full, with every hand and the points, not only
    # "the deal is over".
    state = _text(player.get(f"/tables/{online.pk}/state/").content.decode())
    assert "The deal is over:" in state and "Hand shown (L23)" in state
    assert games.ensure_deal(online.pk) == last
    session.refresh_from_db()
    assert session.status == ClubSession.CLOSING and no_queue == [session.pk]
    online.refresh_from_db()
    assert online.status == Table.CLOSED
    player = Client()
    player.force_login(online.seats.first().member.user)  # type: ignore[union-attr]
    page = _text(player.get(f"/tables/{online.pk}/").content.decode())
    assert "This table is closed" in page and "last deal, please" in page
    assert not finish_due_closes()  # the sweep finds nothing more to do


def test_the_sweep_closes_an_evening_whose_deals_ended_unseen(
    session: ClubSession, evening: dict[str, Table], no_queue: list[int]
) -> None:
    """The deal's end closes the evening after commit; had the process died just then,
    the minute sweep closes it."""
    assert close_when_deals_end(session.pk, note="late")  # callbacks not run here
    assert finish_due_closes() == []  # a deal is still in progress
    _play_to_the_end(evening["online"])  # its end's callback is not run either
    session.refresh_from_db()
    assert session.is_open
    assert finish_due_closes() == [session.pk]
    session.refresh_from_db()
    assert session.status == ClubSession.CLOSING


def test_a_failure_to_close_after_the_last_deal_never_fails_the_winning_move(
    session: ClubSession,
    evening: dict[str, Table],
    no_queue: list[int],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deal's end closes a waiting evening after commit. Should that fail (the
    database gone for a moment), the move that ended the deal is still answered and
    booked, and the minute sweep closes the evening."""
    from club.services import sessions

    with django_capture_on_commit_callbacks(execute=True):
        assert close_when_deals_end(session.pk, note="late")
    real = sessions.finish_close_if_due

    def broken(session_id: int) -> bool:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(sessions, "finish_close_if_due", broken)
    with django_capture_on_commit_callbacks(execute=True):
        last = _play_to_the_end(evening["online"])
    assert last.washbook_line_id is not None
    session.refresh_from_db()
    assert session.is_open and session.is_closing_after_deals
    monkeypatch.setattr(sessions, "finish_close_if_due", real)
    assert finish_due_closes() == [session.pk]
    session.refresh_from_db()
    assert session.status == ClubSession.CLOSING


def test_a_tunk_deal_in_progress_is_counted_as_tunk_counts_its_game(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 56: a game of many deals numbered as that game counts, here too."""
    members = make_members(3)
    for m in members:
        check_in(session, m)
    tunk = form_table(session, variant="tunk", size=3)
    deal = games.ensure_deal(tunk.pk)
    assert deal is not None
    move_for_mover(tunk.pk, deal)
    page = staff.get(reverse("club:session_close_confirm", args=[session.pk]))
    assert "A deal is in progress (game 1 to 100, deal 1, 1 move)" in _text(page.content.decode())


@pytest.mark.django_db
def test_the_evenings_services_write_their_audit_entries(secretary: Any) -> None:
    """Issue 80, item 3: opening (with its fees), closing and cancelling an evening are
    audited by the services, in their own transactions, whoever calls them."""
    from decimal import Decimal

    from club.models import AuditEntry

    by = secretary.user
    monday = open_session(stake=Decimal("0.05"), by=by, name="Monday", fee_member=Decimal("1.00"))
    assert close_session(monday.pk, by=by, queue=False, note="early night")
    tuesday = open_session(stake=Decimal("0.10"), by=by, name="Tuesday")
    cancel_session(tuesday.pk, by=by)
    said = list(AuditEntry.objects.order_by("pk").values_list("action", "what", "why"))
    assert said == [
        (AuditEntry.OPEN, "Opened Monday: £0.05 a point, Cooncan", ""),
        (AuditEntry.FEE, "Table fees for Monday: £1.00 a member, £0.00 a guest", ""),
        (AuditEntry.CLOSE, "Closed Monday and queued its balancing", "early night"),
        (AuditEntry.OPEN, "Opened Tuesday: £0.10 a point, Cooncan", ""),
        (AuditEntry.CANCEL, "Cancelled Tuesday.", ""),
    ]


@pytest.mark.django_db
def test_the_consoles_services_write_their_audit_entries(secretary: Any, make_members: Any) -> None:
    """Issue 80, item 3: the door's check-in (the ticked members and a newcomer, both or
    neither), forming a table and voiding it are audited by their services."""
    from decimal import Decimal

    from club.models import AuditEntry, Member, Table
    from club.services.base import ClubError
    from club.services.sessions import check_in_at_door

    by = secretary.user
    session = open_session(stake=Decimal("0.05"), by=by, name="Friday")
    a, b = make_members(2)
    taken = make_members(1)[0]
    with pytest.raises(ClubError):  # the newcomer's name is taken: nobody is checked in
        check_in_at_door(session, [a, b], new_name=taken.display_name, by=by)
    assert not session.arrivals.exists()
    said = check_in_at_door(session, [a, b], new_name="Mary Newcomer", guest=True, by=by)
    assert said == f"Checked in: {a}, {b} and Mary Newcomer (new, a guest)."
    mary = Member.objects.get(display_name="Mary Newcomer")
    table = form_table(
        session, variant="tonk", size=3, mode=Table.PHYSICAL, candidates=[a, b, mary], by=by
    )
    entries = AuditEntry.objects.filter(session=session).order_by("pk")
    assert list(entries.values_list("action", flat=True)) == [
        AuditEntry.OPEN, AuditEntry.CHECK_IN, AuditEntry.TABLE,
    ]  # fmt: skip
    assert entries.last().what.endswith("(Tonk, real cards).")  # type: ignore[union-attr]
    assert all(e.actor == by for e in entries)
    assert table.session == session
