"""A real club's first night on `make run`'s stack (issue 78, acceptance), in Debian's
Chromium: an empty club started from its setup page with the code make run printed (a
wrong code refused), three members imported from a CSV (a bad row refused, nothing
imported until it is mended), one member's sign-in link read back from its QR code and
opened by a 360-px phone, which chooses a password and lands on tonight's evening; the
same link refused the second time; the member changes his password; the secretary signs
him out everywhere and the phone's live stream ends."""

from __future__ import annotations

import base64
import os
import re
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from club.runner import local
from tests.makerun import MakeRun

pytestmark = pytest.mark.slow

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
SECRETARY_PASSWORD = "a tidy harbour at dusk 42"
BAD_ROSTER = (
    "name,username,email,phone\n"
    "Ann Roster,ann,ann@example.org,0123 456\n"
    "Bob Roster,bob,not-an-address,\n"
    "Cy Roster,,,\n"
)


@pytest.fixture
def run(tmp_path: Path) -> Iterator[MakeRun]:
    # A stream checks its grant at each keepalive: a second here, not the club's 15.
    started = MakeRun(tmp_path, demo=False, settings={"EVENTS_KEEPALIVE": "1"})
    try:
        yield started
    finally:
        if started.proc.poll() is None:
            os.killpg(started.proc.pid, signal.SIGINT)
            try:
                started.proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(started.proc.pid, signal.SIGKILL)


def qr_text(chromium: Any, svg: str) -> str:
    """What a phone's camera reads from the QR code: the SVG drawn in a blank page of the
    browser, its pixels read by zxing-cpp."""
    import zxingcpp

    page = chromium.new_page()
    try:
        drawn = page.evaluate(
            """async (svg) => {
                const img = new Image();
                img.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(svg)));
                await img.decode();
                const w = 400, h = 400;
                const canvas = document.createElement("canvas");
                canvas.width = w; canvas.height = h;
                const g = canvas.getContext("2d");
                g.fillStyle = "#fff"; g.fillRect(0, 0, w, h);
                g.drawImage(img, 0, 0, w, h);
                const px = g.getImageData(0, 0, w, h).data;
                let s = "";
                for (let i = 0; i < px.length; i += 8192) {
                    s += String.fromCharCode.apply(null, px.subarray(i, i + 8192));
                }
                return {w, h, rgba: btoa(s)};
            }""",
            svg,
        )
    finally:
        page.close()
    w, h = drawn["w"], drawn["h"]
    pixels = memoryview(base64.b64decode(drawn["rgba"])).cast("B", (h, w, 4))
    found = zxingcpp.read_barcodes(zxingcpp.ImageView(pixels, w, h, zxingcpp.ImageFormat.RGBA))
    assert len(found) == 1, f"{len(found)} QR codes read"
    return str(found[0].text)


def roster_names(page: Any) -> list[str]:
    rows = page.locator("table:has(th:text-is('Member')) tbody tr td:first-child a")
    return [t.strip() for t in rows.all_inner_texts()]


def test_a_club_starts_from_nothing_and_a_member_signs_in_from_his_phone(run: MakeRun) -> None:
    from playwright.sync_api import sync_playwright

    run.wait_healthy()
    printed = re.search(r"http://127\.0\.0\.1:\d+/setup/\?code=([\w-]+)", run.output)
    assert printed, run.output[-2000:]
    outside = local.primary_address()
    if outside:  # make run listens on loopback unless HOST says otherwise: the machine's
        with socket.socket() as s:  # network address answers nothing
            s.settimeout(2)
            assert s.connect_ex((outside, run.port)) != 0
    assert "HOST=0.0.0.0" in run.output  # and the banner says how to let phones in
    code = printed.group(1)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        desk = chromium.new_context(viewport={"width": 1280, "height": 900})
        page = desk.new_page()

        # The empty club's address leads to its setup page, which wants the code.
        page.goto(run.url("/"))
        page.wait_for_url("**/setup/")
        page.fill("#id_code", code[:-3] + ("xyz" if not code.endswith("xyz") else "abc"))
        page.get_by_role("button", name="Go on").click()
        assert "That is not this club's setup code" in page.locator("main").inner_text()
        page.fill("#id_code", code)
        page.get_by_role("button", name="Go on").click()
        page.get_by_label("The club's name").fill("Harbour Cooncan Club")
        page.get_by_label("Time zone").select_option("Europe/Madrid")
        page.get_by_label("Currency symbol").fill("€")
        page.get_by_label("Decimal places of money").select_option("2")
        page.get_by_label("The club's usual game").select_option("conquian")
        page.get_by_label("Secretary's name").fill("Rosa Vidal")
        page.get_by_label("Secretary's username").fill("rosa")
        page.get_by_label("Secretary's password").fill(SECRETARY_PASSWORD)
        page.get_by_label("The password again").fill(SECRETARY_PASSWORD)
        page.get_by_role("button", name="Start the club").click()
        page.wait_for_url("**/members/")
        assert page.title().startswith("Members · Harbour Cooncan Club"), page.title()
        # No demo member: the roster (the staff are not on it) is empty.
        assert roster_names(page) == [], page.locator("main").inner_text()[:1500]
        assert "No members yet" in page.locator("main").inner_text()

        # A roster with a bad row: its reason shown, nobody imported until it is mended.
        upload = {"name": "roster.csv", "mimeType": "text/csv"}
        page.set_input_files("#id_roster", files=[upload | {"buffer": BAD_ROSTER.encode()}])
        page.get_by_role("button", name="Import").click()
        said = page.locator("#import-problems").inner_text()
        assert "Row 3: not-an-address is not an e-mail address" in said, said
        page.goto(run.url("/members/"))
        assert roster_names(page) == []
        mended = BAD_ROSTER.replace("not-an-address", "bob@example.org")
        page.set_input_files("#id_roster", files=[upload | {"buffer": mended.encode()}])
        page.get_by_role("button", name="Import").click()
        page.wait_for_url("**/members/?login=not+invited")
        assert "Imported 3 members" in page.locator(".messages").inner_text()
        assert sorted(roster_names(page)) == ["Ann Roster", "Bob Roster", "Cy Roster"]

        # Tonight's evening, opened by the secretary.
        page.goto(run.url("/sessions/"))
        page.fill("#id_name", "First night")
        page.fill("#id_stake", "0.05")
        page.get_by_role("button", name=re.compile("Open")).click()
        page.wait_for_url(re.compile(r".*/sessions/\d+/$"))
        evening = page.url

        # Ann's sign-in link, shown as a QR code; what the code says is the link.
        page.goto(run.url("/members/"))
        page.get_by_role("link", name="Ann Roster").click()
        ann_page = page.url
        page.get_by_role("button", name="Give a sign-in link").click()
        svg = page.locator("figure.qr svg").evaluate(
            """e => { const c = e.cloneNode(true);
                      c.setAttribute("width", "400"); c.setAttribute("height", "400");
                      return new XMLSerializer().serializeToString(c); }"""
        )
        link = qr_text(desk, svg)
        assert link.startswith(run.url("/signin/")), link
        assert link in page.locator("main").inner_text()  # printed beside it, for a card

        # Her phone opens it, chooses a password and is on tonight's evening.
        phone = chromium.new_context(**PHONE)
        mine = phone.new_page()
        mine.goto(link)
        assert "Welcome, Ann Roster" in mine.locator("h1").inner_text()
        mine.fill("#id_password", "ann's own 7 harbour")
        mine.fill("#id_password_again", "ann's own 7 harbour")
        mine.get_by_role("button", name="Set my password and sign in").click()
        mine.wait_for_url(evening)
        assert "you are signed in on this phone" in mine.locator(".messages").inner_text()
        width = mine.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the evening is {width} px wide on a 360-px phone"

        # The same link, opened again (anyone who found the card): refused, plainly.
        again = chromium.new_context(**PHONE).new_page()
        answer = again.goto(link)
        assert answer is not None and answer.status == 410
        assert "secretary" in again.locator("main").inner_text()

        # Ann changes her password from her own page.
        mine.goto(ann_page)
        mine.get_by_role("link", name="Change your password").click()
        mine.fill("#id_old_password", "ann's own 7 harbour")
        mine.fill("#id_new_password1", "a new tide 8 for ann")
        mine.fill("#id_new_password2", "a new tide 8 for ann")
        mine.get_by_role("button", name=re.compile("Change")).click()
        mine.wait_for_url("**/changed/")

        # She sits at a browser table with a computer player; her table is live.
        page.goto(evening + "console/")
        page.get_by_label("Ann Roster", exact=True).check()
        page.get_by_role("button", name="Check in", exact=True).click()
        page.wait_for_selector("#fold-checkin [data-said]:has-text('Checked in')")
        page.select_option("#id_variant", "conquian")
        page.select_option("#id_mode", "online")
        page.fill("#id_computers", "1")
        page.get_by_role("button", name="Form and cut for seats").click()
        page.wait_for_selector("#fold-form [data-said]:has-text('Table 1 formed')")
        mine.goto(run.url("/"))
        mine.get_by_role("link", name="Play").click()
        mine.wait_for_url(re.compile(r".*/tables/\d+/$"))
        mine.wait_for_selector("#conn[data-state=live]", timeout=10_000)

        # Her phone is lost: the secretary signs her out everywhere; its stream ends.
        page.goto(ann_page)
        page.get_by_role("button", name="Sign out everywhere").click()
        assert "signed out everywhere" in page.locator(".messages").inner_text()
        mine.wait_for_function(
            "() => document.querySelector('#conn').dataset.state !== 'live'", timeout=10_000
        )
        mine.reload()
        mine.wait_for_url("**/login/**")
        # Her new password is the one that signs her in again.
        mine.fill("#id_username", "ann")
        mine.fill("#id_password", "ann's own 7 harbour")
        mine.get_by_role("button", name=re.compile("Log in")).click()
        mine.wait_for_selector("text=/password didn.t match/")  # the old one
        mine.fill("#id_username", "ann")
        mine.fill("#id_password", "a new tide 8 for ann")
        mine.get_by_role("button", name=re.compile("Log in")).click()
        mine.wait_for_url(re.compile(r".*/tables/\d+/$"))
        chromium.close()
