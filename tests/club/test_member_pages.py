"""A member's pages are right (issue 27, item 4): sessions by name and date, his own
points (never the session's total), standings without staff, practice or the evening
still open, between two dates, and a link from home to the table he sits at."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import ClubSession, Member, Table
from club.services import money as club_money
from club.services.ledger import balance_session
from club.services.payments import record_club_payment
from club.services.sessions import check_in, close_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, correct_line, enter_physical_result

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(
    session: ClubSession, make_members: Callable[..., list[Member]], no_queue: list[int]
) -> dict[str, object]:
    """Five members, two deals at a physical table: Ann wins 39, then Bob wins 12."""
    ms = make_members(5)
    for m in ms:
        check_in(session, m)
    table = form_table(session, variant="foster", size=5, mode=Table.PHYSICAL, candidates=ms)
    a, b, c, d, e = ms
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 10, c.pk: 9, d.pk: 20, e.pk: 0})
    )
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=b.pk, losses={a.pk: 0, c.pk: 0, d.pk: 0, e.pk: 12})
    )
    ClubSession.objects.filter(pk=session.pk).update(name="Tuesday")
    return {"session": session, "members": ms, "table": table}


def _close_and_balance(session: ClubSession) -> None:
    close_session(session.pk, queue=False)
    balance_session(session.pk)


def test_the_member_page_names_each_session_with_its_date_and_his_own_points(
    client: Client, evening: dict
) -> None:  # type: ignore[type-arg]
    session, ann = evening["session"], evening["members"][0]
    _close_and_balance(session)
    client.force_login(ann.user)
    body = client.get(reverse("club:member", args=[ann.pk])).content.decode()
    link = reverse("club:statement", args=[ann.pk, session.pk])
    shown = re.search(rf'<a href="{link}">([^<]+)</a>', body)
    assert shown is not None
    assert shown.group(1) == f"Tuesday, {timezone.localtime(session.opened_at):%-d %b %Y}"
    assert "39 points" in body
    # The money line says Ann's own points, not the 51 the session's winners won.
    assert "Tuesday: your +39 points at £0.05 a point" in body
    assert "51 points won" not in body


def test_the_statement_says_the_members_own_points(client: Client, evening: dict) -> None:  # type: ignore[type-arg]
    session, bob = evening["session"], evening["members"][1]
    _close_and_balance(session)
    client.force_login(bob.user)
    body = client.get(reverse("club:statement", args=[bob.pk, session.pk])).content.decode()
    assert "net <strong>2</strong> points" in body  # -10 then +12
    assert "your +2 points at £0.05 a point" in body and "points won" not in body


def test_standings_leave_out_staff_practice_and_the_open_evening(
    client: Client, secretary: Member, evening: dict
) -> None:  # type: ignore[type-arg]
    session, (ann, *_) = evening["session"], evening["members"]
    client.force_login(ann.user)
    body = client.get(reverse("club:standings")).content.decode()
    assert "The Secretary" not in body
    assert re.search(r"<td>Player \d+</td><td class=\"num\">0</td>", body)  # still open
    _close_and_balance(session)
    body = client.get(reverse("club:standings")).content.decode()
    own = rf'<td><a href="/members/{ann.pk}/">{ann.display_name}</a></td>'  # her own page
    assert re.search(rf"{own}<td class=\"num\">39</td>", body)


def test_standings_show_a_member_his_own_money_and_everyones_points(
    client: Client, secretary: Member, evening: dict
) -> None:  # type: ignore[type-arg]
    """Issue 53, item 6: the standings' "Balance now", fees and payments of every member
    were open to any member. Points (and the money play came to) stay the club's; a
    member's fees, payments and balance are his own and the staff's."""
    session, (ann, bob, *_) = evening["session"], evening["members"]
    _close_and_balance(session)
    record_club_payment(bob.pk, club_money.check_amount("7", field="a", what="a"), credit=True)
    client.force_login(ann.user)
    r = client.get(reverse("club:standings"))
    rows = {row.member.pk: row for row in r.context["rows"]}
    body = r.content.decode()
    assert set(r.context["private"]) == set(rows) - {ann.pk}
    bob_row = body[body.index(f"<td>{bob.display_name}</td>") :].split("</tr>")[0]
    assert ">private<" in bob_row and "£7.00" not in bob_row
    assert f'<td class="num">{rows[bob.pk].points}</td>' in bob_row  # his points are shown
    ann_row = body[body.index(f'/members/{ann.pk}/">{ann.display_name}</a></td>') :]
    ann_row = ann_row.split("</tr>")[0]
    assert "private" not in ann_row and "£1.95" in ann_row  # her own balance: 39 x 0.05
    # The secretary sees every member's money.
    client.force_login(secretary.user)
    r = client.get(reverse("club:standings"))
    assert r.context["private"] == set()
    assert "£7.00" in r.content.decode()


def test_standings_filter_by_date_and_a_bad_date_is_told_in_place(
    client: Client, evening: dict
) -> None:  # type: ignore[type-arg]
    session, (ann, *_) = evening["session"], evening["members"]
    _close_and_balance(session)
    client.force_login(ann.user)
    day = timezone.localtime(session.opened_at).date()
    url = reverse("club:standings")
    row = rf'<td><a href="/members/{ann.pk}/">{ann.display_name}</a></td><td class="num">39</td>'
    assert re.search(row, client.get(url, {"since": day.isoformat()}).content.decode())
    later = (day + dt.timedelta(days=1)).isoformat()
    assert not re.search(row, client.get(url, {"since": later}).content.decode())
    r = client.get(url, {"since": "2026-02-31"})
    assert r.status_code == 400
    assert 'class="field-error" role="alert">Enter a valid date.' in r.content.decode()
    assert re.search(row, r.content.decode())  # unfiltered, nothing else changed
    r = client.get(url, {"since": later, "until": day.isoformat()})
    assert (
        r.status_code == 400 and "The end date comes before the start date." in r.content.decode()
    )


def test_home_links_a_seated_member_to_his_table(
    client: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ms = make_members(3)
    for m in ms:
        check_in(session, m)
    table = form_table(session, variant="conquian", size=2, mode=Table.ONLINE)
    seated = list(table.seats.select_related("member"))
    waiting = next(m for m in ms if m.pk not in {s.member_id for s in seated})
    me = seated[1]
    client.force_login(me.member.user)
    body = client.get(reverse("home")).content.decode()
    assert f"You are seated at <strong>Table {table.number}</strong>" in body
    assert f"seat {me.position + 1}: " in body
    # No brackets inside brackets (issue 79: "Table 1 (Tonk (two to five players)), seat 3").
    said = re.search(r"You are seated at .*?</p>", body, re.S)
    assert said and not re.search(r"\([^()]*\(", said.group(0)), said.group(0)
    assert f'href="{table.get_absolute_url()}">Play</a>' in body
    client.force_login(waiting.user)
    assert "You are seated" not in client.get(reverse("home")).content.decode()
    Table.objects.filter(pk=table.pk).update(status=Table.CLOSED)
    client.force_login(me.member.user)
    assert "You are seated" not in client.get(reverse("home")).content.decode()


def test_recent_deals_name_their_evening_and_a_reversal_what_it_reverses_and_why(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 42, item 4: "Table 1, line 9" said nothing of the evening, and a reversal
    was a bare -10: each recent deal now names its evening, and a reversal or correction
    the line it reverses or corrects, with the secretary's reason."""
    ann, bob = make_members(2)
    for m in (ann, bob):
        check_in(session, m)
    table = form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL)
    line = enter_physical_result(table.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 10}))
    correct_line(
        line.pk, reason="the ten was a four",
        result=PhysicalResult(winner_id=ann.pk, losses={bob.pk: 4}),
    )  # fmt: skip
    page = re.sub(r"\s+", " ", staff.get(reverse("club:member", args=[bob.pk])).content.decode())
    name = session.name
    assert f"{name}, table 1, line 1</td>" in page
    assert f"{name}, table 1, line 2 (reverses line 1: the ten was a four)" in page
    assert f"{name}, table 1, line 3 (corrects line 1: the ten was a four)" in page


def test_an_evening_with_nobody_is_not_a_numbered_list_and_the_admin_says_cut_batches(
    client: Client, session: ClubSession, secretary: Member
) -> None:
    """Issue 79, item 6: an empty list showed as "1. Nobody has checked in."; the admin
    said "Cut batchs"."""
    client.force_login(secretary.user)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Nobody has checked in." in page
    assert not re.search(r"<li[^>]*>\s*Nobody has checked in", page)
    from django.contrib.auth import get_user_model

    boss = get_user_model().objects.create_superuser("boss", "b@example.org", "x")
    client.force_login(boss)
    admin = client.get("/admin/").content.decode()
    assert "Cut batches" in admin and "Cut batchs" not in admin


def test_every_evening_a_member_was_charged_for_is_in_his_list(
    client: Client, secretary: Member, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 81, item 3: the list showed only evenings with points at a staked table, so a
    member charged a fee at an evening where he did not play read "No evenings played"
    though his statement for it existed."""
    from decimal import Decimal

    from club.services.sessions import open_session

    (watcher,) = make_members(1)
    session = open_session(stake=Decimal("0.05"), by=secretary.user, fee_member="2.00")
    ClubSession.objects.filter(pk=session.pk).update(name="Watching night")
    check_in(session, watcher)
    _close_and_balance(session)
    client.force_login(watcher.user)
    body = client.get(reverse("club:member", args=[watcher.pk])).content.decode()
    link = reverse("club:statement", args=[watcher.pk, session.pk])
    assert f'<a href="{link}">Watching night' in body
    assert "No evenings played" not in body and "no points at a staked table" in body
    statement = client.get(link)
    assert statement.status_code == 200 and "2.00" in statement.content.decode()
