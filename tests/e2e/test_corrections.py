"""Corrections and closing that cannot go wrong (issue 29, acceptance), in Debian's Chromium.

The secretary corrects a washbook line through its form (a refusal first, in place), closes
the evening through the confirmation page with an online deal in progress (asked first,
then ended with a note), the real Celery worker balances it once, and the balances and the
statements are those of the corrected washbook; a line corrected after the balancing posts
an adjustment that moves exactly the members it names.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Sum

from club.models import Leg, Posting, Table, WashbookLine
from club.services.base import create_member
from club.services.ledger import balance_of
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result
from games.models import Deal
from games.play import services
from tests.games.helpers import move_for_mover

from .conftest import ARTIFACTS, login, wait_balanced

pytestmark = pytest.mark.e2e

NAMES = ["Ada", "Ben", "Cora", "Dan", "Edna", "Fred"]


def _text(page: Any, selector: str = "main") -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text())


def test_the_secretary_corrects_a_line_and_closes_with_a_deal_in_progress(
    live: dict[str, Any], browser: Any
) -> None:
    url = live["url"]
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    ada, ben, cora, dan, edna, fred = [create_member(n.lower(), n) for n in NAMES]
    session = open_session(stake="0.05", by=secretary.user, name="Thursday")
    for m in (ada, ben, cora, dan, edna, fred):
        check_in(session, m)
    foster = form_table(
        session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=[ada, ben, cora, dan]
    )
    # Line 1: Ada out, Ben 10 (misread: it was 4), Cora 3. Line 2: Dan out, Ada 7, Ben 2, Cora 9.
    first = enter_physical_result(
        foster.pk, PhysicalResult(winner_id=ada.pk, losses={ben.pk: 10, cora.pk: 3, dan.pk: 0})
    )
    second = enter_physical_result(
        foster.pk, PhysicalResult(winner_id=dan.pk, losses={ada.pk: 7, ben.pk: 2, cora.pk: 9})
    )
    online = form_table(session, variant="conquian", candidates=[edna, fred])
    deal = services.ensure_deal(online.pk)
    assert deal is not None
    move_for_mover(online.pk, deal)
    foster.refresh_from_db()
    where = (foster.deals_played, foster.game_number, foster.deal_in_game, foster.dealer_position)

    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    login(desk, url, secretary)
    page = desk.new_page()

    # The washbook: "Correct…" on line 1 opens the line as booked and the deal as it was.
    page.goto(f"{url}/club/tables/{foster.pk}/washbook/")
    page.get_by_role("link", name="Correct line 1").click()
    page.wait_for_url(f"**/club/lines/{first.pk}/correct/")
    assert "Ada +13" in _text(page)
    assert page.input_value(f"#id_pips_{ben.pk}") == "10"
    # No reason: refused beside the field, nothing posted.
    page.fill(f"#id_pips_{ben.pk}", "4")
    page.get_by_role("button", name="Post the correction").click()
    page.wait_for_selector("#id_reason_error")
    assert "Give the reason for the correction" in _text(page, "#id_reason_error")
    assert WashbookLine.objects.filter(table=foster).count() == 2
    page.fill("#id_reason", "Ben's hand was 4, not 10")
    page.fill(f"#id_pips_{ben.pk}", "4")
    page.screenshot(path=str(ARTIFACTS / "corrections-form.png"), full_page=True)
    page.get_by_role("button", name="Post the correction").click()
    page.wait_for_url(f"**/club/tables/{foster.pk}/washbook/#line-1")
    book = _text(page)
    assert "reverses line 1: Ben's hand was 4, not 10" in book and "corrects line 1" in book
    assert "Proof: total plus" in book and "the book proves on every line" in book
    foster.refresh_from_db()
    assert (
        foster.deals_played,
        foster.game_number,
        foster.deal_in_game,
        foster.dealer_position,
    ) == where

    # Close and balance through the confirmation page, the Conquián deal in progress.
    page.goto(f"{url}/sessions/{session.pk}/console/")
    page.get_by_role("link", name="Close and balance…").click()
    page.wait_for_url(f"**/sessions/{session.pk}/close/confirm/")
    confirm = _text(page)
    assert "A deal is in progress (game 1, deal 1, 1 move)" in confirm
    assert "Dan 18" in confirm and "Ada 0" in confirm and "Ben -6" in confirm  # corrected
    page.get_by_role("button", name="Close and balance").click()
    page.wait_for_selector("#id_deals_error")
    assert "1 deal is in progress (table 2)" in _text(page, "#id_deals_error")
    session.refresh_from_db()
    assert session.is_open
    page.get_by_label("End them now, unscored").check()
    page.fill("#id_note", "the room closes at eleven")
    page.get_by_role("button", name="Close and balance").click()
    page.wait_for_url(f"**/sessions/{session.pk}/console/")
    session = wait_balanced(session)
    assert Posting.objects.filter(session=session, kind=Posting.SESSION_BALANCE).count() == 1
    stopped = Deal.objects.get(table=online)
    assert stopped.finished and stopped.washbook_line_id is None

    # The balances: the corrected washbook's points at 0.05 a point.
    points = {ada.pk: 7 - 7, ben.pk: -4 - 2, cora.pk: -3 - 9, dan.pk: 18}
    for m, p in points.items():
        assert balance_of(m) == Decimal(p) * Decimal("0.05"), m

    # Ben's statement, on his own phone.
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    login(phone, url, ben)
    mine = phone.new_page()
    mine.goto(f"{url}/members/{ben.pk}/sessions/{session.pk}/")
    statement = _text(mine)
    assert "net -6 points" in statement
    assert "reversal of line 1: Ben's hand was 4, not 10" in statement
    assert "your -6 points at £0.05 a point -£0.30" in statement

    # After the balancing: line 2 is corrected (Cora held 6, not 9): an adjustment.
    before = {m: balance_of(m) for m in points}
    page.goto(f"{url}/club/tables/{foster.pk}/washbook/")
    page.get_by_role("link", name="Correct line 2").click()
    page.wait_for_url(f"**/club/lines/{second.pk}/correct/")
    assert "posted to the members' money as an adjustment" in _text(page)
    page.fill("#id_reason", "Cora held 6, not 9")
    page.fill(f"#id_pips_{cora.pk}", "6")
    page.get_by_role("button", name="Post the correction").click()
    page.wait_for_url(f"**/club/tables/{foster.pk}/washbook/#line-2")
    after = {m: balance_of(m) for m in points}
    changed = {m: after[m] - before[m] for m in points if after[m] != before[m]}
    assert changed == {dan.pk: Decimal("-0.15"), cora.pk: Decimal("0.15")}
    adjustment = Posting.objects.get(session=session, kind=Posting.ADJUSTMENT)
    assert sum(adjustment.legs.values_list("amount", flat=True)) == 0
    assert not Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0).exists()
    page.goto(f"{url}/members/{cora.pk}/sessions/{session.pk}/")
    cora_statement = _text(page)
    assert (
        "adjustment: Table 1, line 2 corrected after balancing: Cora held 6, not 9 £0.15"
        in cora_statement
    )
    page.goto(f"{url}/sessions/{session.pk}/settlement/")
    assert "Table 1, line 2 corrected after balancing: Cora held 6, not 9" in _text(page)
    page.screenshot(path=str(ARTIFACTS / "corrections-settlement.png"), full_page=True)

    # The online table says it is closed and what became of its deal.
    player = browser.new_context(viewport={"width": 390, "height": 844})
    login(player, url, edna)
    table_page = player.new_page()
    table_page.goto(f"{url}/tables/{online.pk}/")
    shown = _text(table_page)
    assert "This table is closed" in shown
    assert "The evening was closed: the room closes at eleven." in shown
