"""The secretary's pages at a club's pace (issue 38, item 5, in part): several members
checked in at once; a members' list with balances; every member's name a link to his
page for whoever may open it; the result form where the console's link points."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Arrival, ClubSession, Member, Table
from club.services.ledger import balance_of, balance_session
from club.services.payments import record_payment
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

pytestmark = pytest.mark.django_db


def test_four_members_are_checked_in_at_once_in_one_submit(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    four = make_members(4)
    r = staff.post(reverse("club:arrival_add", args=[session.pk]), {"member": [m.pk for m in four]})
    assert r.status_code == 302
    assert set(Arrival.objects.filter(session=session).values_list("member", flat=True)) == {
        m.pk for m in four
    }
    page = staff.get(reverse("club:console", args=[session.pk])).content.decode()
    assert "4 here" in re_text(page)


def re_text(page: str) -> str:
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_members_list_shows_balances_and_links_to_each_members_page(
    staff: Client, client: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ann, bob = make_members(2)
    for m in (ann, bob):
        check_in(session, m)
    table = form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL)
    enter_physical_result(table.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 10}))
    console = staff.get(reverse("club:console", args=[session.pk])).content.decode()
    assert f'href="{reverse("club:member", args=[bob.pk])}"' in console  # seated at table 1
    close_session(session.pk, queue=False)
    balance_session(session.pk)
    page = staff.get(reverse("club:members")).content.decode()
    assert f'<a href="{reverse("club:member", args=[ann.pk])}">{ann}</a>' in page
    assert "£0.50" in page and "-£0.50" in page  # 10 points at 0.05, in the club's currency
    # The names in the standings and the settlement are links too.
    for url in (reverse("club:standings"), reverse("club:settlement", args=[session.pk])):
        assert f'href="{reverse("club:member", args=[bob.pk])}"' in staff.get(url).content.decode()
    # A member sees only his own name as a link, and no members' list.
    client.force_login(ann.user)
    standings = client.get(reverse("club:standings")).content.decode()
    assert f'href="{reverse("club:member", args=[ann.pk])}">{ann}</a>' in standings
    assert f'href="{reverse("club:member", args=[bob.pk])}"' not in standings
    assert client.get(reverse("club:members")).status_code in (302, 403)
    assert Decimal("0.50") == balance_of(ann)


def test_the_consoles_enter_a_result_link_reaches_the_result_form(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    ann, bob = make_members(2)
    for m in (ann, bob):
        check_in(session, m)
    table = form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL)
    console = staff.get(reverse("club:console", args=[session.pk])).content.decode()
    assert f'href="{table.get_club_url()}#result"' in console
    assert 'id="result"' in staff.get(table.get_club_url()).content.decode()
    assert "<ol" not in console.split("Waiting to play", 1)[1].split("</section>", 1)[0]


def test_a_result_with_two_mistakes_shows_both_at_once_and_a_good_one_is_confirmed(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    from tests.club.conftest import field_error

    ann, bob, cat = make_members(3)
    for m in (ann, bob, cat):
        check_in(session, m)
    table = form_table(session, variant="foster-three", size=3, mode=Table.PHYSICAL)
    url = reverse("club:table_result", args=[table.pk])
    # Bob's pips left blank, Cat's more than a hand can hold: both told, one submit.
    r = staff.post(url, {"winner": ann.pk, f"pips_{cat.pk}": "999"})
    assert r.status_code == 400
    body = r.content.decode()
    assert "played this deal: give the pips" in field_error(body, f"pips_{bob.pk}")
    assert "cannot hold 999 pips" in field_error(body, f"pips_{cat.pk}")
    assert not table.lines.exists()
    r = staff.post(
        url, {"winner": ann.pk, f"pips_{bob.pk}": "4", f"pips_{cat.pk}": "9"}, follow=True
    )
    assert f"Line 1 posted to the washbook: {ann} +13, {bob} -4, {cat} -9." in re_text(
        r.content.decode()
    )


def test_the_five_mistakes_of_issue_56_are_all_told_in_one_submit(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """A winner given pips, pips and cards both given, the card "ZZ", a missing hand and
    negative pips: before, the form's own check refused the negative pips and the rest
    came one resubmit at a time."""
    from tests.club.conftest import field_error

    ann, bob, cat, dan, eve = five = make_members(5)
    for m in five:
        check_in(session, m)
    table = form_table(session, variant="foster", size=5, mode=Table.PHYSICAL)
    r = staff.post(reverse("club:table_result", args=[table.pk]), {
        "winner": ann.pk, f"pips_{ann.pk}": "3",
        f"pips_{bob.pk}": "4", f"cards_{bob.pk}": "KS 5H",
        f"cards_{cat.pk}": "ZZ",
        f"pips_{eve.pk}": "-2",
    })  # fmt: skip
    assert r.status_code == 400
    body = r.content.decode()
    assert "the winner has no cards left to count" in field_error(body, f"pips_{ann.pk}")
    assert "pips or cards, not both" in field_error(body, f"cards_{bob.pk}")
    assert "ZZ" in field_error(body, f"cards_{cat.pk}")
    assert "give the pips or the cards" in field_error(body, f"pips_{dan.pk}")
    assert "pips cannot be negative" in field_error(body, f"pips_{eve.pk}")
    assert not table.lines.exists()
    # Nobody named as the winner: the other mistakes are still told, and the blank hand
    # (the winner's, unnamed) is not called a mistake.
    r = staff.post(reverse("club:table_result", args=[table.pk]), {
        f"pips_{bob.pk}": "4", f"pips_{cat.pk}": "5", f"pips_{dan.pk}": "999",
        f"pips_{eve.pk}": "2",
    })  # fmt: skip
    body = r.content.decode()
    assert r.status_code == 400 and field_error(body, "winner")
    assert "cannot hold 999 pips" in field_error(body, f"pips_{dan.pk}")
    assert not field_error(body, f"pips_{ann.pk}")


def test_the_secretary_chooses_who_sits_together_or_lets_the_cut_decide(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    from club.models import Seat

    ann, bob, cat, dan = make_members(4)
    for m in (ann, bob, cat, dan):
        check_in(session, m)
    url = reverse("club:table_create", args=[session.pk])
    console = staff.get(reverse("club:console", args=[session.pk])).content.decode()
    assert f'name="players" value="{dan.pk}"' in console  # the waiting members, to tick
    # Ann and Dan sit together, though Bob and Cat came before Dan.
    r = staff.post(url, {"variant": "conquian", "size": "2", "mode": "physical",
                         "players": [ann.pk, dan.pk]})  # fmt: skip
    assert r.status_code == 302
    table = Table.objects.get(session=session)
    assert set(Seat.objects.filter(table=table).values_list("member", flat=True)) == {
        ann.pk, dan.pk,
    }  # fmt: skip
    # Someone already seated cannot be chosen again: told beside the field, nothing made.
    r = staff.post(url, {"variant": "conquian", "size": "2", "mode": "physical",
                         "players": [ann.pk, bob.pk]})  # fmt: skip
    assert r.status_code == 400 and Table.objects.filter(session=session).count() == 1
    assert 'id="id_players_error"' in r.content.decode()
    # None ticked: everyone waiting, by the cut.
    r = staff.post(url, {"variant": "conquian", "size": "2", "mode": "physical"})
    assert r.status_code == 302
    last = Table.objects.filter(session=session).order_by("-number").first()
    assert last is not None
    assert set(Seat.objects.filter(table=last).values_list("member", flat=True)) == {
        bob.pk, cat.pk,
    }  # fmt: skip


def test_the_member_balances_csv_lists_every_balance_and_escapes_formulas(
    staff: Client, client: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 42, item 6: the members' list downloads as a CSV of balances, in the club's
    currency; a member named "=1+1" comes out as text, not a formula; members may not."""
    import csv
    import io

    ann, bob = make_members(2)
    bob.display_name = "=1+1"
    bob.save(update_fields=["display_name"])
    _balanced_evening(session, ann, bob)
    r = staff.get(reverse("club:members"), {"format": "csv"})
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    assert "member-balances.csv" in r["Content-Disposition"]
    head, *rows, club, total = list(csv.reader(io.StringIO(r.content.decode())))
    assert head == ["member", "guest", "active", "joined", "with members (£)",
                    "with the club (£)", "balance (£)"]  # fmt: skip
    by_name = {row[0]: row for row in rows}
    assert by_name[str(ann)][6] == "0.50" and by_name["'=1+1"][6] == "-0.50"
    assert "=1+1" not in by_name  # escaped: the spreadsheet shows the name
    for row in rows:  # each balance in its two parts
        assert Decimal(row[4]) + Decimal(row[5]) == Decimal(row[6])
    # the books balance: the members and the club's own account (issue 81)
    assert club[0] == "the club's own account" and total[0].startswith("total")
    assert sum(Decimal(row[6]) for row in rows) + Decimal(club[6]) == 0 == Decimal(total[6])
    client.force_login(ann.user)
    assert client.get(reverse("club:members"), {"format": "csv"}).status_code in (302, 403)


def test_what_is_unpaid_is_carried_to_the_next_evening_and_shown_at_check_in(
    staff: Client,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    secretary: Member,
) -> None:
    """Issue 42, item 2: a member's unpaid balance stays his and shows at the next
    evening: the check-in says it, the waiting list marks it, and the console lists who
    owes and who is owed; once the payment is recorded it is gone."""
    from club.models import Transfer

    ann, bob = make_members(2)
    _balanced_evening(session, ann, bob)
    tonight = open_session(stake="0.05", name="Next week", by=secretary.user)
    # On the tick list before he is checked in (issue 56), and a guest in the same submit.
    ticks = re_text(staff.get(reverse("club:console", args=[tonight.pk])).content.decode())
    assert f"{bob} (owes £0.50)" in ticks and f"{ann} (is owed £0.50)" in ticks
    r = staff.post(reverse("club:arrival_add", args=[tonight.pk]),
                   {"member": [bob.pk], "new_name": "Gus Guest", "guest": "on"})  # fmt: skip
    assert r.status_code == 302
    page = re_text(staff.get(r["Location"]).content.decode())
    said = f"Checked in: {bob} (owes £0.50 from past evenings) and Gus Guest (new, a guest)."
    assert said in page
    assert Member.objects.get(display_name="Gus Guest").is_guest
    assert "owes £0.50" in page.split("Waiting to play")[1]
    staff.post(reverse("club:arrival_add", args=[tonight.pk]), {"member": [ann.pk]})
    console = re_text(staff.get(reverse("club:console", args=[tonight.pk])).content.decode())
    assert "Carried from past evenings" in console
    assert f"{bob} owes £0.50" in console and f"{ann} is owed £0.50" in console
    (transfer,) = Transfer.objects.filter(session=session)
    record_payment(transfer.pk, by=secretary.user)
    console = re_text(staff.get(reverse("club:console", args=[tonight.pk])).content.decode())
    assert "Carried from past evenings" not in console and "owes £0.50" not in console


def _balanced_evening(session: ClubSession, winner: Member, loser: Member) -> None:
    """One deal at a physical table of two (the loser 10 points down), closed and
    balanced at the session's stake."""
    for m in (winner, loser):
        check_in(session, m)
    table = form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL)
    enter_physical_result(table.pk, PhysicalResult(winner_id=winner.pk, losses={loser.pk: 10}))
    close_session(session.pk, queue=False)
    balance_session(session.pk)


def test_a_table_short_of_players_is_refused_with_the_count_or_filled_when_asked(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 56: two ticked for a table of three, no computer player: a two-seat table
    was formed without a word. Now refused with the count, nothing made; asked, the empty
    seat of an online table goes to a computer player."""
    from club.models import Seat
    from tests.club.conftest import field_error

    ann, bob, cat = make_members(3)
    for m in (ann, bob, cat):
        check_in(session, m)
    url = reverse("club:table_create", args=[session.pk])
    two = {"variant": "tonk", "size": "3", "mode": "online", "computers": "0",
           "players": [ann.pk, bob.pk]}  # fmt: skip
    r = staff.post(url, two)
    assert r.status_code == 400 and not Table.objects.filter(session=session).exists()
    assert field_error(r.content.decode(), "size") == (
        "3 players, 2 ticked: tick one more or add a computer player."
    )
    r = staff.post(url, {**two, "mode": "physical"})
    assert field_error(r.content.decode(), "size") == (
        "3 players, 2 ticked: tick one more or make the table smaller."
    )
    # Asked to fill: Ann, Bob and a computer player; Cat still waits.
    r = staff.post(url, {**two, "fill": "on"})
    assert r.status_code == 302
    table = Table.objects.get(session=session)
    seated = list(Seat.objects.filter(table=table).select_related("member"))
    assert table.size == 3 and len(seated) == 3
    assert {s.member_id for s in seated if not s.member.is_bot} == {ann.pk, bob.pk}
    assert sum(s.member.is_bot for s in seated) == 1 and table.had_computer_players
    # Nobody ticked, the size left empty: as many as wait, as before (Cat alone cannot).
    r = staff.post(url, {"variant": "conquian", "mode": "physical"})
    assert "Conquián needs at least 2 players; 1 waiting." in field_error(
        r.content.decode(), "size"
    )


def test_the_settlement_counts_what_it_says_lists_fees_and_confirms_a_part_payment(
    staff: Client, secretary: Member, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 56: "3 staked tables" where one produced money; no table fees; a part
    payment recorded there showed no confirmation."""
    ann, bob, cat, dan = make_members(4)
    evening = open_session(stake="0.05", name="Friday", by=secretary.user,
                                    fee_member="1.00")  # fmt: skip
    for m in (ann, bob, cat, dan):
        check_in(evening, m)
    played = form_table(evening, variant="conquian", size=2, mode=Table.PHYSICAL,
                                 candidates=[ann, bob])  # fmt: skip
    form_table(
        evening, variant="conquian", size=2, mode=Table.PHYSICAL, candidates=[cat, dan]
    )  # fmt: skip  (a tableau only: no points)
    enter_physical_result(played.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 10}))
    close_session(evening.pk, queue=False)
    balance_session(evening.pk)
    url = reverse("club:settlement", args=[evening.pk])
    page = re_text(staff.get(url).content.decode())
    assert "2 staked tables (1 with points won and lost); 2 members won or lost money: " in page
    assert "Table fees to the club" in page
    fees = page.split("Table fees to the club")[1].split("Each member's result")[0]
    for m in (ann, bob, cat, dan):
        assert f"{m} £1.00 unpaid £1.00" in fees
    transfer = evening.transfers.get()
    r = staff.post(reverse("club:transfer_pay", args=[transfer.pk]),
                   {"session": evening.pk, "amount": "0.20", "method": "cash"}, follow=True)  # fmt: skip
    said = re_text(r.content.decode())
    assert f"Recorded: {bob} paid {ann} £0.20 in cash. £0.30 is still to pay." in said
