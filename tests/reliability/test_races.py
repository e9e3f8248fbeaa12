"""The evening under concurrency (issue 36): pairs of requests a busy night sends at the
same instant, each raced at a barrier for ``RACE_ROUNDS`` rounds (20 by default) on the
real PostgreSQL, each request in its own thread and connection, through the views.

Never a 500, a deadlock or any other exception: exactly one side wins, or both succeed in
an order that keeps the evening's rules. After every round the invariants hold: lines and
postings sum to zero, a cancelled evening holds no line, a voided table posts no money
(the balancing, run the moment the close commits as a quick worker would, is that of the
tables left unvoided), and no checked-out member is seated at a table in play.

One lock order for the whole app (club/services/base.py): the evening, then its tables by
id, then each table's deal.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import Any

import pytest
from django.urls import reverse

from club.models import Arrival, ClubSession, Member, Posting, Seat, Table, WashbookLine
from club.services import ledger
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result
from games.models import Deal
from tests.positions import deal_at

from .conftest import books_consistent
from .test_concurrency import _client, _near_end, _online_table, _post_action, race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROUNDS = int(os.environ.get("RACE_ROUNDS", "20"))
Make = Callable[..., list[Any]]


@pytest.fixture
def quiet_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: None)


@pytest.fixture(autouse=True)
def quick_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The balancing runs the moment the close commits, as a worker with nothing else to
    do would: a void that commits after it is then caught by the money invariant."""
    monkeypatch.setattr("club.dispatch.queue_balance", ledger.balance_session)


def statuses(results: list[Any]) -> list[int]:
    """Each answer's status; an exception or a 500 fails the round at once."""
    for r in results:
        assert not isinstance(r, Exception), repr(r)
        assert r.status_code < 500, r.content[:2000]
    return [r.status_code for r in results]


def invariants() -> None:
    books_consistent(cached=False)
    cancelled = ClubSession.objects.filter(status=ClubSession.CANCELLED)
    assert not WashbookLine.objects.filter(table__session__in=cancelled).exists()
    for session in ClubSession.objects.filter(status=ClubSession.BALANCED):
        posting = Posting.objects.get(session=session, kind=Posting.SESSION_BALANCE)
        legs = {leg.account.member_id: leg.amount for leg in posting.legs.select_related("account")}
        expected = ledger.money_from_points(ledger.session_points(session.pk), session.stake)
        assert legs == {m: a for m, a in expected.items() if a}, "money of a voided table"
    playing = Seat.objects.filter(
        table__status=Table.PLAYING, table__session__status=ClubSession.OPEN, member__is_bot=False
    )
    for seat in playing.select_related("table"):
        assert Arrival.objects.filter(
            session_id=seat.table.session_id, member_id=seat.member_id, left_at=None
        ).exists(), f"member {seat.member_id} checked out, seated at table {seat.table_id}"


def evening(make_members: Make, tag: str) -> tuple[ClubSession, Any]:
    (secretary,) = make_members(1, f"{tag}s", staff=True)
    session = open_session(stake=Decimal("0.10"), by=secretary.user, second=True)
    return session, secretary


def checked_in(make_members: Make, session: ClubSession, tag: str) -> list[Any]:
    """Two members checked in at the evening, waiting to play."""
    players = make_members(2, tag)
    for m in players:
        check_in(session, m)
    return players


def every_round_told(seen: Counter[str]) -> None:
    """Each round ended one way or the other; which side won how often (pytest -s)."""
    print(dict(seen))
    assert sum(seen.values()) == ROUNDS, seen


def deal_near_its_end(
    make_members: Make, session: ClubSession, tag: str, n: int
) -> tuple[Table, Deal, Any, dict[str, Any]]:
    """An online table of the evening with a deal one move from its end: the table, the
    deal, the client of the player who makes that move, and the move."""
    members = checked_in(make_members, session, tag)
    table = _online_table(members, session=session)
    seed, script, final = _near_end("conquian", 2, 37 * n)
    deal = deal_at(table, seed, script, members)
    finisher = Seat.objects.get(table=table, position=final["seat"]).member
    return table, deal, _client(finisher), final


def settle(session: ClubSession) -> None:
    """Balance the evening if the race closed it (as the worker would)."""
    session.refresh_from_db()
    if session.status == ClubSession.CLOSING:
        assert ledger.balance_session(session.pk).posted


def test_a_winning_move_racing_close_and_end_them_now(make_members: Make, quiet_bots: None) -> None:
    seen = Counter[str]()
    for n in range(ROUNDS):
        session, secretary = evening(make_members, f"cl{n}")
        table, deal, player, final = deal_near_its_end(make_members, session, f"clp{n}", n)
        desk = _client(secretary)
        close = reverse("club:session_close", args=[session.pk])
        move, closed = statuses(race([
            partial(_post_action, player, table, deal, final, "win"),
            partial(desk.post, close, {"deals": "end", "note": "closing time"}),
        ]))  # fmt: skip
        assert closed == 302
        deal.refresh_from_db()
        assert deal.finished
        if move == 200:  # the move first: booked, then the close
            assert deal.washbook_line_id is not None
            seen["move, then close"] += 1
        else:  # the close first: the deal ended unscored, the move refused
            assert move == 409 and deal.washbook_line_id is None
            assert "closing time" in deal.outcome["stopped"]
            seen["close, then move refused"] += 1
        settle(session)
        invariants()
    every_round_told(seen)


@pytest.mark.parametrize("what", ["table", "evening"])
def test_a_winning_move_racing_a_void(make_members: Make, quiet_bots: None, what: str) -> None:
    """The move that ends a deal, and the secretary voiding its table, or its evening."""
    seen = Counter[str]()
    for n in range(ROUNDS):
        session, secretary = evening(make_members, f"v{what[0]}{n}")
        table, deal, player, final = deal_near_its_end(make_members, session, f"vp{n}", n)
        desk = _client(secretary)  # something was played, so it may be voided
        if what == "table":
            void, form = reverse("club:table_void", args=[table.pk]), f"void-{table.pk}"
        else:
            void, form = reverse("club:session_void", args=[session.pk]), "void-session"
        move, voided = statuses(race([
            partial(_post_action, player, table, deal, final, "win"),
            partial(desk.post, void, {f"{form}-reason": "played in error"}),
        ]))  # fmt: skip
        assert voided == 302 and move in (200, 409)
        deal.refresh_from_db()
        table.refresh_from_db()
        session.refresh_from_db()
        assert deal.finished
        assert table.voided_at is not None or session.status == ClubSession.VOIDED
        seen["move first" if move == 200 else "void first"] += 1
        if what == "table":
            assert close_session(session.pk, queue=False)
            settle(session)
        invariants()
    every_round_told(seen)


def test_cancelling_the_evening_racing_a_physical_result(make_members: Make) -> None:
    seen = Counter[str]()
    for n in range(ROUNDS):
        session, secretary = evening(make_members, f"ca{n}")
        players = checked_in(make_members, session, f"cap{n}")
        table = form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL)
        a, b = players
        desk, other = _client(secretary), _client(secretary)
        result = reverse("club:table_result", args=[table.pk])
        cancel = reverse("club:session_cancel", args=[session.pk])
        booked, cancelled = statuses(race([
            partial(desk.post, result, {"winner": a.pk, f"pips_{b.pk}": "7"}),
            partial(other.post, cancel),
        ]))  # fmt: skip
        session.refresh_from_db()
        lines = WashbookLine.objects.filter(table=table).count()
        if session.status == ClubSession.CANCELLED:  # the cancel first: the result refused
            assert lines == 0 and booked != 302
            seen["cancelled"] += 1
        else:  # the result first: the cancel refused, the evening goes on
            assert session.status == ClubSession.OPEN and lines == 1 and booked == 302
            seen["booked"] += 1
        invariants()
    every_round_told(seen)


def test_forming_a_table_racing_a_check_out(make_members: Make) -> None:
    seen = Counter[str]()
    for n in range(ROUNDS):
        session, secretary = evening(make_members, f"fo{n}")
        players = checked_in(make_members, session, f"fop{n}")
        leaving = players[n % 2]
        desk, other = _client(secretary), _client(secretary)
        form = reverse("club:table_create", args=[session.pk])
        leave = reverse("club:arrival_leave", args=[session.pk, leaving.pk])
        statuses(race([
            partial(desk.post, form, {"variant": "conquian", "size": "2", "mode": "physical"}),
            partial(other.post, leave),
        ]))  # fmt: skip
        gone = Arrival.objects.filter(session=session, member=leaving, left_at__isnull=False)
        seated = Seat.objects.filter(member=leaving, table__status=Table.PLAYING).exists()
        assert gone.exists() != seated, "exactly one: checked out, or seated"
        seen["checked out" if gone.exists() else "seated"] += 1
        invariants()
    every_round_told(seen)


def test_voiding_a_table_racing_the_close(make_members: Make) -> None:
    seen = Counter[str]()
    for n in range(ROUNDS):
        session, secretary = evening(make_members, f"vc{n}")
        players = checked_in(make_members, session, f"vcp{n}")
        table = form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL)
        a, b = players
        enter_physical_result(table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 9}))
        desk, other = _client(secretary), _client(secretary)
        void = reverse("club:table_void", args=[table.pk])
        close = reverse("club:session_close", args=[session.pk])
        voided, closed = statuses(race([
            partial(desk.post, void, {f"void-{table.pk}-reason": "wrong players"}),
            partial(other.post, close, {"deals": "end"}),
        ]))  # fmt: skip
        assert closed == 302
        table.refresh_from_db()
        if voided == 302:
            assert table.voided_at is not None
            seen["voided, then closed"] += 1
        else:
            assert table.voided_at is None
            seen["closed, void refused"] += 1
        settle(session)
        invariants()
    every_round_told(seen)


def test_a_newcomer_added_twice_at_once_is_one_member(make_members: Make) -> None:
    """A double tap on "Check in" with a new member's name: one member, checked in once."""
    for n in range(ROUNDS):
        session, secretary = evening(make_members, f"nc{n}")
        desk, again = _client(secretary), _client(secretary)
        add = reverse("club:arrival_add", args=[session.pk])
        name = f"Nell Ray {n}"
        assert statuses(race([
            partial(desk.post, add, {"new_name": name}),
            partial(again.post, add, {"new_name": name}),
        ])) == [302, 302]  # fmt: skip
        assert Member.objects.filter(display_name=name).count() == 1
        assert Arrival.objects.filter(session=session).count() == 1
        invariants()


def test_two_sets_saved_as_the_games_default_at_once_both_save_and_one_is_the_default(
    make_members: Make,
) -> None:
    """Issue 53, item 7: two house-rule sets saved as the game's default at once: the
    second broke the one-default rule and was refused as "already have a set called …",
    which it had not. Now the later waits for the earlier and takes the default."""
    from club.models import HouseRules

    for n in range(ROUNDS):
        (secretary,) = make_members(1, f"hr{n}", staff=True)
        url = reverse("club:house_rules")
        data = {"variant": "tonk", "is_default": "on"}
        results = race([
            partial(_client(secretary).post, url, data | {"name": f"Early {n}"}),
            partial(_client(secretary).post, url, data | {"name": f"Late {n}"}),
        ])  # fmt: skip
        assert statuses(results) == [302, 302], [r.content[-3000:] for r in results]
        saved = HouseRules.objects.filter(name__in=[f"Early {n}", f"Late {n}"])
        assert saved.count() == 2
        assert HouseRules.objects.filter(variant="tonk", is_default=True).count() == 1
        assert saved.filter(is_default=True).exists()
        HouseRules.objects.filter(variant="tonk").delete()


def test_a_tonk_call_racing_the_close_of_the_call_round(
    make_members: Make, quiet_bots: None
) -> None:
    """Issue 58 (TO5): the call of a hand of courts and the clock closing the call round
    at the same instant. Either the call is kept first and the close applies it (the deal
    won by the Tonk on the deal), or the close goes first, play begins and the call is
    refused: never a call answered 200 and lost."""
    from games.play import call_round, reading, timers
    from tests.games.club_deals import first_deal
    from tests.games.test_tonk_call_round import COURTS, OTHER, _pack

    seen = Counter[str]()
    for n in range(ROUNDS):
        session, _ = evening(make_members, f"tc{n}")
        members = checked_in(make_members, session, f"tcp{n}")
        table = _online_table(members, "tonk", session=session)
        deal = first_deal(table, "tonk", {}, pack=_pack([COURTS, OTHER]), dealer=1)
        assert call_round.is_open(deal)
        call, closed = race([
            partial(_post_action, _client(members[0]), table, deal, {"type": "call", "seat": 0},
                    f"call{n}"),
            partial(timers.close_round, deal.pk, early=True),
        ])  # fmt: skip
        assert not isinstance(call, Exception) and not isinstance(closed, Exception), (call, closed)
        assert closed is True and call.status_code < 500, call.content[:2000]
        deal.refresh_from_db()
        out = reading.load_state(deal).outcome()
        if call.status_code == 200:  # kept first: the close applied it
            assert deal.finished and out is not None and out.kind == "tonk" and out.winner == 0
            seen["call, then close"] += 1
        else:  # the close first: play began, the call refused
            assert call.status_code in (409, 422) and not deal.finished, call.content[:500]
            assert deal.version == 2 and deal.called == []
            seen["close, then call refused"] += 1
        invariants()
    every_round_told(seen)
