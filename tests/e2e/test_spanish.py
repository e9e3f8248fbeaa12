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

from club.models import ClubSession, Table
from club.services.base import create_member
from tests.club.spanish import english_left

from .conftest import ARTIFACTS, login, wait_balanced
from .test_phone import play_on_phone
from .test_play import choose_conquian

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
