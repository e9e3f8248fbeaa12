"""L3-L6: forming tables, hourly redraw, rotation, substitutes; the games app's contract."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from club.models import Arrival, ClubSession, CutBatch, Member, RedrawDemand, Seat, Table
from club.services.base import ClubError, create_member
from club.services.practice import create_practice_table
from club.services.seating import table_seating
from club.services.seats import (
    consent_substitute,
    demand_redraw,
    open_due_redraw_windows,
    propose_substitute,
)
from club.services.sessions import check_in
from club.services.tables import (
    TableTurn,
    advance_after_deal,
    current_dealer,
    form_table,
    join_queue,
    table_queue,
)
from club.services.washbook import post_online_deal

pytestmark = pytest.mark.django_db


def seated(table: Table) -> list[int]:
    return list(
        Seat.objects.filter(table=table).order_by("position").values_list("member_id", flat=True)
    )


def play_deal(table: Table, n: int = 0) -> TableTurn:
    seats = table_seating(table.pk)
    post_online_deal(
        table.pk,
        deal_key=f"t{table.pk}-{table.deals_played}-{n}-{timezone.now().timestamp()}",
        points={seats[0].position: 10, seats[1].position: -10},
        detail={},
    )
    turn = advance_after_deal(table.pk)
    table.refresh_from_db()
    return turn


def test_it_forms_a_table_with_six_candidates_by_cutting(
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    script_cuts: Callable[[list[str]], None],
) -> None:
    ms = make_members(6)
    for m in ms:
        check_in(session, m)
    # Cut for places: m5 draws the joker and stays out; then cut for seats among five.
    script_cuts(["KS", "QS", "JS", "10S", "9S", "JK", "2H", "KH", "5D", "AC", "9C"])
    table = form_table(session, variant="foster", size=5)
    places = CutBatch.objects.get(table=table, purpose=CutBatch.PLACES)
    assert places.result == [m.pk for m in ms]
    assert places.draws.count() == 6
    # Seats: the highest (m1, KH) deals at position 0; the next (m4, 9C) on his left...
    assert seated(table) == [ms[1].pk, ms[4].pk, ms[2].pk, ms[0].pk, ms[3].pk]
    assert table.dealer_position == 0 and table.status == Table.PLAYING
    # The one who cut lowest waits for this table.
    assert [a.member for a in table_queue(table)] == [ms[5]]
    assert CutBatch.objects.get(table=table, purpose=CutBatch.SEATS).draws.count() == 5


def test_it_refuses_too_few_players(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    for m in make_members(3):
        check_in(session, m)
    with pytest.raises(ClubError):
        form_table(session, variant="foster")


def test_it_keeps_the_order_of_arrival(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ms = make_members(3)
    for m in reversed(ms):
        check_in(session, m)
    check_in(session, ms[2])  # twice: still one arrival
    assert list(Arrival.objects.filter(session=session).values_list("member", flat=True)) == [
        ms[2].pk,
        ms[1].pk,
        ms[0].pk,
    ]


def test_it_passes_the_deal_left_and_counts_games(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    for m in make_members(4):
        check_in(session, m)
    table = form_table(session, variant="foster", size=4)
    dealers = []
    for _ in range(4):
        turn = play_deal(table)
        dealers.append(turn.dealer_position)
    assert dealers == [1, 2, 3, 0]
    assert turn.game_number == 2 and turn.deal_in_game == 0
    assert set(Seat.objects.filter(table=table).values_list("consecutive_games", flat=True)) == {1}
    assert current_dealer(table.pk) == 0


def test_it_rotates_after_a_game_with_waiting_members(
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    script_cuts: Callable[[list[str]], None],
) -> None:
    ms = make_members(6)
    for m in ms[:4]:
        check_in(session, m)
    table = form_table(session, variant="foster", size=4)
    check_in(session, ms[4])
    join_queue(table, ms[4])
    first_four = seated(table)
    for _ in range(3):
        assert not play_deal(table).seating_changed
    # End of game 1: all four cut to go out (first game); the lowest (JK) retires.
    script_cuts(["KS", "QS", "JK", "5H"])
    turn = play_deal(table)
    assert turn.seating_changed and any("Rotation" in e for e in turn.events)
    out = first_four[2]
    assert ms[4].pk in seated(table) and out not in seated(table)
    assert [a.member_id for a in table_queue(table)] == [out]  # back of the queue
    cons = dict(Seat.objects.filter(table=table).values_list("member_id", "consecutive_games"))
    assert cons[ms[4].pk] == 0 and all(v == 1 for k, v in cons.items() if k != ms[4].pk)
    # Game 2: a new candidate arrives. Only those with the most consecutive games (the
    # three who played both games) cut to go out; the newcomer does not.
    check_in(session, ms[5])
    join_queue(table, ms[5])
    for _ in range(3):
        play_deal(table)
    script_cuts(["2C", "KD", "QD"])
    turn = play_deal(table)
    batch = CutBatch.objects.filter(table=table, purpose=CutBatch.ROTATION).last()
    assert batch is not None
    cutters = set(batch.draws.values_list("member_id", flat=True))
    assert ms[4].pk not in cutters and len(cutters) == 3
    assert ms[4].pk in seated(table)


def test_a_substitutes_appointment_lapses_at_the_end_of_the_game(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ms = make_members(6)
    for m in ms[:4]:
        check_in(session, m)
    table = form_table(session, variant="foster", size=4)
    check_in(session, ms[5])
    arrival_before = Arrival.objects.get(session=session, member=ms[5])
    leaver = Member.objects.get(pk=seated(table)[1])
    sub = propose_substitute(table, leaver, ms[5])
    assert sub.status == "proposed"
    others = [Member.objects.get(pk=p) for p in seated(table) if p != leaver.pk]
    with pytest.raises(ClubError):
        consent_substitute(sub, ms[5])  # the substitute does not consent
    for o in others:
        sub = consent_substitute(sub, o)
    assert sub.status == "active" and set(sub.consents.values_list("pk", flat=True)) == {
        o.pk for o in others
    }
    info = table_seating(table.pk)[1]
    assert info.member_id == ms[5].pk and info.playing_for_id == leaver.pk
    # The substitute plays on the leaver's account.
    line = post_online_deal(table.pk, deal_key="sub-1", points={1: 20, 0: -20}, detail={})
    assert dict(line.entries.values_list("member_id", "points"))[leaver.pk] == 20
    advance_after_deal(table.pk)
    for i in range(3):
        post_online_deal(table.pk, deal_key=f"sub-{i + 2}", points={0: 5, 2: -5}, detail={})
        turn = advance_after_deal(table.pk)
    sub.refresh_from_db()
    assert sub.status == "lapsed" and any("lapses" in e for e in turn.events)
    assert table_seating(table.pk)[1].member_id == leaver.pk
    after = Arrival.objects.get(session=session, member=ms[5])
    assert (after.order, after.queue_table_id, after.queue_seq) == (
        arrival_before.order,
        arrival_before.queue_table_id,
        arrival_before.queue_seq,
    )


def test_the_redraw_window_opens_at_the_end_of_the_hour(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ms = make_members(4)
    start = timezone.now().replace(microsecond=0)
    with time_machine.travel(start, tick=False) as clock:
        for m in ms:
            check_in(session, m)
        table = form_table(session, variant="foster", size=4)
        assert table.next_redraw_at == start + timedelta(hours=1)
        player = Member.objects.get(pk=seated(table)[0])
        with pytest.raises(ClubError):
            demand_redraw(table, player)  # not yet
        clock.shift(timedelta(minutes=59))
        assert open_due_redraw_windows() == []
        clock.shift(timedelta(minutes=1))
        assert open_due_redraw_windows() == [table.pk]
        assert open_due_redraw_windows() == []  # a repeated run claims nothing
        table.refresh_from_db()
        assert table.redraw_window_open
        assert table.next_redraw_at == start + timedelta(hours=2)
        outsider = make_members(1)[0]
        with pytest.raises(ClubError):
            demand_redraw(table, outsider)
        demand_redraw(table, player)
        before = CutBatch.objects.filter(table=table, purpose=CutBatch.REDRAW).count()
        assert before == 0  # not in the middle of a deal: only between deals
        turn = play_deal(table)
        assert turn.seating_changed and turn.dealer_position == 0
        assert CutBatch.objects.filter(table=table, purpose=CutBatch.REDRAW).count() == 1
        assert RedrawDemand.objects.get(table=table).applied_at is not None
        clock.shift(timedelta(minutes=11))
        table.refresh_from_db()
        assert not table.redraw_window_open
        with pytest.raises(ClubError):
            demand_redraw(table, player)


def test_it_redraws_every_hour_when_the_table_says_so(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for m in make_members(4):
            check_in(session, m)
        table = form_table(session, variant="foster", size=4, auto_redraw=True)
        clock.shift(timedelta(hours=3, minutes=5))  # beat was down: one window, not three
        assert open_due_redraw_windows() == [table.pk]
        table.refresh_from_db()
        assert table.next_redraw_at == start + timedelta(hours=4)
        assert RedrawDemand.objects.filter(table=table, member=None, applied_at=None).count() == 1
        assert play_deal(table).seating_changed


def test_it_creates_a_practice_table_with_bots(make_members: Callable[..., list[Member]]) -> None:
    me = make_members(1)[0]
    table = create_practice_table(me, "foster", 5, {"splash": 25})
    seats = table_seating(table.pk)
    assert [s.position for s in seats] == [0, 1, 2, 3, 4]
    assert seats[0].member_id == me.pk and all(s.is_bot for s in seats[1:])
    assert table.session is None and table.is_practice and table.options == {"splash": 25}
    again = create_practice_table(me, "conquian", 2, {"scoring": "pips"})
    assert table_seating(again.pk)[1].member_id == seats[1].member_id  # bots reused
    bot = Member.objects.get(pk=seats[1].member_id)
    assert not bot.user.has_usable_password()
    assert table.get_absolute_url()


def test_who_plays_is_listed_in_order_of_arrival(session: ClubSession) -> None:
    """The console's "Who plays" ticks the waiting members in the order they came (issue
    56): its hint says none ticked takes everyone waiting in order of arrival (L3), and
    the list was alphabetical."""
    from club.tables.forms import FormTableForm

    for name in ("Zed", "Amy", "Max"):
        check_in(session, create_member(name.lower(), name))
    players = FormTableForm(session=session).fields["players"]
    assert [m.display_name for m in players.queryset] == ["Zed", "Amy", "Max"]
