"""The club in Spanish in Chromium (issue 82, acceptance): a browser set to es-MX, no
language chosen, gets every word in Spanish. A member plays a whole Conquián deal on a
360-px phone by tapping, each screen read at each of his turns and at the deal's end for
English left over (tests/club/spanish.py); the secretary runs an evening from opening it
to its balancing and downloads the washbook's CSV, its headers in Spanish. Screenshots
in tests/e2e/artifacts/ (phone-conquian-es-*, spanish-*)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest

from club.models import ClubSession, Member, Table
from club.services.base import create_member
from games.models import Deal
from games.play import reading
from tests.club.spanish import english_left
from tests.positions import deal_at, moves_before_the_end

from .conftest import ARTIFACTS, login, wait_balanced
from .test_phone import play_on_phone
from .test_play import choose_conquian, db_stamp, play, wait_stamp

pytestmark = pytest.mark.e2e


@pytest.mark.deal_seed(4)
def test_a_member_plays_a_whole_conquian_deal_in_spanish_on_a_phone(
    live: dict[str, Any], browser: Any, make_member: Any
) -> None:
    reads: list[int] = []

    def read(page: Any) -> None:
        assert page.evaluate("document.documentElement.lang") == "es"
        html = page.content()
        assert "Tu mano" in html and "Registro" in html
        left = english_left(html)
        assert not left, f"English on the table at read {len(reads) + 1}: {left}"
        reads.append(1)

    hows = play_on_phone(
        live, browser, make_member("Teléfono Uno"), "conquian", 2,
        lambda legal, _n: choose_conquian(legal), "conquian-es", (16, "out"),
        locale="es-MX", read=read,
    )  # fmt: skip
    assert hows.get("hand", 0) + hows.get("button", 0) > 3, hows
    assert len(reads) == 17  # each of his 16 turns and the deal's end


def test_two_members_at_one_table_each_see_it_in_their_own_language_live(
    live: dict[str, Any], browser: Any, make_table: Any, make_member: Any
) -> None:
    """Ana's profile says Spanish, Beto's English, both browsers set to es-MX: each sees
    the same table in his own language, at its start, after every move pushed live from
    the other's browser, and at the deal's end (the profile wins over the browser). The
    deal starts six moves before its end, built by the engine."""
    ana, beto = make_member("Ana"), make_member("Beto")
    Member.objects.filter(pk=ana.pk).update(language="es")
    Member.objects.filter(pk=beto.pk).update(language="en-gb")
    table = make_table("conquian", [ana, beto])
    seed, script = moves_before_the_end("conquian", 2, choose_conquian, 6, first_seed=20)
    deal_at(table, seed, script, [ana, beto])
    pages = []
    for m in (ana, beto):
        ctx = browser.new_context(locale="es-MX", viewport={"width": 1024, "height": 800})
        login(ctx, live["url"], m)
        page = ctx.new_page()
        page.goto(f"{live['url']}{table.get_absolute_url()}")
        page.wait_for_selector("#conn[data-state=live]", timeout=8000)
        pages.append(page)

    def each_in_his_own(when: str) -> None:
        spanish, english = (p.content() for p in pages)
        assert pages[0].evaluate("document.documentElement.lang") == "es", when
        assert "Tu mano" in spanish and "Registro" in spanish, when
        assert not english_left(spanish), f"English for Ana {when}: {english_left(spanish)}"
        assert pages[1].evaluate("document.documentElement.lang") == "en-gb", when
        assert "Your hand" in english and "<h2>Log</h2>" in english, when
        assert "Tu mano" not in english and "Registro" not in english, when

    each_in_his_own("at the start")
    number = reading.current_deal(table.pk).number
    for move in range(20):
        deal = reading.current_deal(table.pk)
        if deal.number > number:
            break
        state = reading.load_state(deal)
        seat = state.to_move()
        play(pages[seat], choose_conquian(state.legal_actions(seat)))
        now = db_stamp(table.pk)
        for page in pages:
            wait_stamp(page, now, timeout=6000)  # the other's screen by the live push
        each_in_his_own(f"after move {move + 1}")
    assert Deal.objects.get(table=table, number=number).finished
    for page, said, name in zip(pages, ("ha terminado", "is over"), ("es", "en"), strict=True):
        end = page.locator("#deal-end")
        end.wait_for(state="visible", timeout=6000)
        assert said in end.inner_text(), (name, end.inner_text())
        page.screenshot(path=str(ARTIFACTS / f"two-languages-{name}.png"), full_page=True)
    each_in_his_own("at the deal's end")


def _text(page: Any, selector: str = "main") -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text())


def _no_english(page: Any, where: str) -> None:
    assert page.evaluate("document.documentElement.lang") == "es", where
    left = english_left(page.content())
    assert not left, f"English on {where}: {left}"


def test_the_secretary_runs_an_evening_in_spanish(live: dict[str, Any], browser: Any) -> None:
    """From opening the evening to its balancing, and the washbook's CSV, in a browser
    set to es-MX: every page of the way read for English left over."""
    url = live["url"]
    rosa = create_member("rosa", "Rosa", is_staff=True)
    ana, beto = create_member("ana", "Ana"), create_member("beto", "Beto")
    ctx = browser.new_context(locale="es-MX", viewport={"width": 1280, "height": 900})
    login(ctx, url, rosa)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and "status of 400" not in m.text
            and errors.append(m.text))  # fmt: skip

    page.goto(f"{url}/sessions/")
    _no_english(page, "the evenings")
    page.get_by_label("Nombre de la velada").fill("Martes")
    page.get_by_label("Apuesta").fill("0.05")
    page.get_by_role("button", name="Abrir", exact=True).click()
    page.wait_for_url(re.compile(r"/sessions/\d+/$"))
    session = ClubSession.objects.get(name="Martes")
    _no_english(page, "the evening's page")

    page.goto(f"{url}/sessions/{session.pk}/console/")
    for m in (ana, beto):
        page.locator(f'input[name="member"][value="{m.pk}"]').check()
    page.get_by_role("button", name="Registrar llegada", exact=True).click()
    page.wait_for_selector("#fold-checkin [data-said]")
    assert "Llegadas registradas: Ana y Beto." in _text(page, "#fold-checkin [data-said]")
    form = page.locator(
        "form", has=page.get_by_role("button", name="Formar y cortar para los asientos")
    )
    form.locator('select[name="variant"]').select_option("conquian")
    form.locator('input[name="size"]').fill("2")
    form.locator('select[name="mode"]').select_option("physical")
    for m in (ana, beto):
        form.locator(f'input[name="players"][value="{m.pk}"]').check()
    form.get_by_role("button", name="Formar y cortar para los asientos").click()
    page.wait_for_selector("#fold-form [data-said]")
    assert "Mesa 1 formada: " in _text(page, "#fold-form [data-said]")
    _no_english(page, "the console")
    page.screenshot(path=str(ARTIFACTS / "spanish-console.png"), full_page=True)

    page.get_by_role("link", name="Anotar un resultado").first.click()
    table = Table.objects.get(session=session, number=1)
    page.wait_for_url(f"**/club/tables/{table.pk}/#result")
    _no_english(page, "the table's club page")
    page.locator('select[name="winner"]').select_option(str(ana.pk))
    page.locator(f'input[name="pips_{beto.pk}"]').fill("12")
    page.get_by_role("button", name="Anotar la línea").click()
    page.wait_for_selector(".messages")
    assert "Línea 1 anotada en la libreta: Ana +12, Beto -12." in _text(page, ".messages")
    _no_english(page, "the result posted")

    page.goto(f"{url}/sessions/{session.pk}/close/confirm/")
    _no_english(page, "closing the evening")
    page.get_by_role("button", name="Cerrar y cuadrar", exact=True).click()
    wait_balanced(session)
    page.goto(f"{url}/sessions/{session.pk}/settlement/")
    _no_english(page, "the settlement")
    assert "-£0,60" in _text(page) or "£0,60" in _text(page)
    page.screenshot(path=str(ARTIFACTS / "spanish-settlement.png"), full_page=True)

    page.goto(f"{url}/sessions/{session.pk}/washbook/")
    _no_english(page, "the washbook")
    with page.expect_download() as info:
        page.get_by_role("link", name="CSV").click()
    rows = list(csv.reader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8-sig"))))
    assert rows[0][:4] == ["fecha", "mesa", "línea", "tipo"], rows[0]
    assert "12" in rows[1] and "-12" in rows[1]  # the values stay plain numbers
    assert errors == [], errors
    ctx.close()
