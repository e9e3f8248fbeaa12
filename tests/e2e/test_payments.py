"""Payments a treasurer can correct (issue 53, acceptance), in Debian's Chromium on the
stack `make run` starts (pages, the live-update server, the Celery worker).

The secretary, on a phone, is refused a payment to the club far above what the member
owes (and told what he owes), records one with "credit on account", reverses it as a
mistake with a reason, records the right one, then a credit the club pays back as a
refund. The member's own statement shows each line, and the books sum to zero.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Sum
from django.urls import reverse

from club.models import AuditEntry, Leg, Posting, Table
from club.services.base import create_member
from club.services.ledger import balance_of, balance_session, verify_balances
from club.services.payments import owing
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

from .conftest import ARTIFACTS, login

pytestmark = pytest.mark.e2e


def _text(page: Any, selector: str = "main") -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text())


def _pay(page: Any, amount: str, *, credit: bool = False) -> None:
    form = page.locator("form[action$='/payments/']")
    form.get_by_label("Paid to").select_option(label="the club (table fees)")
    form.get_by_label("Amount").fill(amount)
    if credit:
        form.get_by_label("Credit on account").check()
    form.get_by_role("button", name="Record the payment").click()


def test_a_payment_by_mistake_is_reversed_and_a_credit_refunded(
    live: dict[str, Any], browser: Any
) -> None:
    url = live["url"]
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    ann, bob, cat, dan = (create_member(u, u.title()) for u in ("ann", "bob", "cat", "dan"))
    evening = open_session(stake="0.05", by=secretary.user, name="Friday", fee_member="1.00")
    for m in (ann, bob, cat, dan):
        check_in(evening, m)
    table = form_table(evening, variant="foster", size=4, mode=Table.PHYSICAL)
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 2, cat.pk: 1, dan.pk: 0})
    )
    assert close_session(evening.pk, queue=False)
    assert balance_session(evening.pk).posted
    assert balance_of(dan) == Decimal("-1.00")  # his fee; he won and lost nothing

    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    login(phone, url, secretary)
    page = phone.new_page()
    page.goto(url + reverse("club:member", args=[dan.pk]))

    # £100,000 typed for £1: refused beside the amount, saying what he owes.
    _pay(page, "100000")
    error = page.locator("#id_amount_error")
    assert "Dan owes the club £1.00: a payment of £100,000.00 is more" in error.inner_text()
    assert not Posting.objects.filter(kind=Posting.PAYMENT).exists()
    # £5 "on account" recorded, by mistake (he handed over £1).
    _pay(page, "5", credit=True)
    page.wait_for_url(re.compile(r"/members/\d+/$"))
    assert "Recorded: Dan paid £5.00." in _text(page, ".messages")
    assert balance_of(dan) == Decimal("4.00")
    mistake = Posting.objects.get(kind=Posting.PAYMENT)

    # Reversed, with a reason, from the payment's line.
    line = page.locator("details.reverse").first
    line.locator("summary").click()
    line.get_by_label("Why is it reversed?").fill("he handed over £1, not £5")
    line.get_by_role("button", name=re.compile("Reverse this payment")).click()
    page.wait_for_url(re.compile(r"/members/\d+/$"))
    assert "Reversed: Dan paid the club £5.00 in cash" in _text(page, ".messages")
    assert Posting.objects.get(kind=Posting.REVERSAL).reverses == mistake
    assert "Dan paid the club £5.00 in cash (£4.00 on account) reversed" in _text(page)
    assert balance_of(dan) == Decimal("-1.00")

    # The right payment, then £3 more on account, of which the club pays £2 back.
    _pay(page, "1.00")
    page.wait_for_url(re.compile(r"/members/\d+/$"))
    assert balance_of(dan) == Decimal("0.00")
    _pay(page, "3", credit=True)
    page.wait_for_url(re.compile(r"/members/\d+/$"))
    assert "The club owes Dan £3.00" in _text(page)
    refund = page.locator("form[action$='/refunds/']")
    refund.get_by_label("Amount").fill("3.00")
    refund.get_by_label("Note").fill("change given back")
    refund.get_by_role("button", name="Record the refund").click()
    page.wait_for_url(re.compile(r"/members/\d+/$"))
    assert "Recorded: the club paid Dan £3.00." in _text(page, ".messages")
    assert "Pay back Dan's credit" not in _text(page)  # nothing left to refund
    assert balance_of(dan) == Decimal("0.00") and owing(dan.pk) == []
    page.screenshot(path=str(ARTIFACTS / "payment-reversed-phone.png"), full_page=True)

    # Dan's own statement shows every line, and his balance is nothing.
    mine = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    login(mine, url, dan)
    own = mine.new_page()
    own.goto(url + reverse("club:member_statement", args=[dan.pk]))
    statement = _text(own)
    for said in (
        "Friday: table fee",
        "Dan paid the club £5.00 in cash (£4.00 on account)",
        "Reversed: Dan paid the club £5.00 in cash (£4.00 on account) "
        "(why: he handed over £1, not £5)",
        "Dan paid the club £1.00 in cash",
        "Dan paid the club £3.00 in cash (£3.00 on account)",
        "The club refunded Dan £3.00 in cash: change given back",
    ):
        assert said in statement, said
    # Members see no way to reverse anything.
    own.goto(url + reverse("club:member", args=[dan.pk]))
    assert own.locator("details.reverse").count() == 0

    # The books: every posting sums to zero, and so does the whole ledger.
    assert not Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0).exists()
    assert Leg.objects.aggregate(s=Sum("amount"))["s"] == 0
    assert verify_balances() == []
    assert [e.action for e in AuditEntry.objects.order_by("pk")][-5:] == [
        AuditEntry.PAYMENT,
        AuditEntry.REVERSAL,
        AuditEntry.PAYMENT,
        AuditEntry.PAYMENT,
        AuditEntry.REFUND,
    ]
