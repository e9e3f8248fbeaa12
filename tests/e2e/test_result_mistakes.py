"""A real-cards result with five mistakes, on a 360-px phone, in Debian's Chromium (issue
79's acceptance): all five are told after one submit, each beside its field, and one
more submit with them mended posts the line."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

from club.models import Table
from club.services.base import create_member
from club.services.sessions import check_in, open_session
from club.services.tables import form_table

from .conftest import ARTIFACTS, login

pytestmark = pytest.mark.e2e


def _said(page: Any, field: str) -> str:
    return re.sub(r"\s+", " ", page.locator(f"#id_{field}_error").inner_text())


def test_five_mistakes_are_told_after_one_submit_and_mended_in_one_more(
    live: dict[str, Any], browser: Any
) -> None:
    url = live["url"]
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    ann, bob, cat, dan = [create_member(n.lower(), n) for n in ("Ann", "Bob", "Cat", "Dan")]
    session = open_session(stake=Decimal("0.05"), by=secretary.user, name="Friday")
    for m in (ann, bob, cat, dan):
        check_in(session, m)
    table = form_table(
        session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=[ann, bob, cat, dan]
    )
    phone = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    login(phone, url, secretary)
    page = phone.new_page()
    page.goto(f"{url}/club/tables/{table.pk}/#result")

    # Nobody named as going out; Ann's pips over the most a form takes, and her cards
    # given too (a number field takes no letters in a browser); two of
    # Bob's cards not cards; Cat's pips negative; Dan's extra points negative.
    page.fill(f"#id_pips_{ann.pk}", "1001")
    page.fill(f"#id_cards_{ann.pk}", "KS")
    page.fill(f"#id_cards_{bob.pk}", "ZZ 99 KH")
    page.fill(f"#id_pips_{cat.pk}", "-3")
    page.fill(f"#id_pips_{dan.pk}", "4")
    page.fill(f"#id_extra_{dan.pk}", "-1")
    page.get_by_role("button", name=re.compile("Post")).click()
    page.wait_for_selector("#id_winner_error")
    assert "Say who went out." in _said(page, "winner")
    assert "cannot be over 1000" in _said(page, f"pips_{ann.pk}")
    assert "pips or cards, not both" in _said(page, f"cards_{ann.pk}")
    assert "not cards: 'ZZ', '99'" in _said(page, f"cards_{bob.pk}")
    assert "cannot be negative" in _said(page, f"pips_{cat.pk}")
    assert "cannot be negative" in _said(page, f"extra_{dan.pk}")
    assert not table.lines.exists()
    # What was typed is kept, to be mended rather than typed again.
    assert page.input_value(f"#id_cards_{bob.pk}") == "ZZ 99 KH"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the form is {width} px wide on a 360-px phone"
    page.screenshot(path=str(ARTIFACTS / "result-five-mistakes.png"), full_page=True)

    # All five mended in one more submit: the line is posted.
    page.select_option("#id_winner", str(dan.pk))
    page.fill(f"#id_pips_{ann.pk}", "")
    page.fill(f"#id_cards_{bob.pk}", "KH 5S")
    page.fill(f"#id_pips_{cat.pk}", "3")
    page.fill(f"#id_pips_{dan.pk}", "")
    page.fill(f"#id_extra_{dan.pk}", "")
    page.get_by_role("button", name=re.compile("Post")).click()
    page.wait_for_selector(".messages")
    said = re.sub(r"\s+", " ", page.locator(".messages").inner_text())
    assert "Line 1 posted to the washbook" in said, said
    assert table.lines.count() == 1
