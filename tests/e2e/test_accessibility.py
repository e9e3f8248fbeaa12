"""axe-core in Debian's Chromium (issue 28, item 8): no serious or critical violation on
home, each game's table, the washbooks, a statement, the settlement and the secretary's
pages, at a phone's width and a desktop's.

axe-core is the copy bundled by the ``axe-playwright-python`` package (its version is
recorded with the counts in ``tests/e2e/artifacts/axe.json``).
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from club.models import ClubSession, Table, WashbookLine
from club.services import house_rules
from club.services.base import create_member
from club.services.ledger import balance_session, waive_fee
from club.services.payments import record_payment
from club.services.practice import create_practice_table
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, correct_line, enter_physical_result, line_players
from games.engine.variant import VARIANTS
from games.play import services as games

from .conftest import ARTIFACTS, login

pytestmark = pytest.mark.e2e

WIDTHS = {"phone": (360, 740), "desktop": (1280, 900)}
BAD = {"serious", "critical"}


def _axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def _evening() -> dict[str, Any]:
    """A club in every state the pages need: a balanced evening (settlement, statement)
    and an open one (console, washbooks), and a practice table of each game."""
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    members = [create_member(f"m{i}", name) for i, name in enumerate(
        ["Ada", "Ben", "Cora", "Dan", "Edna", "Fred", "Gail", "Hal", "Iris", "Jon"]
    )]  # fmt: skip
    past = open_session(stake=Decimal("0.05"), name="Monday", by=secretary.user, fee_member="1.00")
    for m in members:
        check_in(past, m)
    for size in (5, 5):
        table = form_table(past, variant="foster", size=size, mode=Table.PHYSICAL)
        seated = [s.member for s in table.seats.all()]
        for i in range(3):
            enter_physical_result(
                table.pk,
                PhysicalResult(
                    winner_id=seated[i].pk,
                    losses={
                        m.pk: {i + 1: 7 + i, i + 2: 3}.get(j, 1)
                        for j, m in enumerate(seated)
                        if j != i
                    },
                ),
            )
    close_session(past.pk, queue=False)
    balance_session(past.pk)
    # A line corrected after the balancing: an adjustment on the statement and settlement.
    first_table = past.tables.order_by("number").first()
    line = first_table.lines.order_by("number").first()
    points = dict(line.entries.values_list("member_id", "points"))
    correct_line(
        line.pk,
        reason="misread",
        result=PhysicalResult(
            winner_id=line.entries.get(points__gt=0).member_id,
            losses={
                m.pk: max(0, -points.get(m.pk, 0) - 1)
                for m in line_players(line)
                if points.get(m.pk, 0) <= 0
            },
        ),
    )
    # A part payment (the settlement and the member's page show it, with what is left).
    transfer = past.transfers.order_by("-amount", "pk").first()
    record_payment(transfer.pk, amount=transfer.amount - Decimal("0.01"))
    dalton = house_rules.save(
        name="Dalton rules", variant="foster", options={"ratting": "six", "jokers": "spade-twos"}
    )
    tonight = open_session(
        stake=Decimal("0.05"), name="Tuesday", by=secretary.user, house_rules=dalton,
        fee_member="1.50",
    )  # fmt: skip
    for m in members[:6]:
        check_in(tonight, m)
    waive_fee(tonight.pk, members[5].pk, why="helps the club")  # the fees, both ways
    physical = form_table(
        tonight, variant="foster", size=4, mode=Table.PHYSICAL, house_rules=dalton
    )
    online = form_table(tonight, variant="conquian", computer_players=0)
    games.ensure_deal(online.pk)
    # a practice table of each game, by turns for two members (a member may hold five open)
    practice = {
        name: create_practice_table(members[i % 2], name, VARIANTS[name].seats.default)
        for i, name in enumerate(VARIANTS)
    }
    for t in practice.values():
        games.ensure_deal(t.pk)
    return {
        "secretary": secretary,
        "member": members[0],
        "past": past,
        "tonight": tonight,
        "physical": physical,
        "online": online,
        "practice": practice,
    }


def _uncorrected(session: ClubSession) -> Any:
    return (
        WashbookLine.objects.filter(table__session=session, kind="deal", reversed_by=None)
        .order_by("pk")
        .first()
    )


def _pages(w: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(name, who looks, path)."""
    past: ClubSession = w["past"]
    tonight: ClubSession = w["tonight"]
    me, sec = w["member"], w["secretary"]
    out = [
        ("home", me, "/"),
        ("standings", me, reverse("club:standings")),
        ("statement", me, reverse("club:statement", args=[me.pk, past.pk])),
        ("settlement", me, reverse("club:settlement", args=[past.pk])),
        ("settlement-secretary", sec, reverse("club:settlement", args=[past.pk])),
        ("member", me, reverse("club:member", args=[me.pk])),
        ("member-secretary", sec, reverse("club:member", args=[me.pk])),
        ("member-statement", me, reverse("club:member_statement", args=[me.pk])),
        ("on-paper", sec, reverse("club:session_print", args=[past.pk])),
        ("audit", sec, reverse("club:audit")),
        ("backups", sec, reverse("club:backups")),
        ("club-account", sec, reverse("club:club_account")),
        ("owed", sec, reverse("club:owed")),
        ("period-statement", me, reverse("club:member_period_statement", args=[me.pk])),
        ("house-rules", sec, reverse("club:house_rules")),
        (
            "rules-in-force",
            me,
            reverse("games:rules_variant", args=["foster"]) + f"?table={w['physical'].pk}",
        ),
        ("members", sec, reverse("club:members")),
        ("session-washbook", me, reverse("club:session_washbook", args=[past.pk])),
        ("table-washbook", me, reverse("club:washbook", args=[past.tables.first().pk])),
        ("session", sec, tonight.get_absolute_url()),
        ("console", sec, reverse("club:console", args=[tonight.pk])),
        ("close-confirm", sec, reverse("club:session_close_confirm", args=[tonight.pk])),
        ("washbook-secretary", sec, reverse("club:washbook", args=[past.tables.first().pk])),
        ("correct-line", sec, reverse("club:line_correct", args=[_uncorrected(past).pk])),
        ("club-table", sec, w["physical"].get_club_url()),
        ("online-table", w["online"].seats.first().member, w["online"].get_absolute_url()),
    ]
    out += [
        (f"table-{name}", t.seats.get(position=0).member, t.get_absolute_url())
        for name, t in w["practice"].items()
    ]
    return out


def test_no_serious_or_critical_accessibility_violation(
    live: dict[str, Any], live_server: Any, browser: Any
) -> None:
    """Also no browser console error on any page (issue 56): the table pages' event
    streams come from the test's own events server (``live``), as on `make run`."""
    ARTIFACTS.mkdir(exist_ok=True)
    w = _evening()
    source = _axe_source()
    report: dict[str, Any] = {"pages": {}, "counts": Counter()}
    failures: list[str] = []
    contexts: dict[int, Any] = {}
    pages: dict[int, Any] = {}
    looking = {"at": ""}  # the page being checked, for the console's errors
    for name, who, path in _pages(w):
        looking["at"] = name
        if who.pk not in contexts:
            # bypass_csp: axe is injected as an inline script (the pages allow none)
            ctx = browser.new_context(
                viewport={"width": WIDTHS["phone"][0], "height": WIDTHS["phone"][1]},
                bypass_csp=True,
            )
            login(ctx, live_server.url, who)
            contexts[who.pk] = ctx
            # One tab a person, going from page to page (a new tab a page cost 0.3 s, and
            # axe compiled afresh in each: 0.46 s a page; in one tab it is compiled once).
            page = pages[who.pk] = ctx.new_page()
            # Any error the browser reports on its console (a policy it rejects, a script
            # error, a resource refused) fails the page, as a person's devtools would show it.
            page.on("console", lambda m: m.type == "error" and failures.append(
                f"{looking['at']}: console error: {m.text}"))  # fmt: skip
            page.on("pageerror", lambda e: failures.append(f"{looking['at']}: script error: {e}"))
        page = pages[who.pk]
        page.set_viewport_size({"width": WIDTHS["phone"][0], "height": WIDTHS["phone"][1]})
        page.goto(f"{live_server.url}{path}")
        page.add_script_tag(content=source)
        # One load a page, checked at each width in turn (the viewport resized: the media
        # queries apply again, as when a phone turns or a window is widened).
        for width_name, (width, height) in WIDTHS.items():
            page.set_viewport_size({"width": width, "height": height})
            # Nothing is cut off: the page never scrolls sideways (a wide table scrolls
            # inside its own region, its first column staying in view).
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                failures.append(f"{name} at {width} px scrolls sideways ({scroll_width} px)")
            # A table wider than its region says so above it, and only then (issue 56).
            hints = (
                "() => [...document.querySelectorAll('.table-wrap')].map(w => [w.scrollWidth >"
                " w.clientWidth + 2, !!(w.previousElementSibling && w.previousElementSibling"
                ".classList.contains('scroll-hint'))])"
            )
            # The page answers the load, and each resize, as it comes; a page that never
            # agrees is told below.
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(f"() => ({hints})().every(([w, s]) => w === s)",
                                       timeout=3000)  # fmt: skip
            hinted = page.evaluate(hints)
            if any(wide != said for wide, said in hinted):
                failures.append(f"{name} at {width} px: wide tables and their hints {hinted}")
            if name == "table-washbook" and width_name == "phone":
                wide_washbook = any(wide for wide, _ in hinted)
            if name == "console" and width_name == "desktop":
                console_columns = page.evaluate(
                    "() => { const l = document.getElementById('live').getBoundingClientRect();"
                    " const f = document.querySelector('#console-body > section.console-forms')"
                    ".getBoundingClientRect(); return [l.left, l.right, f.left, f.right]; }"
                )
            result = page.evaluate(
                "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
                " return {version: axe.version, violations: r.violations.map(v => ({id: v.id,"
                " impact: v.impact, nodes: v.nodes.length,"
                " targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))}; }"
            )
            report["axe"] = result["version"]
            report["pages"][f"{name}@{width_name}"] = result["violations"]
            for v in result["violations"]:
                report["counts"][v["impact"]] += v["nodes"]
                if v["impact"] in BAD:
                    failures.append(
                        f"{name} at {width} px: {v['id']} ({v['impact']}) {v['targets']}"
                    )
    for ctx in contexts.values():
        ctx.close()
    # The five-player washbook is wider than a phone (the hint was checked above), and
    # the console at 1280 px has two columns side by side: the room, then the forms.
    assert wide_washbook, "the washbook fits a 360-px phone: the hint went unchecked"
    live_left, live_right, forms_left, forms_right = console_columns
    assert live_right <= forms_left and forms_right - live_left > 900, console_columns
    report["checked"] = len(report["pages"])
    (ARTIFACTS / "axe.json").write_text(json.dumps(report, indent=2, default=dict))
    assert report["checked"] >= 2 * (13 + len(VARIANTS))
    assert failures == [], "\n".join(failures)


def test_every_page_in_spanish_is_accessible_and_says_it_is_spanish(
    live: dict[str, Any], live_server: Any, browser: Any
) -> None:
    """Issue 82: the same pages for a browser set to es-MX (no language chosen): each
    page's ``lang`` is Spanish, axe finds no serious or critical violation at a phone's
    width, and no English is left on it (tests/club/spanish.py)."""
    from tests.club.spanish import english_left

    w = _evening()
    DATA_WORDS = {"The Secretary", "helps the club"}
    source = _axe_source()
    failures: list[str] = []
    contexts: dict[int, Any] = {}
    for name, who, path in _pages(w):
        if who.pk not in contexts:
            ctx = browser.new_context(
                locale="es-MX",
                viewport={"width": WIDTHS["phone"][0], "height": WIDTHS["phone"][1]},
                bypass_csp=True,
            )
            login(ctx, live_server.url, who)
            contexts[who.pk] = ctx.new_page()
        page = contexts[who.pk]
        page.goto(f"{live_server.url}{path}")
        lang = page.evaluate("document.documentElement.lang")
        if lang != "es":
            failures.append(f"{name}: lang {lang!r}")
        # Names and reasons people typed are theirs, in their words (the secretary is
        # "The Secretary" here, a fee was waived as "helps the club"), not the club's.
        left = [t for t in english_left(page.content()) if t not in DATA_WORDS]
        if left:
            failures.append(f"{name}: English left: {left[:6]}")
        page.add_script_tag(content=source)
        result = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']}))"
            ".violations.map(v => [v.id, v.impact])"
        )
        failures += [f"{name}: {i} ({impact})" for i, impact in result if impact in BAD]
    for page in contexts.values():
        page.context.close()
    assert failures == [], "\n".join(failures)
