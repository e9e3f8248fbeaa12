"""Money a treasurer can live with (issue 42, acceptance), in Debian's Chromium.

The secretary closes an evening (the real Celery worker balances it, table fees and all),
records part of one member's payment in cash, opens the next evening and sees the unpaid
rest carried forward at check-in and on the console; downloads the washbook CSV and the
member-balances CSV, a member named ``=1+1`` coming out escaped; and prints the evening,
one A4 page a table.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from club.models import AuditEntry, ClubSession, Posting, Table, Transfer
from club.services.base import create_member
from club.services.ledger import balance_of
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

from .conftest import ARTIFACTS, login, wait_balanced

pytestmark = pytest.mark.e2e


def _text(page: Any, selector: str = "main") -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text())


def _download(page: Any, click: Any) -> str:
    with page.expect_download() as info:
        click()
    path = info.value.path()
    return open(path, encoding="utf-8").read()


def test_close_pay_part_carry_the_rest_and_export_the_books(
    live: dict[str, Any], browser: Any
) -> None:
    url = live["url"]
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    ann, bob, eq, dan, eve, fay = (
        create_member(u, n)
        for u, n in [("ann", "Ann"), ("bob", "Bob"), ("eq", "=1+1"), ("dan", "Dan"),
                     ("eve", "Eve"), ("fay", "Fay")]
    )  # fmt: skip
    monday = open_session(stake="0.05", by=secretary.user, name="Monday", fee_member="1.00")
    for m in (ann, bob, eq, dan, eve, fay):
        check_in(monday, m)
    foster = form_table(
        monday, variant="foster", size=4, mode=Table.PHYSICAL, candidates=[ann, bob, eq, dan]
    )
    # Ann out: Bob 10, =1+1 3, Dan 0; then Dan out: Ann 7, Bob 2, =1+1 9.
    enter_physical_result(
        foster.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 10, eq.pk: 3, dan.pk: 0})
    )
    enter_physical_result(
        foster.pk, PhysicalResult(winner_id=dan.pk, losses={ann.pk: 7, bob.pk: 2, eq.pk: 9})
    )
    conquian = form_table(
        monday, variant="conquian", size=2, mode=Table.PHYSICAL, candidates=[eve, fay]
    )
    enter_physical_result(conquian.pk, PhysicalResult(winner_id=eve.pk, losses={fay.pk: 1}))

    desk = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    login(desk, url, secretary)
    page = desk.new_page()

    # Close and balance: the worker posts the evening's money and its table fees.
    page.goto(url + reverse("club:session_close_confirm", args=[monday.pk]))
    page.get_by_role("button", name="Close and balance").click()
    wait_balanced(monday)
    assert Posting.objects.filter(session=monday, kind=Posting.FEE).count() == 1
    # Bob: -12 points at £0.05 = -£0.60, less his £1.00 fee: -£1.60.
    assert balance_of(bob) == Decimal("-1.60")
    bobs = list(Transfer.objects.filter(session=monday, payer=bob).order_by("-amount", "pk"))
    assert sum(t.amount for t in bobs) == Decimal("0.60")
    owed = bobs[0]
    rest = owed.amount - Decimal("0.25")
    assert rest > 0

    # Bob pays £0.25 of one transfer in cash, recorded from his page.
    page.goto(url + reverse("club:member", args=[bob.pk]))
    assert "Owes and is owed" in _text(page)
    page.select_option("#id_to", f"t{owed.pk}")
    page.fill("#id_amount", "0.25")
    page.select_option("#id_method", "cash")
    page.get_by_role("button", name="Record the payment").click()
    page.wait_for_selector("text=Recorded: Bob paid £0.25.")
    owing = _text(page, "#owing")
    assert f"Pays {owed.payee} for Monday £{rest}" in owing and "Pays the club £1.00" in owing
    assert balance_of(bob) == Decimal("-1.35")
    page.screenshot(path=str(ARTIFACTS / "money-member-owing.png"), full_page=True)

    # The settlement shows the part paid and the rest still to pay.
    page.goto(url + reverse("club:settlement", args=[monday.pk]))
    settlement = _text(page)
    assert "✓ paid in cash" in settlement and "1 paid" in settlement

    # The next evening: Bob's unpaid rest is told at check-in and on the console.
    page.goto(url + reverse("club:sessions"))
    page.fill("#id_name", "Tuesday")
    page.fill("#id_stake", "0.05")
    page.get_by_role("button", name=re.compile("Open")).click()
    page.wait_for_url("**/sessions/*/")
    tuesday = ClubSession.objects.get(name="Tuesday")
    page.goto(url + reverse("club:console", args=[tuesday.pk]))
    # ... and on the tick list before he is ticked (issue 56).
    page.get_by_label("Bob (owes £1.35)", exact=True).check()
    page.get_by_role("button", name="Check in", exact=True).click()
    page.wait_for_selector("#fold-checkin [data-said]:has-text('Checked in')")
    assert "Checked in: Bob (owes £1.35 from past evenings)." in _text(
        page, "#fold-checkin [data-said]"
    )
    assert "Carried from past evenings" in _text(page) and "Bob owes £1.35" in _text(page)
    page.screenshot(path=str(ARTIFACTS / "money-carried-at-check-in.png"), full_page=True)

    # Both CSVs: every cell a spreadsheet would read as a formula comes out escaped.
    page.goto(url + reverse("club:session_washbook", args=[monday.pk]))
    washbook = _download(page, lambda: page.get_by_role("link", name="CSV").click())
    rows = list(csv.reader(io.StringIO(washbook)))
    header = rows[0]
    assert "'=1+1 +" in header and "=1+1 +" not in header and "Dan +" in header
    assert {"date", "table", "dealer", "winner", "notes"} <= {h.lower() for h in header}
    assert not any(c.startswith(("=", "+", "@")) for row in rows for c in row if c)
    page.goto(url + reverse("club:members"))
    balances = _download(
        page, lambda: page.get_by_role("link", name="Download the balances (CSV)").click()
    )
    by_name = {r[0]: r for r in csv.reader(io.StringIO(balances))}
    assert "'=1+1" in by_name and "=1+1" not in by_name
    assert "-1.35" in by_name["Bob"]
    assert (
        by_name["the club's own account"]
        and by_name[next(k for k in by_name if k.startswith("total"))][-1] == "0.00"
    )

    # The evening on paper: one A4 page per table.
    page.goto(url + reverse("club:session_print", args=[monday.pk]))
    assert _text(page).count("Checked by") == 2
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=True)
    (ARTIFACTS / "money-evening-on-paper.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2

    # The secretary's actions are in the audit log, with who did them.
    page.goto(url + reverse("club:audit"))
    audit = _text(page)
    paid = f"Bob paid {owed.payee} £0.25 in cash"
    for what in ("Closed Monday", paid, "Opened Tuesday", "Checked in: Bob"):
        assert what in audit, what
    assert AuditEntry.objects.filter(actor=secretary.user).count() >= 4
    desk.close()
