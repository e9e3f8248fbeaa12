"""The treasurer's month in Debian's Chromium (issue 81, acceptance): at 1280 px and on a
360-px phone, the club's account, who owes what and a member's statement for the month,
each printed to PDF and downloaded as CSV, with no console error."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from club.models import ClubSession, Table, Transfer
from club.services.base import create_member
from club.services.ledger import balance_of, balance_session
from club.services.payments import record_club_payment, record_payment
from club.services.sessions import add_newcomer, check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

from .conftest import ARTIFACTS, login

pytestmark = pytest.mark.e2e


def _month() -> dict[str, Any]:
    """Two evenings of November at different stakes and fees, a guest at each; one
    transfer part paid, one fee paid."""
    secretary = create_member("treasurer", "The Treasurer", is_staff=True)
    ann, bob, cat, dan = (create_member(u, n) for u, n in
                          [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat"), ("dan", "Dan")])  # fmt: skip
    evenings = []
    for day, stake, fee, losses in (
        (3, "0.05", "1.00", (10, 3, 0)),
        (10, "0.10", "1.50", (4, 8, 2)),
    ):
        e = open_session(stake=stake, by=secretary.user, fee_member=fee, fee_guest="2.00")
        for m in (ann, bob, cat, dan):
            check_in(e, m)
        add_newcomer(e, f"Guest {day}", guest=True)
        t = form_table(e, variant="foster", size=4, mode=Table.PHYSICAL,
                       candidates=[ann, bob, cat, dan])  # fmt: skip
        enter_physical_result(
            t.pk,
            PhysicalResult(
                winner_id=ann.pk, losses=dict(zip([bob.pk, cat.pk, dan.pk], losses, strict=True))
            ),
        )
        at = timezone.make_aware(dt.datetime(2026, 11, day, 19, 30))
        ClubSession.objects.filter(pk=e.pk).update(opened_at=at)
        assert close_session(e.pk, queue=False) and balance_session(e.pk).posted
        evenings.append(e)
    first = Transfer.objects.filter(session=evenings[0]).order_by("pk").first()
    assert first is not None
    record_payment(first.pk, amount=Decimal("0.10"))
    record_club_payment(bob.pk, Decimal("1.00"))
    return {"secretary": secretary, "ann": ann, "bob": bob, "evenings": evenings}


@pytest.mark.parametrize("width", [1280, 360])
def test_the_treasurer_prints_and_downloads_the_months_books(
    live: dict[str, Any], browser: Any, width: int
) -> None:
    url = live["url"]
    month = _month()
    context = browser.new_context(
        viewport={"width": width, "height": 900}, accept_downloads=True, is_mobile=width < 400
    )
    login(context, url, month["secretary"])
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    november = "since=2026-11-01&until=2026-11-30"
    bob = month["bob"]
    for name, path in (
        ("account", f"{reverse('club:club_account')}?{november}"),
        ("owed", reverse("club:owed")),
        ("statement", f"{reverse('club:member_period_statement', args=[bob.pk])}?{november}"),
    ):
        page.goto(url + path)
        page.screenshot(path=str(ARTIFACTS / f"treasurer-{name}-{width}.png"), full_page=True)
        page.emulate_media(media="print")
        pdf = page.pdf(path=str(ARTIFACTS / f"treasurer-{name}-{width}.pdf"))
        page.emulate_media(media="screen")
        assert pdf.startswith(b"%PDF"), name
        with page.expect_download() as info:
            page.get_by_role("link", name="Download CSV").click()
        text = Path(info.value.path()).read_text(encoding="utf-8")
        head, *rows = list(csv.reader(io.StringIO(text)))
        if name == "account":
            assert "add up to zero" in page.locator("main").inner_text()
            total = next(r for r in rows if r[0] == "total")
            assert Decimal(total[4]) == 0
            fees = next(r for r in rows if r[0] == "fees charged")
            assert Decimal(fees[4]) == Decimal("4.00") + Decimal("6.00") + Decimal("4.00")
        elif name == "owed":
            *owed, total = rows
            assert Decimal(total[5]) == sum(Decimal(r[5]) for r in owed) > 0
            assert any(r[0] == "table fee" and r[3] == "Guest 3" for r in owed)
        else:
            bf, *lines, totals, cf = rows
            assert Decimal(bf[-1]) + sum(Decimal(r[-1]) for r in lines) == Decimal(cf[-1])
            # November holds his evenings; his payment to the club was recorded today
            paid = Transfer.objects.filter(payer=bob, payment__isnull=False)
            transfers = sum((t.amount for t in paid), Decimal(0))
            assert Decimal(cf[-1]) == balance_of(bob) - Decimal("1.00") - transfers
    assert errors == []
    context.close()
