"""Table fees, payments in cash or by bank, and whom a member owes (issue 42, items 2
and 3): fees are their own posting, charged once at the balancing; a payment may pay part
of a transfer, the rest staying on the settlement; a member's page says whom he owes, and
its lines always sum to his balance. Every posting sums to zero."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Leg, Member, Posting, Seat, Table, Transfer
from club.services.base import ClubError
from club.services.ledger import (
    CLUB,
    balance_of,
    balance_session,
    fees_due,
    session_money,
    verify_balances,
    waive_fee,
)
from club.services.payments import (
    owing,
    record_club_payment,
    record_payment,
    record_refund,
    reverse_payment,
)
from club.services.sessions import add_newcomer, check_in, check_out, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, correct_line, enter_physical_result

from .conftest import field_error

pytestmark = pytest.mark.django_db


def _postings_at_zero() -> None:
    sums = Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0)
    assert not sums.exists(), list(sums)
    assert verify_balances() == []


def _evening(
    secretary: Member, make_members: Callable[[int], list[Member]], **fees: str
) -> tuple[ClubSession, list[Member], Member]:
    """An evening at 0.05 a point: four members and a guest checked in; four play one deal
    at real cards (a wins 13: b 10, c 3, d 0); the guest only watches. Closed, balanced."""
    session = open_session(stake=Decimal("0.05"), by=secretary.user, **fees)
    players = make_members(4)
    for m in players:
        check_in(session, m)
    guest = add_newcomer(session, "Gus Guest", guest=True)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=players)
    seated = {s.member_id for s in Seat.objects.filter(table=table)}
    assert seated == {m.pk for m in players}
    a, b, c, d = players
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 10, c.pk: 3, d.pk: 0})
    )
    assert close_session(session.pk, queue=False)
    assert balance_session(session.pk).posted
    return session, players, guest


def test_table_fees_are_their_own_posting_charged_once_by_kind_of_player(
    secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), guest = _evening(
        secretary, make_members, fee_member="2.00", fee_guest="3.50"
    )
    fee = Posting.objects.get(session=session, kind=Posting.FEE)
    legs = dict(fee.legs.values_list("account__member_id", "amount"))
    assert legs == {
        a.pk: Decimal("-2.00"),
        b.pk: Decimal("-2.00"),
        c.pk: Decimal("-2.00"),
        d.pk: Decimal("-2.00"),
        guest.pk: Decimal("-3.50"),
        None: Decimal("11.50"),  # the club's account
    }
    assert balance_of(CLUB) == Decimal("11.50")
    # The evening's money is its points alone; the fee is on each balance beside it.
    assert session_money(session.pk)[a.pk] == Decimal("0.65")
    assert balance_of(a) == Decimal("-1.35")
    assert balance_of(guest) == Decimal("-3.50")
    # Balancing again charges nothing more (one fee posting per evening, by constraint too).
    assert not balance_session(session.pk).posted
    assert Posting.objects.filter(session=session, kind=Posting.FEE).count() == 1
    _postings_at_zero()


def test_an_evening_without_fees_posts_none_and_the_clubs_default_fills_the_form(
    staff: Client,
    secretary: Member,
    make_members: Callable[[int], list[Member]],
    settings: object,
) -> None:
    session, _, _ = _evening(secretary, make_members)
    assert not Posting.objects.filter(kind=Posting.FEE).exists()
    settings.CLUB_TABLE_FEE_MEMBER = "1.50"  # type: ignore[attr-defined]
    body = staff.get(reverse("club:sessions")).content.decode()
    assert 'name="fee_member" value="1.50"' in body
    assert "The club's is £1.50" in body


@pytest.mark.parametrize(
    ("fee", "error"),
    [
        ("0.005", "a member&#x27;s table fee must be a whole number of £0.01"),
        ("-1", "a member&#x27;s table fee must be nothing or more"),
        ("lots", "a member&#x27;s table fee must be written like 2.50"),
        # issue 53, item 3: each of these answered 500 (decimal.InvalidOperation)
        ("1e30", "a member&#x27;s table fee must be written like 2.50"),
        ("1E+2", "a member&#x27;s table fee must be written like 2.50"),
        ("Infinity", "a member&#x27;s table fee must be written like 2.50"),
        ("\u0663", "a member&#x27;s table fee must be written like 2.50"),
        ("100001", "a member&#x27;s table fee must be at most £100,000.00"),
    ],
)
def test_a_bad_fee_is_refused_beside_its_field_and_opens_nothing(
    staff: Client, fee: str, error: str
) -> None:
    r = staff.post(
        reverse("club:session_open"),
        {"name": "Fees", "stake": "0.05", "default_variant": "foster", "fee_member": fee},
    )
    assert r.status_code == 400
    assert error.lower() in field_error(r.content.decode(), "fee_member").lower()
    assert not ClubSession.objects.filter(name="Fees").exists()


def test_a_part_payment_splits_the_transfer_and_the_rest_stays_owed(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members)
    # a +0.65, b -0.50, c -0.15: b pays a 0.50, c pays a 0.15.
    owed = Transfer.objects.get(session=session, payer=b)
    assert (owed.payee_id, owed.amount) == (a.pk, Decimal("0.50"))
    r = staff.post(
        reverse("club:member_payment", args=[b.pk]),
        {"to": f"t{owed.pk}", "amount": "0.20", "method": "bank"},
    )
    assert r.status_code == 302
    paid, rest = Transfer.objects.filter(session=session, payer=b).order_by("pk")
    assert (paid.pk, paid.amount, paid.paid, paid.payment.method) == (
        owed.pk,
        Decimal("0.20"),
        True,
        Posting.BANK,
    )
    assert (rest.payee_id, rest.amount, rest.paid) == (a.pk, Decimal("0.30"), False)
    assert balance_of(b) == Decimal("-0.30")
    assert [(o.member, o.amount, o.session) for o in owing(b.pk)] == [
        (a, Decimal("-0.30"), session)
    ]
    page = staff.get(reverse("club:member", args=[b.pk])).content.decode()
    assert "Owes and is owed" in page and "£0.30" in page
    # The chart says its amounts with the currency, to a screen reader too.
    assert 'aria-label="Balance over time, from -£0.50 to £0.00"' in page
    assert "lowest -£0.50, highest £0.00." in page
    settlement = staff.get(reverse("club:settlement", args=[session.pk])).content.decode()
    assert "✓ paid by bank transfer" in settlement and "3 transfers, 1 paid" in settlement
    _postings_at_zero()


def test_a_member_pays_the_club_his_fee_in_cash(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="2.00")
    assert [(o.to, o.amount) for o in owing(d.pk)] == [("the club", Decimal("-2.00"))]
    r = staff.post(
        reverse("club:member_payment", args=[d.pk]),
        {"to": "club", "amount": "2.00", "method": "cash", "note": "at the door"},
    )
    assert r.status_code == 302
    assert balance_of(d) == Decimal("0.00")
    assert owing(d.pk) == []
    payment = Posting.objects.filter(kind=Posting.PAYMENT).latest("pk")
    assert payment.memo.endswith("paid the club £2.00 in cash: at the door")
    assert balance_of(CLUB) == Decimal("6.00")  # three fees unpaid
    _postings_at_zero()


@pytest.mark.parametrize(
    ("amount", "error"),
    [
        ("abc", "the amount must be written like 2.50"),
        ("0", "the amount must be at least £0.01"),
        ("0.001", "the amount must be a whole number of £0.01"),
        ("", "This field is required."),
    ],
)
def test_a_bad_payment_is_refused_beside_its_field_and_changes_nothing(
    staff: Client,
    secretary: Member,
    make_members: Callable[[int], list[Member]],
    amount: str,
    error: str,
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members)
    postings = Posting.objects.count()
    r = staff.post(
        reverse("club:member_payment", args=[b.pk]),
        {"to": "club", "amount": amount, "method": "cash"},
    )
    assert r.status_code == 400
    assert error.lower() in field_error(r.content.decode(), "amount").lower()
    assert Posting.objects.count() == postings


def test_paying_more_than_a_transfer_or_someone_elses_is_refused(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members)
    owed = Transfer.objects.get(session=session, payer=b)
    postings = Posting.objects.count()
    r = staff.post(
        reverse("club:member_payment", args=[b.pk]),
        {"to": f"t{owed.pk}", "amount": "0.51", "method": "cash"},
    )
    assert r.status_code == 400 and "at most £0.50" in r.content.decode()
    theirs = Transfer.objects.get(session=session, payer=c)
    r = staff.post(
        reverse("club:member_payment", args=[b.pk]),
        {"to": f"t{theirs.pk}", "amount": "0.10", "method": "cash"},
    )
    assert r.status_code == 400 and "is not one of the available choices" in field_error(
        r.content.decode(), "to"
    )
    with pytest.raises(ClubError, match="cash or by bank"):
        record_payment(owed.pk, method="cheque")
    assert Posting.objects.count() == postings
    assert not Transfer.objects.get(pk=owed.pk).paid


def test_whom_a_member_owes_always_sums_to_his_balance(
    secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, players, guest = _evening(secretary, make_members, fee_member="1.00", fee_guest="1.00")
    a = players[0]
    first = Transfer.objects.filter(session=session).first()
    assert first is not None
    record_payment(first.pk)
    record_club_payment(a.pk, Decimal("0.40"), method=Posting.BANK)
    for m in [*players, guest]:
        lines = owing(m.pk)
        assert sum((o.amount for o in lines), Decimal(0)) == balance_of(m), m
    _postings_at_zero()


def test_the_standings_show_money_beside_points_so_a_leader_in_debt_is_explained(
    client: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """Issue 42, item 4: a tops the points (+13) with a balance below nothing (-£1.35):
    the row shows why, his £0.65 from play less his £2.00 table fee."""
    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="2.00")
    record_club_payment(b.pk, Decimal("2.00"))
    client.force_login(a.user)
    rows = client.get(reverse("club:standings")).context["rows"]
    top = rows[0]
    assert (top.member, top.points) == (a, 13)
    assert (top.play, top.fees, top.payments, top.balance) == (
        Decimal("0.65"),
        Decimal("-2.00"),
        Decimal("0.00"),
        Decimal("-1.35"),
    )
    for r in rows:  # with no dates chosen, the columns add up to the balance
        assert r.play + r.fees + r.payments == r.balance, r.member
    paid = next(r for r in rows if r.member == b)
    assert (paid.payments, paid.balance) == (Decimal("2.00"), Decimal("-0.50"))
    page = client.get(reverse("club:standings")).content.decode()
    assert "Money from play" in page and "add up to the balance now" in page


def test_the_full_statement_lists_evenings_deals_fees_payments_and_adjustments_with_a_running_balance(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """Issue 42, item 4: b's statement, in order: his deal (table and line named), the
    evening's balancing, its fee, a correction's adjustment naming line and reason, a
    part payment; the balance after each; a second evening's deal not yet money."""
    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="1.00")
    first = session.tables.get().lines.get(number=1)
    correct_line(
        first.pk,
        reason="b held 4",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 4, c.pk: 3, d.pk: 0}),
    )
    owed = Transfer.objects.filter(session=session, payer=b, payment__isnull=True).get()
    record_payment(owed.pk, amount=Decimal("0.10"))
    later = open_session(stake=Decimal("0.10"), by=secretary.user, name="Thursday")
    for m in (a, b):
        check_in(later, m)
    table = form_table(later, variant="conquian", size=2, mode=Table.PHYSICAL)
    enter_physical_result(table.pk, PhysicalResult(winner_id=b.pk, losses={a.pk: 1}))
    r = staff.get(reverse("club:member_statement", args=[b.pk]))
    assert r.status_code == 200
    lines = r.context["lines"]
    assert [(x.table, x.points, x.amount, x.running) for x in lines] == [
        ("Table 1", -10, None, None),
        ("", None, Decimal("-0.50"), Decimal("-0.50")),
        ("", None, Decimal("-1.00"), Decimal("-1.50")),
        ("Table 1", 10, None, None),
        ("Table 1", -4, None, None),
        ("", None, Decimal("0.30"), Decimal("-1.20")),
        ("", None, Decimal("0.10"), Decimal("-1.10")),
    ]
    assert all(x.evening == str(session) for x in lines[:6])
    assert lines[0].text == "line 1, deal"
    assert "your -10 points at £0.05" in lines[1].text
    assert lines[2].text.endswith("table fee")
    assert lines[3].text == "line 2, reversing line 1: b held 4"
    assert lines[4].text == "line 3, correcting line 1: b held 4"
    assert "line 1 corrected after balancing: b held 4" in lines[5].text
    assert "paid" in lines[6].text and "£0.10 in cash" in lines[6].text
    assert lines[-1].running == balance_of(b)
    (pending,) = r.context["pending"]
    assert (pending.evening, pending.table, pending.points) == ("Thursday", "Table 1", 1)
    text = r.content.decode()
    assert "not balanced yet" in text and "-£1.10" in text


def test_the_evening_on_paper_has_a_page_for_each_table_with_its_washbook_and_money(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """Issue 42, item 6: one A4 page a table (the print CSS breaks after each)."""
    session, (a, b, c, d), _ = _evening(secretary, make_members)
    body = staff.get(reverse("club:session_print", args=[session.pk])).content.decode()
    assert body.count('class="card print-page"') == 1
    assert f"{session} · Table 1" in body
    for name, points, money in ((a, 13, "£0.65"), (b, -10, "-£0.50"), (c, -3, "-£0.15")):
        assert (
            f'<td>{name}</td><td class="num">{points:+d}</td><td class="num">{money}</td>' in body
        )
    # The page breaks (and the A4 size) are the print CSS's: the browser test prints it.
    assert 'class="card no-print"' in body and "Checked by" in body


def test_a_waived_fee_is_not_charged_and_the_others_are(
    secretary: Member, make_members: Callable[[int], list[Member]], staff: Client
) -> None:
    """The secretary waives a fee from the console, saying why (a member who checked in
    and left before playing); the balancing charges the others only, the posting still
    sums to zero, and the waiver is in the audit with its reason."""
    from club.models import AuditEntry

    session = open_session(stake=Decimal("0.05"), by=secretary.user, fee_member="2.00")
    a, b, gone = make_members(3)
    for m in (a, b, gone):
        check_in(session, m)
    check_out(session, gone)
    console = staff.get(reverse("club:console", args=[session.pk])).content.decode()
    assert 'id="fees-h"' in console and "no deal played" in console
    url = reverse("club:arrival_fee", args=[session.pk, gone.pk])
    # Without a reason: refused, nothing changed.
    r = staff.post(url, {"waive": "1", "why": "  "}, headers={"HX-Request": "true"})
    assert r.status_code == 400 and "Say why the fee is waived" in r.content.decode()
    assert not session.arrivals.get(member=gone).fee_waived
    r = staff.post(
        url, {"waive": "1", "why": "left before playing"}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200
    body = r.content.decode()
    assert f"{gone.display_name}&#x27;s table fee (£2.00) waived" in body
    assert "left before playing" in body and "Charge the fee" in body
    # the evening's fees were audited when it opened; the waiver is the latest fee entry
    entry = AuditEntry.objects.filter(action=AuditEntry.FEE, session=session).latest("pk")
    assert entry.why == "left before playing" and entry.actor == secretary.user
    table = form_table(session, variant="conquian", size=2, mode=Table.PHYSICAL)
    enter_physical_result(table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 9}))
    assert close_session(session.pk, queue=False)
    result = balance_session(session.pk)
    assert result.posted and "1 transfer" in result.note  # the note counts its transfers
    legs = dict(
        Posting.objects.get(session=session, kind=Posting.FEE).legs.values_list(
            "account__member_id", "amount"
        )
    )
    assert legs == {a.pk: Decimal("-2.00"), b.pk: Decimal("-2.00"), None: Decimal("4.00")}
    assert balance_of(gone) == 0
    _postings_at_zero()
    # Balanced: the fees are in the books; a waiver now is refused and changes nothing.
    with pytest.raises(ClubError, match="no longer changed"):
        waive_fee(session.pk, a.pk, why="too late")
    assert not session.arrivals.get(member=a).fee_waived


def test_a_fee_charged_again_after_a_waiver_is_charged(
    secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session = open_session(stake=Decimal("0.05"), by=secretary.user, fee_guest="3.00")
    (a,) = make_members(1)
    check_in(session, a)
    guest = add_newcomer(session, "Gus Guest", guest=True)
    waive_fee(session.pk, guest.pk, why="a first visit")
    with pytest.raises(ClubError, match="already waived"):
        waive_fee(session.pk, guest.pk, why="again")
    assert fees_due(session) == {}  # a member's fee is nil this evening
    waive_fee(session.pk, guest.pk, waived=False)
    assert fees_due(session) == {guest.pk: Decimal("3.00")}
    arrival = session.arrivals.get(member=guest)
    assert not arrival.fee_waived and arrival.fee_waived_why == ""
    with pytest.raises(ClubError, match="did not check in"):
        waive_fee(session.pk, secretary.pk, why="not here")


def test_an_evening_without_fees_has_nothing_to_waive(
    session: ClubSession, make_members: Callable[[int], list[Member]], staff: Client
) -> None:
    (a,) = make_members(1)
    check_in(session, a)
    with pytest.raises(ClubError, match="no table fees"):
        waive_fee(session.pk, a.pk, why="nothing to waive")
    assert (
        'id="fees-h"' not in staff.get(reverse("club:console", args=[session.pk])).content.decode()
    )


def test_standings_over_dates_count_a_payment_on_the_day_it_was_made(
    client: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """A payment to the club has no evening: it dropped out of the standings as soon as
    dates were chosen. A payment counts on its own day; play and fees on the evening's."""
    import datetime

    from django.utils import timezone

    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="2.00")
    evening_day = timezone.localdate(session.opened_at)
    later = evening_day + datetime.timedelta(days=9)
    club = record_club_payment(b.pk, Decimal("2.00"))
    transfer = Transfer.objects.filter(session=session, payer=b).first()
    paid = record_payment(transfer.pk)
    day_of = timezone.make_aware(datetime.datetime.combine(later, datetime.time(20)))
    Posting.objects.filter(pk__in=[club.pk, paid.payment_id]).update(created_at=day_of)
    client.force_login(a.user)

    def row(member: Member, since: datetime.date, until: datetime.date) -> Any:
        rows = client.get(
            reverse("club:standings"), {"since": since.isoformat(), "until": until.isoformat()}
        ).context["rows"]
        return next(r for r in rows if r.member == member)

    on_the_evening = row(b, evening_day, evening_day)
    assert (on_the_evening.play, on_the_evening.fees) == (Decimal("-0.50"), Decimal("-2.00"))
    assert on_the_evening.payments == 0  # paid nine days later
    on_the_day_paid = row(b, later, later)
    assert (on_the_day_paid.play, on_the_day_paid.fees) == (0, 0)
    assert on_the_day_paid.payments == Decimal("2.00") + transfer.amount
    both = row(b, evening_day, later)
    assert both.play + both.fees + both.payments == both.balance  # every posting in range


def test_each_money_service_writes_its_audit_entry_in_its_own_transaction(
    secretary: Member, make_members: Callable[[int], list[Member]], monkeypatch: Any
) -> None:
    """Issue 80, item 3: the services own their transactions; the views wrote the audit
    entry, each in a transaction of its own, so a service called elsewhere left none."""
    from club.models import AuditEntry
    from club.services import audit

    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="2.00")
    pay = record_club_payment(d.pk, Decimal("2.00"), note="at the door", by=secretary.user)
    refund_to = record_club_payment(c.pk, Decimal("5.00"), credit=True, by=secretary.user)
    refund = record_refund(c.pk, Decimal("3.00"), note="cash back", by=secretary.user)
    reversal = reverse_payment(pay.pk, reason="typed twice", by=secretary.user)
    # the evening's opening, fees and result are audited too
    money = AuditEntry.objects.filter(
        action__in=(AuditEntry.PAYMENT, AuditEntry.REFUND, AuditEntry.REVERSAL)
    )
    said = list(money.order_by("pk").values_list("action", "what", "why", "actor"))
    assert said == [
        (AuditEntry.PAYMENT, pay.memo, "at the door", secretary.user.pk),
        (AuditEntry.PAYMENT, refund_to.memo, "", secretary.user.pk),
        (AuditEntry.REFUND, refund.memo, "cash back", secretary.user.pk),
        (AuditEntry.REVERSAL, reversal.memo, "typed twice", secretary.user.pk),
    ]

    # the entry or nothing: a payment whose entry cannot be written is not recorded
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the audit log is down")

    monkeypatch.setattr(audit, "record", broken)
    postings, before = Posting.objects.count(), balance_of(b)
    with pytest.raises(RuntimeError):
        record_club_payment(b.pk, Decimal("2.00"), by=secretary.user)
    assert Posting.objects.count() == postings
    assert balance_of(b) == before


def test_an_evenings_fee_table_says_whether_that_evenings_fee_was_paid(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """Issue 81, item 4: an old evening's fee table showed "Owed now", today's total over
    every evening, so a fee paid long ago read as owed. Each fee now shows as paid, part
    paid or unpaid for its own evening, payments to the club laid on the oldest fees
    first; today's total is labelled as such."""
    from club.services.payments import fee_standings

    first, (a, b, c, d), guest = _evening(secretary, make_members, fee_member="2.00")
    second = open_session(stake=Decimal("0.05"), by=secretary.user, fee_member="3.00")
    check_in(second, d)
    assert close_session(second.pk, queue=False) and balance_session(second.pk).posted
    record_club_payment(d.pk, Decimal("3.00"))  # the first fee, and 1.00 of the second
    record_club_payment(c.pk, Decimal("1.50"))  # part of the first
    record_club_payment(b.pk, Decimal("2.00"))
    reverse_payment(Posting.objects.filter(kind=Posting.PAYMENT).latest("pk").pk, reason="bounced")
    standings = fee_standings([b.pk, c.pk, d.pk])
    assert [(f.session_id, f.fee, f.paid, f.state) for f in standings[d.pk]] == [
        (first.pk, Decimal("2.00"), Decimal("2.00"), "paid"),
        (second.pk, Decimal("3.00"), Decimal("1.00"), "part paid"),
    ]
    assert [f.state for f in standings[c.pk]] == ["part paid"]
    assert [f.state for f in standings[b.pk]] == ["unpaid"]  # its payment was reversed

    def row(page: str, member: Member) -> str:
        cells = page.split("Table fees to the club")[1].split(member.display_name, 1)[1]
        return " ".join(cells.split("</tr>")[0].split())

    page = staff.get(reverse("club:settlement", args=[first.pk])).content.decode()
    assert "Owes the club today, all evenings" in page and "Owed now" not in page
    assert "paid in full" in row(page, d) and "£2.00" in row(page, d)  # today: 2.00 of the second
    assert "part paid: £1.50, £0.50 to pay" in row(page, c)
    assert "unpaid" in row(page, b)
    page = staff.get(reverse("club:settlement", args=[second.pk])).content.decode()
    assert "part paid: £1.00, £2.00 to pay" in row(page, d)
    _postings_at_zero()
