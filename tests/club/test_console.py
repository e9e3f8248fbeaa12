"""The secretary's console (issue 27, item 1): the whole evening on one page, live over
the evening's event stream: arrivals and who is waiting, tables and their seats, deals
in progress, redraw demands and substitutes; and the secretary's forms."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.live.streams import SESSION_SALT, check_token
from club.models import ClubSession, Member, Table
from club.services.seating import table_seating
from club.services.seats import consent_substitute, demand_redraw, propose_substitute
from club.services.sessions import check_in, open_session
from club.services.tables import form_table, join_queue, waiting_members
from club.services.washbook import enter_physical_result
from games.models import Deal
from games.play import club_api as games_club_api
from games.play import reading
from games.play import services as games
from games.play.moves import Move

from .conftest import field_error

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _console(staff: Client, session: ClubSession, **headers: str) -> str:
    r = staff.get(reverse("club:console", args=[session.pk]), **headers)
    assert r.status_code == 200
    return r.content.decode()


def test_the_console_shows_the_evening(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    members = make_members(9)
    for m in members:
        check_in(session, m)
    foster = form_table(session, variant="foster", size=5, mode=Table.PHYSICAL)
    conquian = form_table(session, variant="conquian", computer_players=1)
    page = _console(staff, session)
    text = _text(page)
    # Counts and who waits: nine here, six seated (the computer player is not counted).
    assert "9 here · 6 seated · 3 waiting · 2 tables playing" in text
    waiting = [a.member for a in waiting_members(session)]
    assert len(waiting) == 3
    for m in waiting:
        assert m.display_name in text
    # Each table with its seats, its dealer and what is being played.
    for seat in foster.seats.select_related("member"):
        assert seat.member.display_name in text
    assert f"Table {foster.number} {foster.game_name} real cards" in text
    assert f"Table {conquian.number} {conquian.game_name} in the browser" in text
    assert "Game 1, deal 1 of 5, played with real cards" in text  # L5: a round of five
    bot = conquian.seats.get(member__is_bot=True).member
    assert f"{bot.display_name} computer" in text
    assert "Game 1, deal 1: not dealt yet" in text
    # The live part streams from the evening's channel with a console token.
    found = re.search(r'sse-connect="[^"]*/events/sessions/(\d+)/\?t=([^"]+)"', page)
    assert found and int(found.group(1)) == session.pk
    assert check_token(found.group(2), session.pk, key="s", salt=SESSION_SALT)


def _online_conquian(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> tuple[Table, Deal]:
    """Two members checked in, a Conquián table in the browser formed of them, dealt."""
    for m in make_members(2):
        check_in(session, m)
    table = form_table(session, variant="conquian")
    deal = games.ensure_deal(table.pk)
    assert deal is not None
    return table, deal


def test_the_console_follows_an_online_deal_without_showing_a_card(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    table, deal = _online_conquian(session, make_members)
    seating = table_seating(table.pk)
    to_move = seating[deal.to_move].display_name
    fragment = _console(staff, session, HTTP_HX_REQUEST="true")
    text = _text(fragment)
    assert f"Game 1, deal 1: {to_move} to play (0 moves)" in text
    # The fragment: the live part only (no page, no forms to clobber), and no card.
    assert fragment.lstrip().startswith('<div id="live">')
    assert "Form a table" not in text and "<html" not in fragment
    state = reading.load_state(deal)
    for card in state.player_view(0)["hand"]:
        assert f">{card}<" not in text and f" {card} " not in f" {text} "


def test_a_tables_progress_line_is_fetched_alone_after_a_move(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """The console's line for one table, what a move changes (issue 59): the line the
    whole console shows, fetched on the table's own notice; no card; a table of another
    evening is not found through this one."""
    table, deal = _online_conquian(session, make_members)
    url = reverse("club:table_progress", args=[session.pk, table.pk])
    page = _console(staff, session)
    line = re.search(rf'<p class="progress" id="progress-{table.pk}"([^>]*)>([^<]*)</p>', page)
    assert line is not None
    assert f'hx-get="{url}"' in line.group(1) and f"sse:move-{table.pk}" in line.group(1)
    assert staff.get(url).content.decode() == line.group(2)
    state = reading.load_state(deal)
    mover = table_seating(table.pk)[deal.to_move]
    action = state.legal_actions(deal.to_move)[0]
    games.act(
        Move(table.pk, member_id=mover.member_id, version=deal.version, action=action.to_json())
    )
    with CaptureQueriesContext(connection) as q:
        after = staff.get(url).content.decode()
    assert after != line.group(2) and "(1 move)" in after
    # the user; the table with its seats' names; the deal (issue 59: one a move of every
    # table of the evening, four queries before)
    assert len(q.captured_queries) == 3, [x["sql"] for x in q.captured_queries]
    for card in state.player_view(0)["hand"]:
        assert card not in after.split()
    other = open_session(stake="0.01", by=staff_user(staff), name="Other", second=True)
    assert staff.get(reverse("club:table_progress", args=[other.pk, table.pk])).status_code == 404


def staff_user(c: Client) -> object:
    from django.contrib.auth.models import User

    return User.objects.get(pk=c.session["_auth_user_id"])


def test_the_console_shows_redraw_demands_substitutes_and_queues(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    members = make_members(6)
    for m in members:
        check_in(session, m)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    seated = [s.member for s in table.seats.select_related("member")]
    waiting = [a.member for a in waiting_members(session)]
    join_queue(table, waiting[0])
    Table.objects.filter(pk=table.pk).update(
        redraw_window_until=table.next_redraw_at  # an open window (an hour from now)
    )
    table.refresh_from_db()
    demand_redraw(table, seated[1])
    propose_substitute(table, seated[2], waiting[1])
    text = _text(_console(staff, session))
    assert f"Redraw for seats demanded by {seated[1].display_name}" in text
    assert (
        f"Substitute: {waiting[1].display_name} for {seated[2].display_name} awaiting consent"
        in text
    )
    assert f"Waiting to cut in: {waiting[0].display_name}" in text
    assert f"queued for table {table.number}" in text


def test_the_secretary_works_from_the_console_and_stays_on_it(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    (ann,) = make_members(1)
    console = reverse("club:console", args=[session.pk])
    r = staff.post(reverse("club:arrival_add", args=[session.pk]), {"member": ann.pk})
    assert r.status_code == 302 and r["Location"] == console
    r = staff.post(
        reverse("club:arrival_add", args=[session.pk]), {"new_name": "Gus", "guest": "on"}
    )
    assert r.status_code == 302 and r["Location"] == console
    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "foster", "mode": Table.PHYSICAL, "size": "4"},
    )
    # Two waiting, Foster needs four: told beside the field, on the console, nothing made.
    assert r.status_code == 400
    assert "needs at least 4 players" in field_error(r.content.decode(), "size")
    assert "Waiting to play" in r.content.decode()
    assert not Table.objects.filter(session=session).exists()
    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "conquian", "mode": Table.ONLINE},
    )
    assert r.status_code == 302 and r["Location"] == console
    assert "Gus guest" in _text(_console(staff, session))


def test_the_session_page_sends_the_secretary_to_the_console(
    staff: Client, session: ClubSession, client: Client
) -> None:
    page = staff.get(session.get_absolute_url()).content.decode()
    assert reverse("club:console", args=[session.pk]) in page
    assert reverse("club:console", args=[session.pk]) in staff.get("/").content.decode()


def test_the_hourly_redraw_is_told_as_asked_for_at_each_table(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 38: a table where the hourly redraw was not asked for is not told 'Next
    redraw window': its players may demand one from the hour (L4); a table that asked for
    it is told when its seats are drawn again."""
    members = make_members(8)
    for m in members:
        check_in(session, m)
    form_table(session, variant="foster", size=4, mode=Table.PHYSICAL,
                        candidates=members[:4])  # fmt: skip
    form_table(session, variant="foster", size=4, mode=Table.PHYSICAL,
                        candidates=members[4:], auto_redraw=True)  # fmt: skip
    text = _text(_console(staff, session))
    assert "Next redraw window" not in text
    assert text.count("a player may demand a redraw for seats (L4)") == 1
    assert text.count("(hourly redraw, asked for at this table)") == 1


def test_the_evening_washbook_numbers_its_lines_once_in_order(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 38: the evening's washbook numbered its lines per table, interleaved (1, 1,
    2, 2, …); now its first column runs 1, 2, 3, … in posting order, and each line says
    its table and its number there."""
    from club.services.washbook import PhysicalResult

    members = make_members(8)
    for m in members:
        check_in(session, m)
    tables = [
        form_table(
            session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=members[i : i + 4]
        )  # fmt: skip
        for i in (0, 4)
    ]
    for _ in range(2):
        for t in tables:
            seated = [s.member for s in t.seats.order_by("position")]
            enter_physical_result(
                t.pk,
                PhysicalResult(winner_id=seated[0].pk,
                               losses={seated[1].pk: 9, **{m.pk: 0 for m in seated[2:]}}),
            )  # fmt: skip
    page = staff.get(reverse("club:session_washbook", args=[session.pk])).content.decode()
    firsts = re.findall(r'<tr id="line-\d+-\d+"[^>]*>\s*<td class="num">(\d+)</td>', page)
    assert firsts == ["1", "2", "3", "4"]
    assert "Table · its line" in page


def test_the_consoles_sections_fold(staff: Client, session: ClubSession) -> None:
    """Issue 38: on a phone the console was about 3,000 px long; its sections fold
    (open at first), each under its own heading."""
    page = _console(staff, session)
    for h in ("waiting", "checkin", "form", "close"):
        assert f'<details class="fold" id="fold-{h}" open><summary><h2 id="{h}-h">' in page, h


HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "console-body"}


def _section(html: str, heading_id: str) -> str:
    """The section under a heading, up to the next section."""
    return html.split(f'id="{heading_id}"', 1)[1].split("</section>", 1)[0]


def test_the_consoles_forms_answer_in_place_and_tell_what_was_done(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 38, item 5: a form sent by htmx gets the console back (no redirect, no
    reload), what was done told beside the form that did it; a plain post is redirected
    and told there too."""
    ann, bob, cat = make_members(3)
    r = staff.post(
        reverse("club:arrival_add", args=[session.pk]), {"member": [ann.pk, bob.pk]}, **HX
    )
    assert r.status_code == 200
    page = r.content.decode()
    assert 'id="console-body"' in page
    said = _text(_section(page, "checkin-h"))
    assert f"Checked in: {ann} and {bob}." in said
    assert "2 here · 0 seated · 2 waiting" in _text(page)
    # Told once: the next look at the console no longer says it.
    assert "Checked in:" not in _console(staff, session)

    # A refusal comes back in place, with status 400 and every message beside its field.
    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "foster", "mode": Table.PHYSICAL, "size": "4"},
        **HX,
    )
    assert r.status_code == 400 and 'id="console-body"' in r.content.decode()
    assert "needs at least 4 players" in field_error(r.content.decode(), "size")

    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "conquian", "mode": Table.PHYSICAL},
        **HX,
    )
    assert r.status_code == 200
    table = Table.objects.get(session=session)
    players = " and ".join(
        str(s.member) for s in table.seats.select_related("member").order_by("position")
    )
    assert f"Table {table.number} formed: {players}." in _text(
        _section(r.content.decode(), "form-h")
    )

    # Checking out a seated member is refused in place, the reason at the console's top.
    seated = table.seats.first().member  # type: ignore[union-attr]
    r = staff.post(reverse("club:arrival_leave", args=[session.pk, seated.pk]), **HX)
    assert r.status_code == 400
    page = r.content.decode()
    assert 'id="console-body"' in page and 'role="alert">Not done:' in page

    # The plain post (no script): redirected, and told on the console it lands on.
    staff.post(reverse("club:arrival_add", args=[session.pk]), {"member": [cat.pk]})
    r = staff.post(reverse("club:arrival_leave", args=[session.pk, cat.pk]))
    assert r.status_code == 302
    assert f"{cat} checked out." in _text(_section(_console(staff, session), "waiting-h"))


def test_a_move_tells_the_console_its_tables_line_as_the_console_would_fetch_it(
    staff: Client,
    secretary: Member,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A move within a deal carries its table's console line in the evening's notice
    (issue 59: the console swaps it in, no fetch a move), the same words the line's own
    page gives; the console's element takes it (sse-swap). A deal dealt carries none: the
    console fetches its line then."""
    from club.infra import redis as club_redis
    from club.live.streams import _session_event

    table, deal = _online_conquian(session, make_members)
    url = reverse("club:table_progress", args=[session.pk, table.pk])
    assert f'sse-swap="line-{table.pk}"' in _console(staff, session)
    state = reading.load_state(deal)
    mover = table_seating(table.pk)[deal.to_move]
    action = state.legal_actions(deal.to_move)[0]
    with django_capture_on_commit_callbacks(execute=True):
        games.act(
            Move(table.pk, member_id=mover.member_id, version=deal.version, action=action.to_json())
        )
    raw = club_redis.client().get(club_redis.key("session", session.pk, "last"))
    notice = json.loads(raw)
    line = notice["lines"]["en-gb"]
    assert notice["table"] == table.pk and line == staff.get(url).content.decode()
    assert "(1 move)" in line
    event = _session_event(raw, "en-gb")
    assert event.startswith(f"event: line-{table.pk}\nid: {notice['at']}\ndata: ")
    assert html.unescape(event.split("data: ", 1)[1].strip()) == line
    # the same line in Spanish, for a console read in Spanish (issue 82): as its page says
    spanish = Client(headers={"accept-language": "es-MX"})
    spanish.force_login(secretary.user)
    said = html.unescape(_session_event(raw, "es").split("data: ", 1)[1].strip())
    assert said == notice["lines"]["es"] == spanish.get(url).content.decode()
    assert "(1 jugada)" in said, said
    for card in state.player_view(0)["hand"]:
        assert card not in event.split()


def test_the_pushed_and_the_fetched_line_both_say_the_deals_own_game(
    staff: Client,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A table's options changed while a deal is in play (a game to 61, C-opt-4, set for
    the next game): the line the console fetches and the line a move pushes both say the
    deal in play as it was dealt. The fetched one read the table's options before."""
    from club.infra import redis as club_redis

    table, deal = _online_conquian(session, make_members)
    Table.objects.filter(pk=table.pk).update(options={"target": 61})
    url = reverse("club:table_progress", args=[session.pk, table.pk])
    assert staff.get(url).content.decode().startswith("Game 1, deal 1: ")
    state = reading.load_state(deal)
    mover = table_seating(table.pk)[deal.to_move]
    with django_capture_on_commit_callbacks(execute=True):
        games.act(Move(table.pk, member_id=mover.member_id, version=deal.version, action=state.legal_actions(deal.to_move)[0].to_json()))  # fmt: skip
    raw = club_redis.client().get(club_redis.key("session", session.pk, "last"))
    pushed = json.loads(raw)["lines"]["en-gb"]
    assert pushed.startswith("Game 1, deal 1: ") and pushed == staff.get(url).content.decode()


def test_the_console_line_names_who_plays_the_seat(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """A substitute plays the seat (L6): the console's line says he is to play, on the
    whole console and the line's own page alike (the line a move carries names him too:
    the seating's names)."""
    ms = make_members(5)
    for m in ms[:4]:
        check_in(session, m)
    table = form_table(session, variant="foster", size=4)
    deal = games.ensure_deal(table.pk)
    assert deal is not None and deal.to_move is not None
    check_in(session, ms[4])
    leaver = Member.objects.get(pk=table.seats.get(position=deal.to_move).member_id)
    sub = propose_substitute(table, leaver, ms[4])
    for seat in table.seats.exclude(member=leaver):
        sub = consent_substitute(sub, seat.member)
    assert sub.status == "active"
    url = reverse("club:table_progress", args=[session.pk, table.pk])
    said = f"{ms[4].display_name} to play"
    assert said in staff.get(url).content.decode()
    assert said in _text(_console(staff, session, HTTP_HX_REQUEST="true"))
    seating = table_seating(table.pk)
    assert said in games_club_api.console_lines(deal, seating)["en-gb"]
