"""The secretary's evening on a phone, 360 px wide, in Debian's Chromium (issue 38's
acceptance, the secretary's part): four members checked in at once, a table's players
chosen, a result with two mistakes told both at once then confirmed with its line, and a
member's statement reached by links only."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

from club.models import Arrival, Seat, Table
from club.services.base import create_member
from club.services.ledger import balance_session
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table

from .conftest import ARTIFACTS, login

pytestmark = pytest.mark.e2e


def _text(page: Any, selector: str = "main") -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text())


def test_the_secretary_runs_the_evening_from_a_phone(live: dict[str, Any], browser: Any) -> None:
    url = live["url"]
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    ann, bob, cat, dan = [create_member(n.lower(), n) for n in ("Ann", "Bob", "Cat", "Dan")]
    session = open_session(stake=Decimal("0.05"), by=secretary.user, name="Friday")
    phone = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    login(phone, url, secretary)
    page = phone.new_page()
    # No browser console error while the console answers forms in place (issue 56: each
    # swap copied style attributes, which the policy refused); a refusal's 400 is the
    # browser's own line for the answer it was meant to be, and is not counted.
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and "status of 400" not in m.text
            and errors.append(m.text))  # fmt: skip
    page.goto(f"{url}/sessions/{session.pk}/console/")

    # Four members through the door: ticked, one submit, answered in place: no reload
    # (a mark left on the window survives), and what was done told beside the button,
    # both on the screen (the page moves at most to show the message).
    for m in (ann, bob, cat, dan):
        page.locator(f'input[name="member"][value="{m.pk}"]').check()
    page.evaluate("window.__stayed = true")
    button = page.get_by_role("button", name="Check in", exact=True)
    button.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0
    button.click()
    page.wait_for_selector("#fold-checkin [data-said]")
    assert page.evaluate("window.__stayed === true"), "the page was reloaded"
    for what in ("#fold-checkin [data-said]", "#checkin-form button"):
        box = page.locator(what).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 740, f"{what} off screen"
    assert f"Checked in: {ann}, {bob}, {cat} and {dan}." in _text(page, "#fold-checkin [data-said]")
    assert Arrival.objects.filter(session=session, left_at=None).count() == 4
    assert "4 here · 0 seated · 4 waiting" in _text(page)
    page.screenshot(path=str(ARTIFACTS / "secretary-phone-checkin.png"))

    # Ann and Dan sit together, with real cards; the waiting list, folded away by the
    # secretary, stays folded when the console comes back.
    page.locator("#fold-waiting > summary").click()
    assert page.evaluate("document.getElementById('fold-waiting').open") is False
    form = page.locator("form", has=page.get_by_role("button", name="Form and cut for seats"))
    form.locator('select[name="variant"]').select_option("conquian")
    form.locator('input[name="size"]').fill("2")
    form.locator('select[name="mode"]').select_option("physical")
    for m in (ann, dan):
        form.locator(f'input[name="players"][value="{m.pk}"]').check()
    form.get_by_role("button", name="Form and cut for seats").click()
    page.wait_for_selector("#fold-form [data-said]")
    assert page.evaluate("window.__stayed === true"), "the page was reloaded"
    table = Table.objects.get(session=session, number=1)
    assert f"Table {table.number} formed" in _text(page, "#fold-form [data-said]")
    assert page.evaluate("document.getElementById('fold-waiting').open") is False
    assert set(Seat.objects.filter(table=table).values_list("member", flat=True)) == {
        ann.pk, dan.pk,
    }  # fmt: skip

    # Bob and Cat at a Tunk table in the browser, its first deal dealt; the secretary
    # seats a computer player in an empty seat (issue 56, item 2): the cards are dealt
    # again for three, and what was done stays told when the live part refreshes (the
    # new deal's notice refreshed it away within a second, seen on make run).
    from games.play import reading
    from games.play import services as games

    tunk = form_table(session, variant="tunk", size=2, candidates=[bob, cat])
    assert games.ensure_deal(tunk.pk) is not None
    page.reload()
    card = page.locator(f"#table-{tunk.number}")
    card.get_by_role("button", name="Seat a computer player").click()
    said = page.locator(".console-tables [data-said]")
    said.wait_for()
    assert "the cards are dealt again for 3 players" in _text(page, ".console-tables [data-said]")
    page.evaluate("""() => new Promise(done => {
        document.body.addEventListener("htmx:afterSettle", () => done(), {once: true});
        htmx.trigger(document.getElementById("live-wrap"), "poll");
    })""")
    assert said.count() == 1, "a live refresh took away what was done"
    assert "Game 1 to 100, deal 1" in _text(page, f"#table-{tunk.number}")
    deal = reading.current_deal(tunk.pk)
    assert deal is not None and deal.players == 3

    assert errors == [], errors
    # The result: the console's link reaches the form; Dan's pips left blank and Ann
    # (the winner) given cards: both told at once.
    page.get_by_role("link", name="Enter a result").first.click()
    page.wait_for_url(f"**/club/tables/{table.pk}/#result")
    page.locator('select[name="winner"]').select_option(str(ann.pk))
    page.locator(f'input[name="pips_{ann.pk}"]').fill("5")
    page.get_by_role("button", name=re.compile("Post")).click()
    page.wait_for_selector(f"#id_pips_{ann.pk}_error")
    assert "the winner has no cards left" in _text(page, f"#id_pips_{ann.pk}_error")
    assert "played this deal: give the pips" in _text(page, f"#id_pips_{dan.pk}_error")
    assert not table.lines.exists()
    page.locator(f'input[name="pips_{ann.pk}"]').fill("")
    page.locator(f'input[name="pips_{dan.pk}"]').fill("12")
    page.get_by_role("button", name=re.compile("Post")).click()
    page.wait_for_selector(".messages")
    assert f"Line 1 posted to the washbook: {ann} +12, {dan} -12." in _text(page, ".messages")
    page.screenshot(path=str(ARTIFACTS / "secretary-phone-result.png"), full_page=True)

    # Dan's statement, by links only: the office menu's Members, his name, the evening.
    close_session(session.pk, queue=False)
    balance_session(session.pk)
    page.locator(".site-header details.office summary").click()  # the office menu
    page.get_by_role("link", name="Members").click()
    page.get_by_role("link", name="Dan", exact=True).click()
    page.wait_for_url(f"**/members/{dan.pk}/")
    page.get_by_role("link", name=re.compile("Friday")).first.click()
    page.wait_for_url(f"**/members/{dan.pk}/sessions/{session.pk}/")
    assert "-12" in _text(page) and "-£0.60" in _text(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the statement is {width} px wide on a 360 px phone"


def test_a_result_with_five_mistakes_on_a_phone_shows_all_five_and_the_first_in_view(
    live: dict[str, Any], browser: Any
) -> None:
    """Issue 56's acceptance: a winner given pips, pips and cards both given, the card
    "ZZ", a missing hand and negative pips, entered on a 360-px phone: all five told at
    once, each beside its field, and the page opens on the first, focused (it opened at
    its top, the error box a screen below)."""
    url = live["url"]
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    ann, bob, cat, dan, eve = five = [
        create_member(n.lower(), n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve")
    ]
    session = open_session(stake=Decimal("0.05"), by=secretary.user, name="Friday")
    for m in five:
        check_in(session, m)
    table = form_table(session, variant="foster", size=5, mode=Table.PHYSICAL)
    phone = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    login(phone, url, secretary)
    page = phone.new_page()
    page.goto(f"{url}{table.get_club_url()}#result")
    page.locator('select[name="winner"]').select_option(str(ann.pk))
    for name, value in {
        f"pips_{ann.pk}": "3", f"pips_{bob.pk}": "4", f"cards_{bob.pk}": "KS 5H",
        f"cards_{cat.pk}": "ZZ", f"pips_{eve.pk}": "-2",
    }.items():  # fmt: skip
        page.locator(f'input[name="{name}"]').fill(value)
    page.get_by_role("button", name=re.compile("Post")).click()
    page.wait_for_selector(".errorlist")
    told = {
        f"pips_{ann.pk}": "the winner has no cards left",
        f"cards_{bob.pk}": "pips or cards, not both",
        f"cards_{cat.pk}": "ZZ",
        f"pips_{dan.pk}": "give the pips or the cards",
        f"pips_{eve.pk}": "pips cannot be negative",
    }
    for field, words in told.items():
        assert words in _text(page, f"#id_{field}_error"), field
    assert page.locator("[aria-invalid='true']").count() == 5
    assert not table.lines.exists()
    # The first marked field has the focus and is on the screen with its message.
    first = page.locator("main form [aria-invalid='true']").first
    assert first.evaluate("el => el === document.activeElement")
    name = first.get_attribute("name")
    for what in (f"[name='{name}']", f"#id_{name}_error"):
        box = page.locator(what).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 740, f"{what} off screen"
    page.screenshot(path=str(ARTIFACTS / "secretary-phone-five-mistakes.png"))
