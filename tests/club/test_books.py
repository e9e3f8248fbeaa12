"""Books nobody can bend (issue 53): the admin is a window, not a way round the services;
the database keeps an evening's stake and fees; a payment is reversed, never edited; the
club pays a member's credit back; a payment to the club above what he owes is refused."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from club.models import (
    Arrival,
    AuditEntry,
    ClubSession,
    Leg,
    Member,
    Posting,
    Seat,
    Table,
    Transfer,
    WashbookLine,
)
from club.services.base import ClubError
from club.services.ledger import balance_of, verify_balances, waive_fee
from club.services.mistakes import void_table
from club.services.payments import (
    owing,
    record_club_payment,
    record_payment,
    record_refund,
    with_club,
)
from club.services.sessions import check_in, close_session, open_session, void_session
from club.services.tables import form_table
from club.services.washbook import correct_line, enter_physical_result
from games.models import Deal

from .conftest import field_error
from .test_payments import _evening

pytestmark = pytest.mark.django_db


def _books_at_zero() -> None:
    sums = Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0)
    assert not sums.exists(), list(sums)
    assert verify_balances() == []
    assert Leg.objects.aggregate(s=Sum("amount"))["s"] in (None, Decimal(0))


# --- 1. The admin is read-only for the club's rows -----------------------------------


def _admin_change(staff: Client, model: str, pk: int, data: dict[str, object]) -> int:
    return staff.post(reverse(f"admin:{model}_change", args=[pk]), data).status_code


def test_the_admin_changes_no_evening_table_washbook_or_money_row(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """As the secretary: saving `stake = -2.5` on a balanced evening in the admin once
    made a later correction credit a winner at -£2.50 a point. Now every form of the
    club's rows is read-only: its page shows, a save is refused and changes nothing."""
    session, players, _ = _evening(secretary, make_members, fee_member="1.00")
    table = Table.objects.get(session=session)
    before = ClubSession.objects.filter(pk=session.pk).values().get()
    rows = {
        "club_clubsession": session.pk,
        "club_table": table.pk,
        "club_washbookline": WashbookLine.objects.filter(table=table).first().pk,  # type: ignore[union-attr]
        "club_posting": Posting.objects.first().pk,  # type: ignore[union-attr]
        "club_transfer": Transfer.objects.first().pk,  # type: ignore[union-attr]
        "club_substitution": None,
        "club_redrawdemand": None,
    }
    for model, pk in rows.items():
        if pk is None:
            continue
        page = staff.get(reverse(f"admin:{model}_change", args=[pk]))
        assert page.status_code == 200, model
        assert 'type="submit"' not in page.content.decode().split('id="content-main"')[1], model
        status = _admin_change(
            staff, model, pk, {"stake": "-2.5", "fee_member": "-3", "amount": "9", "size": 2}
        )
        assert status == 403, (model, status)
        assert staff.get(reverse(f"admin:{model}_add")).status_code == 403, model
        assert staff.post(reverse(f"admin:{model}_delete", args=[pk])).status_code == 403
    assert ClubSession.objects.filter(pk=session.pk).values().get() == before
    # The table's options, evening and computer players likewise (listed in the issue).
    assert (
        _admin_change(
            staff,
            "club_table",
            table.pk,
            {"options": "{}", "session": "", "had_computer_players": "on"},
        )
        == 403
    )
    assert Table.objects.get(pk=table.pk).session_id == session.pk
    # Seats and arrivals show read-only inside their table and evening.
    assert Seat.objects.filter(table=table).count() == 4
    assert Arrival.objects.filter(session=session).count() == 5
    _books_at_zero()


def test_a_deal_is_read_only_in_the_admin(staff: Client, secretary: Member) -> None:
    from games.admin import DealAdmin

    admin = DealAdmin(Deal, __import__("django.contrib.admin").contrib.admin.site)
    request = staff.get("/").wsgi_request
    request.user = secretary.user
    assert not admin.has_change_permission(request) and not admin.has_add_permission(request)
    assert not admin.has_delete_permission(request)


def test_a_members_own_details_are_edited_in_the_admin_and_audited(
    staff: Client, make_members: Callable[[int], list[Member]]
) -> None:
    (m,) = make_members(1)
    url = reverse("admin:club_member_change", args=[m.pk])
    r = staff.post(url, {"display_name": "  Ann   Able ", "active": "on"})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.display_name == "Ann Able"
    entry = AuditEntry.objects.latest("pk")
    assert (entry.action, entry.what) == (
        AuditEntry.MEMBER,
        "Member Ann Able edited in the admin: display_name",
    )
    # A name with a hidden character, or a computer player's, is refused as on the
    # Members page; nothing changes.
    for bad in ("Eve\u202e", "Bot Alfa"):
        r = staff.post(url, {"display_name": bad, "active": "on"})
        assert r.status_code == 200 and "errornote" in r.content.decode(), bad
    m.refresh_from_db()
    assert m.display_name == "Ann Able"
    # Being a guest or a computer player changes what he is charged: not edited here.
    staff.post(url, {"display_name": "Ann Able", "active": "on", "is_guest": "on"})
    m.refresh_from_db()
    assert not m.is_guest and not m.is_bot


# --- 1. ...and the database keeps what money depends on ------------------------------


def _sql(statement: str, *params: object) -> None:
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(statement, params)


@pytest.mark.parametrize(
    ("column", "value"),
    [("stake", "-2.5"), ("stake", "0"), ("fee_member", "-3"), ("fee_guest", "-0.01")],
)
def test_the_database_refuses_a_stake_of_nothing_or_a_negative_fee(
    session: ClubSession, column: str, value: str
) -> None:
    with pytest.raises(IntegrityError):
        _sql(f"UPDATE club_clubsession SET {column} = %s WHERE id = %s", value, session.pk)
    session.refresh_from_db()
    assert session.stake == Decimal("0.05") and session.fee_member == 0


def test_the_database_fixes_the_stake_and_fees_once_the_evening_has_a_table(
    secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session = open_session(stake=Decimal("0.05"), by=secretary.user)
    # Before any table: the terms may still change (nothing depends on them yet).
    _sql("UPDATE club_clubsession SET stake = 0.10 WHERE id = %s", session.pk)
    players = make_members(4)
    for m in players:
        check_in(session, m)
    form_table(session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=players)
    for column, value in (("stake", "0.20"), ("fee_member", "1.00"), ("fee_guest", "2.00")):
        with pytest.raises(IntegrityError, match="fixed once it has a table"):
            _sql(f"UPDATE club_clubsession SET {column} = %s WHERE id = %s", value, session.pk)
    # Anything else about the evening still changes (its name, its status).
    _sql("UPDATE club_clubsession SET name = 'Renamed' WHERE id = %s", session.pk)
    session.refresh_from_db()
    assert (session.stake, session.name) == (Decimal("0.10"), "Renamed")


# --- 2. Payments a treasurer can correct ----------------------------------------------


def test_a_payment_to_the_club_above_what_he_owes_is_refused_with_what_he_owes(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """A member owing the club £1 was recorded as paying £100,000: his balance read
    +£99,999 owed by the club, for good."""
    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="1.00")
    url = reverse("club:member_payment", args=[d.pk])
    before = list(Posting.objects.values_list("pk", flat=True))
    r = staff.post(url, {"to": "club", "amount": "100000", "method": "cash"})
    assert r.status_code == 400
    error = field_error(r.content.decode(), "amount")
    assert "owes the club £1.00: a payment of £100,000.00 is more" in error
    # One who owes the club nothing (his fee paid; his debts are to members) is told so.
    record_club_payment(a.pk, Decimal("1.00"))
    before = list(Posting.objects.values_list("pk", flat=True))
    r = staff.post(
        reverse("club:member_payment", args=[a.pk]), {"to": "club", "amount": "5", "method": "cash"}
    )
    assert (
        "Player 0 owes the club nothing: what Player 0 owes members is paid to them"
        in field_error(r.content.decode(), "amount")
    )
    assert list(Posting.objects.values_list("pk", flat=True)) == before
    assert balance_of(d) == Decimal("-1.00")
    # Ticked "credit on account", the rest is kept as the club's debt to him.
    r = staff.post(url, {"to": "club", "amount": "5.00", "method": "cash", "credit": "on"})
    assert r.status_code == 302
    assert balance_of(d) == Decimal("4.00")
    assert with_club(d.pk) == Decimal("4.00")
    assert Posting.objects.latest("pk").memo.endswith("(£4.00 on account)")
    _books_at_zero()


def test_a_refund_clears_a_credit_and_no_more(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="1.00")
    record_club_payment(d.pk, Decimal("3.00"), credit=True)
    page = staff.get(reverse("club:member", args=[d.pk])).content.decode()
    assert "s credit</h3>" in page and "Pay back " in page and "The club owes" in page
    url = reverse("club:member_refund", args=[d.pk])
    r = staff.post(url, {"refund-amount": "2.01", "refund-method": "cash"})
    assert r.status_code == 400
    assert "The club owes Player 3 £2.00: a refund is at most that" in field_error(
        r.content.decode(), "refund-amount"
    )
    assert balance_of(d) == Decimal("2.00")
    r = staff.post(
        url,
        {"refund-amount": "2.00", "refund-method": "bank", "refund-note": "by bank\x07 to him"},
    )
    assert r.status_code == 302
    assert balance_of(d) == Decimal("0.00") and owing(d.pk) == []
    refund = Posting.objects.latest("pk")
    assert refund.kind == Posting.REFUND
    assert refund.memo == "The club refunded Player 3 £2.00 by bank transfer: by bank to him"
    entry = AuditEntry.objects.latest("pk")
    assert (entry.action, entry.why) == (AuditEntry.REFUND, "by bank to him")
    with pytest.raises(ClubError, match="a refund is at most that"):
        record_refund(d.pk, Decimal("0.01"))
    _books_at_zero()


def test_a_payment_recorded_by_mistake_is_reversed_and_the_statement_shows_both(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="1.00")
    payment = record_club_payment(d.pk, Decimal("1.00"))
    assert balance_of(d) == Decimal("0.00")
    page = staff.get(reverse("club:member", args=[d.pk])).content.decode()
    assert reverse("club:payment_reverse", args=[payment.pk]) in page
    url = reverse("club:payment_reverse", args=[payment.pk])
    # A reason is needed; a blank one (or only hidden characters) changes nothing.
    for blank in ("", " \u200b "):
        assert staff.post(url, {"reason": blank}).status_code == 400
    assert not Posting.objects.filter(kind=Posting.REVERSAL).exists()
    r = staff.post(url, {"reason": "he paid\x1b nothing yet"})
    assert r.status_code == 302 and r["Location"] == reverse("club:member", args=[d.pk])
    reversal = Posting.objects.get(kind=Posting.REVERSAL)
    assert reversal.reverses == payment
    assert reversal.memo == (
        "Reversed: Player 3 paid the club £1.00 in cash (why: he paid nothing yet)"
    )
    assert balance_of(d) == Decimal("-1.00")
    assert [(o.to, o.amount) for o in owing(d.pk)] == [("the club", Decimal("-1.00"))]
    entry = AuditEntry.objects.latest("pk")
    assert (entry.action, entry.why) == (AuditEntry.REVERSAL, "he paid nothing yet")
    # Once only; the page offers no second reversal.
    assert staff.post(url, {"reason": "again"}).status_code == 400
    assert Posting.objects.filter(kind=Posting.REVERSAL).count() == 1
    page = staff.get(reverse("club:member", args=[d.pk])).content.decode()
    assert url not in page
    statement = staff.get(reverse("club:member_statement", args=[d.pk])).content.decode()
    assert "Player 3 paid the club £1.00 in cash" in statement
    assert "Reversed: Player 3 paid the club £1.00 in cash" in statement
    # A reversal, a fee or a balancing is not a payment: never reversed.
    assert (
        staff.post(reverse("club:payment_reverse", args=[reversal.pk]), {"reason": "x"}).status_code
        == 404
    )
    _books_at_zero()


def test_reversing_a_transfers_payment_leaves_the_transfer_owed_again(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members)
    owed = Transfer.objects.get(session=session, payer=b)
    record_payment(owed.pk)
    assert balance_of(b) == 0
    owed.refresh_from_db()
    assert owed.payment is not None
    r = staff.post(reverse("club:payment_reverse", args=[owed.payment.pk]), {"reason": "bounced"})
    assert r.status_code == 302 and r["Location"] == reverse("club:member", args=[b.pk])
    owed.refresh_from_db()
    assert not owed.paid
    assert balance_of(b) == Decimal("-0.50")
    assert [(o.member, o.amount) for o in owing(b.pk)] == [(a, Decimal("-0.50"))]
    settlement = staff.get(reverse("club:settlement", args=[session.pk])).content.decode()
    assert "3 members won or lost money: 2 transfers." in settlement
    assert "✓ paid" not in settlement
    # It can be paid again, by the settlement as it is.
    record_payment(owed.pk)
    assert balance_of(b) == 0
    _books_at_zero()


def test_a_members_client_cannot_reverse_or_refund(
    client: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    session, (a, b, c, d), _ = _evening(secretary, make_members, fee_member="1.00")
    payment = record_club_payment(d.pk, Decimal("1.00"))
    client.force_login(d.user)
    assert (
        client.post(reverse("club:payment_reverse", args=[payment.pk]), {"reason": "x"}).status_code
        == 403
    )
    assert (
        client.post(reverse("club:member_refund", args=[d.pk]), {"amount": "1"}).status_code == 403
    )
    page = client.get(reverse("club:member", args=[d.pk])).content.decode()
    assert "Reverse" not in page
    assert not Posting.objects.filter(kind__in=[Posting.REVERSAL, Posting.REFUND]).exists()


# --- 3. One strict parser for the numbers a request carries ---------------------------


def test_digits_that_are_not_ascii_are_a_400_or_a_message_never_a_500(
    client: Client, staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """'²'.isdigit() is True and int('²') raises: each of these answered 500, some to
    anonymous visitors."""
    session, _, _ = _evening(secretary, make_members)
    transfer = Transfer.objects.filter(session=session).first()
    assert transfer is not None
    for odd in ("²", "٣", "9" * 25, "-1", "1.0", " 1"):
        assert (
            client.get(reverse("games:rules_variant", args=["foster"]), {"table": odd}).status_code
            == 200
        )
        assert staff.get(reverse("club:audit"), {"session": odd}).status_code == 404, odd
        assert staff.get(reverse("club:house_rules"), {"edit": odd}).status_code == 404, odd
        r = staff.post(reverse("club:transfer_pay", args=[10**9]), {"session": odd})
        assert r.status_code == 404, odd
        r = staff.post(reverse("games:practice"), {"variant": "tonk", "house_rules": odd})
        assert r.status_code == 400, odd
        assert "not the club" in r.content.decode()
        r = staff.post(reverse("games:practice"), {"variant": "tonk", "players": odd})
        assert r.status_code == 400, odd
    # A payment's amount: an exponent or a huge number is told beside the field.
    transfer_url = reverse("club:member_payment", args=[transfer.payer_id])
    for odd in ("1e30", "9" * 19, "NaN", "-Infinity", "١٠"):
        r = staff.post(transfer_url, {"to": f"t{transfer.pk}", "amount": odd, "method": "cash"})
        assert r.status_code == 400, odd
        assert "must be written like 2.50" in field_error(r.content.decode(), "amount"), odd
    assert not Transfer.objects.filter(session=session, payment__isnull=False).exists()


# --- 7. Every free-text reason is cleaned of hidden characters ------------------------


def test_every_free_text_reason_is_cleaned_of_characters_that_do_not_show(
    secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    """A fee waiver's reason kept the control characters names are cleaned of (a bell, an
    escape, a right-to-left override): each reason a service keeps is cleaned so."""
    from club.models import Arrival
    from club.services.washbook import PhysicalResult

    dirty = "left\x07 early\x1b[2J \u202eafter\u200b one deal"
    clean = "left early [2J after one deal"
    session = open_session(stake=Decimal("0.05"), by=secretary.user, fee_member="1.00")
    players = make_members(8)
    for m in players:
        check_in(session, m)
    waive_fee(session.pk, players[0].pk, why=dirty)
    assert Arrival.objects.get(session=session, member=players[0]).fee_waived_why == clean
    one = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=players[:4])
    two = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=players[4:])
    for t in (one, two):
        seated = [s.member_id for s in Seat.objects.filter(table=t).order_by("position")]
        enter_physical_result(
            t.pk, PhysicalResult(winner_id=seated[0], losses={m: 3 for m in seated[1:]})
        )
    void_table(two.pk, dirty)
    assert Table.objects.get(pk=two.pk).void_reason == clean
    line = WashbookLine.objects.get(table=one)
    correct_line(line.pk, reason=dirty)
    corrected = WashbookLine.objects.filter(table=one).latest("number")
    assert corrected.detail["reason"] == clean
    assert close_session(session.pk, queue=False, note=dirty)
    assert ClubSession.objects.get(pk=session.pk).close_note == clean
    other = open_session(stake=Decimal("0.05"), by=secretary.user, second=True)
    more = make_members(4)
    for m in more:
        check_in(other, m)
    t = form_table(other, variant="foster", size=4, mode=Table.PHYSICAL, candidates=more)
    seated = [s.member_id for s in Seat.objects.filter(table=t).order_by("position")]
    enter_physical_result(
        t.pk, PhysicalResult(winner_id=seated[0], losses={m: 2 for m in seated[1:]})
    )
    void_session(other.pk, dirty)
    assert ClubSession.objects.get(pk=other.pk).void_reason == clean
