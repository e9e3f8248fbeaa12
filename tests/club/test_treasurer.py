"""The treasurer's month (issue 81, items 1 and 2): the club's own account shown, the
members' balances and the club's adding up to zero, each member's balance in two parts,
and who owes what across evenings in one place, printable and as CSV."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import ClubSession, Leg, Member, Posting, Table, Transfer
from club.services.accounts import Period, club_account, club_debts, unpaid_transfers
from club.services.ledger import CLUB, balance_of, balance_session, verify_balances, waive_fee
from club.services.payments import (
    record_club_payment,
    record_payment,
    record_refund,
    reverse_payment,
    with_club,
)
from club.services.sessions import add_newcomer, check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, correct_line, enter_physical_result

pytestmark = pytest.mark.django_db


def _evening(
    secretary: Member,
    players: list[Member],
    *,
    stake: str,
    fee: str,
    guest_fee: str,
    losses: tuple[int, int, int],
    opened: dt.date,
) -> tuple[ClubSession, Member]:
    """An evening: four members and a guest (who only watches) checked in; the four play
    one deal at real cards, the first winning the others' pips; closed and balanced."""
    session = open_session(
        stake=Decimal(stake), by=secretary.user, fee_member=fee, fee_guest=guest_fee
    )
    for m in players:
        check_in(session, m)
    guest = add_newcomer(session, f"Guest {opened:%d}", guest=True)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=players)
    a, b, c, d = players
    enter_physical_result(
        table.pk,
        PhysicalResult(winner_id=a.pk, losses={b.pk: losses[0], c.pk: losses[1], d.pk: losses[2]}),
    )
    # dated in the month, as if held then
    at = timezone.make_aware(dt.datetime.combine(opened, dt.time(19, 30)))
    ClubSession.objects.filter(pk=session.pk).update(opened_at=at)
    return session, guest


@pytest.fixture
def month(
    secretary: Member, make_members: Callable[[int], list[Member]], no_queue: list[int]
) -> dict[str, object]:
    """Three weekly evenings at different stakes and fees, guests, a waived fee, part
    payments, a payment by mistake and its reversal, a credit refunded, a correction after
    balancing, and transfers left unpaid."""
    ann, bob, cat, dan, eve = make_members(5)
    days = [dt.date(2026, 11, 3), dt.date(2026, 11, 10), dt.date(2026, 11, 17)]
    one, g1 = _evening(secretary, [ann, bob, cat, dan], stake="0.05", fee="1.00",
                       guest_fee="2.00", losses=(10, 3, 0), opened=days[0])  # fmt: skip
    assert close_session(one.pk, queue=False) and balance_session(one.pk).posted
    two, g2 = _evening(secretary, [bob, cat, dan, eve], stake="0.10", fee="1.50",
                       guest_fee="2.50", losses=(20, 5, 12), opened=days[1])  # fmt: skip
    waive_fee(two.pk, eve.pk, why="left before playing")
    assert close_session(two.pk, queue=False) and balance_session(two.pk).posted
    three, g3 = _evening(secretary, [cat, dan, eve, ann], stake="0.02", fee="0.50",
                         guest_fee="1.00", losses=(30, 0, 8), opened=days[2])  # fmt: skip
    assert close_session(three.pk, queue=False) and balance_session(three.pk).posted
    # part payment of a transfer, a full one, fees paid, a mistake reversed, a refund
    first = Transfer.objects.filter(session=one).order_by("pk").first()
    assert first is not None
    record_payment(first.pk, amount=(first.amount / 2).quantize(Decimal("0.01")))
    record_payment(Transfer.objects.filter(session=two, payment=None).order_by("pk")[0].pk)
    record_club_payment(ann.pk, Decimal("1.00"))
    record_club_payment(bob.pk, Decimal("1.00"))  # part of his 2.50
    mistake = record_club_payment(cat.pk, Decimal("3.00"))
    reverse_payment(mistake.pk, reason="it was Dan")
    record_club_payment(dan.pk, Decimal("5.00"), credit=True)  # 3.00 of fees, 2.00 credit
    record_refund(dan.pk, Decimal("1.50"))
    # a line of the first evening corrected after its balancing
    line = one.tables.get().lines.get()
    correct_line(
        line.pk,
        reason="misread",
        result=PhysicalResult(winner_id=ann.pk, losses={bob.pk: 12, cat.pk: 3, dan.pk: 0}),
    )
    return {"evenings": [one, two, three], "members": [ann, bob, cat, dan, eve],
            "guests": [g1, g2, g3], "days": days}  # fmt: skip


def test_the_members_balances_and_the_clubs_add_up_to_zero_in_two_parts(
    month: dict,  # type: ignore[type-arg]
) -> None:
    books = club_account()
    assert books.adds_to_zero and books.members_total == -balance_of(CLUB)
    assert books.club_balance == balance_of(CLUB) != 0
    everyone = {m.member.pk: m for m in books.members}
    assert {g.pk for g in month["guests"]} <= set(everyone)  # guests are in the books
    for pk, m in everyone.items():
        assert m.balance == balance_of(pk)  # the two parts add to the balance
        assert m.with_club == with_club(pk)
    # fees charged: each evening's member and guest fees, Eve's waived one left out
    # (4 x 1.00 + 2.00) + (3 x 1.50 + 2.50) + (4 x 0.50 + 1.00)
    assert books.fees_charged == Decimal("16.00")
    assert books.fees_waived == Decimal("1.50")
    # received: Ann 1.00, Bob 1.00, Cat's 3.00 reversed, Dan 5.00; refunded: 1.50
    assert (books.received, books.refunded) == (Decimal("7.00"), Decimal("1.50"))
    # what members owe the club, what it owes them: from each one's own account
    owed = sum((-with_club(pk) for pk in everyone if with_club(pk) < 0), Decimal(0))
    assert books.owed_to_club == owed > 0
    assert books.owed_by_club == with_club(month["members"][3].pk) == Decimal("0.50")
    assert books.fees_charged - books.received + books.refunded == books.club_balance
    paid = Transfer.objects.filter(payment__isnull=False).aggregate(s=Sum("amount"))["s"]
    unpaid = Transfer.objects.filter(payment__isnull=True).aggregate(s=Sum("amount"))["s"]
    assert (books.transfers_paid, books.transfers_unpaid) == (paid, unpaid)
    assert verify_balances() == []
    assert not Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0).exists()


def test_a_period_counts_its_own_evenings_and_balances_stand_at_its_end(
    month: dict,  # type: ignore[type-arg]
) -> None:
    one = month["evenings"][0]
    days = month["days"]
    first = club_account(Period(days[0], days[0]))
    assert first.fees_charged == Decimal("6.00")  # four members at 1.00, a guest at 2.00
    assert first.fees_waived == 0
    # balances at the first evening's end: only its postings
    assert {m.member.pk for m in first.members} == set(
        Leg.objects.filter(posting__session=one, account__member__isnull=False).values_list(
            "account__member_id", flat=True
        )
    )
    assert first.adds_to_zero
    second = club_account(Period(days[1], days[1]))
    assert (second.fees_charged, second.fees_waived) == (Decimal("7.00"), Decimal("1.50"))
    assert second.received == 0  # the payments were recorded today, not on that day


def test_who_owes_what_lists_every_unpaid_transfer_and_fee_oldest_first(
    staff: Client,
    month: dict,  # type: ignore[type-arg]
) -> None:
    transfers, debts = unpaid_transfers(), club_debts()
    assert transfers and debts
    assert [t.session.opened_at for t in transfers] == sorted(
        t.session.opened_at for t in transfers
    )
    assert [d.evening.opened_at for d in debts] == sorted(d.evening.opened_at for d in debts)
    # what is owed to the club, fee by fee, is what the members owe it
    by_member: dict[int, Decimal] = {}
    for d in debts:
        by_member[d.member.pk] = by_member.get(d.member.pk, Decimal(0)) + d.standing.owed
    assert (
        by_member == {m: -with_club(m) for m in by_member}
        and sum(by_member.values()) == club_account().owed_to_club
    )
    page = staff.get(reverse("club:owed"))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count("Mark paid</button>") == len(transfers) + len(debts)
    # the CSV: one row each, and the total row is their sum
    r = staff.get(reverse("club:owed"), {"format": "csv"})
    assert r["Content-Disposition"].startswith('attachment; filename="owed-')
    head, *rows, total = list(csv.reader(io.StringIO(r.content.decode())))
    assert head[0] == "kind" and head[5] == "owed (£)"
    assert len(rows) == len(transfers) + len(debts)
    assert total[0] == "total"
    assert (
        Decimal(total[5])
        == sum(Decimal(row[5]) for row in rows)
        == sum((t.amount for t in transfers), Decimal(0))
        + sum((d.standing.owed for d in debts), Decimal(0))
    )
    # "Mark paid" on a transfer comes back here, and it is gone from the list
    t = transfers[0]
    back = staff.post(
        reverse("club:transfer_pay", args=[t.pk]), {"session": t.session_id, "back": "owed"}
    )
    assert back["Location"] == reverse("club:owed")
    assert t.pk not in [x.pk for x in unpaid_transfers()]
    # and on a fee
    d = debts[0]
    back = staff.post(
        reverse("club:member_payment", args=[d.member.pk]),
        {"to": "club", "amount": str(d.standing.owed), "method": "cash", "back": "owed"},
    )
    assert back["Location"] == reverse("club:owed")
    assert (d.member.pk, d.evening.pk) not in [(x.member.pk, x.evening.pk) for x in club_debts()]


def test_the_clubs_account_page_and_its_csv_prove_zero(
    staff: Client,
    month: dict,  # type: ignore[type-arg]
) -> None:
    page = staff.get(reverse("club:club_account"))
    text = page.content.decode()
    assert page.status_code == 200 and "add up to zero" in text and "do not add up" not in text
    # each member's row leads to his statement for the same period
    ann = month["members"][0]
    dated = staff.get(reverse("club:club_account"), {"since": "2026-11-01", "until": "2026-11-30"})
    link = reverse("club:member_period_statement", args=[ann.pk])
    assert f'href="{link}?since=2026-11-01&amp;until=2026-11-30"' in dated.content.decode()
    r = staff.get(reverse("club:club_account"), {"format": "csv"})
    head, *rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert head == ["line", "member", "with members (£)", "with the club (£)", "balance (£)"]
    members = [row for row in rows if row[0] == "member"]
    club = next(row for row in rows if row[0] == "club")
    total = next(row for row in rows if row[0] == "total")
    assert sum(Decimal(row[4]) for row in members) + Decimal(club[4]) == 0 == Decimal(total[4])
    for row in members:
        assert Decimal(row[2]) + Decimal(row[3]) == Decimal(row[4])
    assert Decimal(total[2]) + Decimal(total[3]) == -Decimal(club[4])
    # a period that ends before its start is told beside its field
    bad = staff.get(reverse("club:club_account"), {"since": "2026-11-20", "until": "2026-11-01"})
    assert bad.status_code == 400 and "comes before the start" in bad.content.decode()


def test_a_member_cannot_read_the_clubs_account_or_who_owes_what(
    client: Client,
    month: dict,  # type: ignore[type-arg]
) -> None:
    client.force_login(month["members"][0].user)
    for name in ("club:club_account", "club:owed"):
        assert client.get(reverse(name)).status_code in (302, 403)


def test_a_members_page_shows_his_balance_in_two_parts(
    client: Client,
    month: dict,  # type: ignore[type-arg]
) -> None:
    """Erin's case: a balance above nothing that hides a debt to the club."""
    bob = month["members"][1]
    client.force_login(bob.user)
    page = client.get(reverse("club:member", args=[bob.pk])).context
    assert page["with_members"] + page["credit"] == page["balance"] == balance_of(bob)
    assert page["credit"] == with_club(bob.pk) == Decimal("-1.50")


def test_a_statement_for_a_period_adds_up_from_brought_forward_to_carried_forward(
    staff: Client,
    month: dict,  # type: ignore[type-arg]
) -> None:
    """Issue 81, item 3, against a ledger this test keeps itself: Ann won 13 points at
    0.05 on the 3rd (corrected to 15 after the balancing), lost 8 at 0.02 on the 17th,
    was charged 1.00 and 0.50; in December she paid the club 1.00 and the transfers of the
    first evening moved."""
    from club.services.statements import period_statement

    ann = month["members"][0]
    one, _, three = month["evenings"]
    november = Period(dt.date(2026, 11, 1), dt.date(2026, 11, 30))
    s = period_statement(ann, november)
    assert s.brought_forward == 0
    assert [(r.day, r.evening, r.points, r.play, r.fee, r.other) for r in s.rows] == [
        (dt.date(2026, 11, 3), one, 13, Decimal("0.65"), Decimal("-1.00"), 0),
        (dt.date(2026, 11, 3), None, None, 0, 0, Decimal("0.10")),  # the correction
        (dt.date(2026, 11, 17), three, -8, Decimal("-0.16"), Decimal("-0.50"), 0),
    ]
    assert s.carried_forward == Decimal("-0.91") and s.adds_up
    december = period_statement(ann, Period(dt.date(2026, 12, 1), None))
    assert december.brought_forward == Decimal("-0.91")
    assert december.carried_forward == balance_of(ann) and december.adds_up
    assert all(r.evening is None for r in december.rows)  # payments only
    everything = period_statement(ann)
    assert everything.brought_forward == 0 and everything.carried_forward == balance_of(ann)
    # every member's statement adds up, guests' too
    for m in [*month["members"], *month["guests"]]:
        assert period_statement(m, november).adds_up
    # the page and its CSV
    url = reverse("club:member_period_statement", args=[ann.pk])
    page = staff.get(url, {"since": "2026-11-01", "until": "2026-11-30"})
    assert page.status_code == 200 and "add up to carried forward" in page.content.decode()
    r = staff.get(url, {"since": "2026-11-01", "until": "2026-11-30", "format": "csv"})
    head, bf, *rows, totals, cf = list(csv.reader(io.StringIO(r.content.decode())))
    assert head[-1] == "amount (£)" and bf[1].startswith("brought forward")
    assert Decimal(bf[-1]) + sum(Decimal(row[-1]) for row in rows) == Decimal(cf[-1])
    assert Decimal(totals[-1]) == sum(Decimal(row[-1]) for row in rows)
    for row in rows:  # each row adds up
        parts = [Decimal(x) for x in row[3:6] if x]
        assert sum(parts) == Decimal(row[-1])


def test_standings_over_a_period_bring_forward_and_each_row_adds_up_guests_included(
    staff: Client,
    month: dict,  # type: ignore[type-arg]
) -> None:
    """Issue 81, item 3: with a date range a row no longer added up to its balance (what
    stood before the range was outside it) and guests were left out, so the fees column
    came to less than was charged."""
    days = month["days"]
    dated = staff.get(reverse("club:standings"), {"since": days[1], "until": "2026-12-31"})
    rows = {r.member.pk: r for r in [*dated.context["rows"], *dated.context["guests"]]}
    assert {r.member.pk for r in dated.context["guests"]} == {g.pk for g in month["guests"]}
    assert all(r.adds_up for r in rows.values())
    ann = rows[month["members"][0].pk]
    assert ann.brought_forward == Decimal("0.65") - Decimal("1.00") + Decimal("0.10")
    assert ann.balance == balance_of(month["members"][0])  # the range runs to today
    assert "Brought forward" in dated.content.decode()
    page = staff.get(reverse("club:standings")).context
    whole = [*page["rows"], *page["guests"]]
    assert sum((r.fees for r in whole), Decimal(0)) == -club_account().fees_charged
    assert all(r.adds_up and r.brought_forward == 0 for r in whole)


def _rows(staff: Client, what: str, **query: str) -> list[list[str]]:
    r = staff.get(reverse("club:export", args=[what]), query)
    assert r.status_code == 200 and r["Content-Disposition"].startswith(
        f'attachment; filename="{what}-'
    )
    return list(csv.reader(io.StringIO(r.content.decode())))


def test_payments_fees_and_transfers_export_as_csv_and_prove(
    staff: Client,
    month: dict,  # type: ignore[type-arg]
) -> None:
    """Issue 81, item 5: there was no CSV of payments, fees or transfers."""
    head, *rows, total = _rows(staff, "payments")
    assert head[:5] == ["recorded", "kind", "from", "to", "amount (£)"]
    recorded = Posting.objects.filter(kind__in=(Posting.PAYMENT, Posting.REFUND, Posting.REVERSAL))
    assert len(rows) == recorded.count()
    assert Decimal(total[4]) == sum(Decimal(r[4]) for r in rows)
    assert total[8] == "legs sum to 0.00"
    dan = month["members"][3]
    refund = next(r for r in rows if r[1] == "refund from the club")
    assert (refund[2], refund[3], refund[4]) == ("the club", dan.display_name, "1.50")
    reversal = next(r for r in rows if r[1] == "payment reversed")
    assert reversal[2] == "the club" and reversal[4] == "3.00" and reversal[7]
    head, *rows, total = _rows(staff, "fees")
    assert head[4:8] == ["fee (£)", "paid (£)", "owed (£)", "state"]
    assert Decimal(total[4]) == club_account().fees_charged == Decimal("16.00")
    assert Decimal(total[4]) == Decimal(total[5]) + Decimal(total[6])
    assert total[7] == "the club was credited 16.00 (equal)"
    assert {r[2] for r in rows if r[3] == "yes"} == {g.display_name for g in month["guests"]}
    november = _rows(staff, "fees", since="2026-11-10", until="2026-11-10")
    assert Decimal(november[-1][4]) == Decimal("7.00")  # the second evening only
    head, *rows, total = _rows(staff, "transfers")
    assert len(rows) == Transfer.objects.count()
    paid = sum(Decimal(r[4]) for r in rows if r[5] == "yes")
    unpaid = sum(Decimal(r[4]) for r in rows if r[5] == "no")
    assert total[5:7] == [f"paid {paid}", f"unpaid {unpaid}"] and paid and unpaid
    assert staff.get(reverse("club:export", args=["secrets"])).status_code == 404


def test_an_evening_entered_after_the_fact_takes_the_day_it_was_held(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """Issue 81, item 8: every evening and statement line was dated the day it was typed
    in. An evening held last week, entered today after a payment recorded since, takes its
    day: its statement lines carry it and stand before the payment in the books."""
    import time_machine

    from club.services.payments import record_club_payment

    ann, bob, cat, dan = make_members(4)
    today = timezone.localdate()
    held = today - dt.timedelta(days=6)
    with time_machine.travel(timezone.now() - dt.timedelta(days=3), tick=False):
        record_club_payment(ann.pk, Decimal("5.00"), credit=True)  # three days ago
    page = staff.post(
        reverse("club:session_open"),
        {"name": "Last Tuesday", "stake": "0.05", "default_variant": "foster",
         "fee_member": "1.00", "fee_guest": "1.00", "held_on": held.isoformat()},
    )  # fmt: skip
    assert page.status_code == 302
    evening = ClubSession.objects.get(name="Last Tuesday")
    assert timezone.localdate(evening.opened_at) == held
    for m in (ann, bob, cat, dan):
        check_in(evening, m)
    table = form_table(evening, variant="foster", size=4, mode=Table.PHYSICAL,
                       candidates=[ann, bob, cat, dan])  # fmt: skip
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 10, cat.pk: 2, dan.pk: 0})
    )
    assert close_session(evening.pk, queue=False) and balance_session(evening.pk).posted
    statement = staff.get(reverse("club:member_statement", args=[ann.pk])).context["lines"]
    money = [(line.when, line.amount) for line in statement if not line.is_deal]
    # the evening's balancing and fee on its own day, then the payment three days ago
    assert [when for when, _ in money] == [held, held, today - dt.timedelta(days=3)]
    assert [line.when for line in statement if line.is_deal] == [evening.opened_at]
    assert [line.running for line in statement if not line.is_deal][-1] == balance_of(ann)
    week = period_statement_rows(ann, held)
    assert week[0] == (held, evening)
    # a day still to come is refused beside its field, and nothing is opened
    before = ClubSession.objects.count()
    later = staff.post(
        reverse("club:session_open"),
        {"name": "Next week", "stake": "0.05", "default_variant": "foster", "second": "on",
         "held_on": (today + dt.timedelta(days=1)).isoformat()},
    )  # fmt: skip
    assert later.status_code == 400 and "still to come" in later.content.decode()
    assert ClubSession.objects.count() == before


def period_statement_rows(member: Member, since: dt.date) -> list[tuple[dt.date, object]]:
    from club.services.statements import period_statement

    return [(r.day, r.evening) for r in period_statement(member, Period(since, None)).rows]
