"""Whole deals in real browsers: two members at Conquián, one member against four bots."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Deal, DealAction
from games.play import reading
from tests.positions import deal_at, moves_before_the_end

from .conftest import ARTIFACTS, login
from .waits import boxes, turn_of, until

pytestmark = pytest.mark.e2e

PIPS = {"A": 11, "K": 10, "Q": 10, "J": 10, "JK": 15}


def pips(code: str) -> int:
    return PIPS.get(code, PIPS.get(code[:-1]) or int(code[:-1]))


def stamp(page: Any) -> str:
    return page.locator("#play").get_attribute("data-stamp") or ""


def db_stamp(table_id: int) -> str:
    d = reading.current_deal(table_id)
    return f"{d.pk}:{d.version}"


def wait_stamp(page: Any, value: str, timeout: float = 6000) -> None:
    """Wait until the page shows the state ``value`` ("deal:version") or a later one,
    settled (table.js sets #table-root's data-settled once a refresh is swapped in and
    the page has done what it does after one: the deal's end shown or not, the card in
    play scrolled into view; issue 77: a read between a push's swap and its settle found
    the stock's top above the screen). A computer player can move again before the live
    refresh of his last move lands, and the page then goes straight to the newer state
    (an exact wait timed out on it)."""
    page.wait_for_function(
        """s => { const f = document.getElementById('table-root');
             if (!f || !f.dataset.settled) return false;
             const [d, v] = f.dataset.settled.split(':').map(Number);
             const [wd, wv] = s.split(':').map(Number);
             return d > wd || (d === wd && v >= wv); }""",
        arg=value,
        timeout=timeout,
    )


def press(page: Any, locator: Any, keys: bool | str) -> None:
    """Activate a control by the mouse; by the keyboard alone (``keys`` True: focus it,
    as Tab would, and press Enter, as a keyboard user does); or by a finger (``"tap"``,
    in a context with touch)."""
    if keys == "tap":
        locator.tap(timeout=3000)
    elif keys:
        locator.focus(timeout=3000)
        page.keyboard.press("Enter")
    else:
        locator.click(timeout=3000)


def click_json(page: Any, data: dict[str, Any], keys: bool | str = False) -> None:
    """Click the play's button, opening "All legal plays" if needed. A live refresh can
    replace the region between the two clicks (a bot moved), so try a few times."""
    sel = f"button[name=action][value='{json.dumps(data)}']"
    for attempt in range(4):
        btn = page.locator(sel).first
        if not btn.is_visible():
            press(page, page.locator("details.plays summary"), keys)
        try:
            press(page, btn, keys)
            return
        except Exception:  # detached or hidden by a refresh: retry
            if attempt == 3:
                raise


def select(page: Any, cards: list[str], keys: bool | str = False) -> None:
    for code in cards:
        press(
            page,
            page.locator(f'#hand button[data-card="{code}"][aria-pressed="false"]').first,
            keys,
        )


def play(page: Any, data: dict[str, Any], keys: bool | str = False) -> None:
    """Make one move the way a player would: selecting cards where the page asks for them;
    with ``keys``, by the keyboard alone."""
    t = data["type"]
    before = stamp(page)
    if t in ("use", "meld") and data.get("to") is None and not data.get("borrow"):
        select(page, data["hand"], keys)
        press(page, page.locator("button[name=intent][value=layout]"), keys)
    elif t in ("throw", "discard"):
        select(page, [data["card"]], keys)
        press(page, page.locator("button[name=intent][value=discard]"), keys)
    elif t in ("layout", "spread") and not any("=" in c for c in data["cards"]):
        select(page, data["cards"], keys)
        press(page, page.locator("button[name=intent][value=layout]"), keys)
    elif t == "tunk":
        # K7, KO9: one decision per discard the Tunk may go with, each confirmed
        decision = page.locator("details.decision[data-type=tunk]").filter(
            has=page.locator(f"button[value='{json.dumps(data)}']")
        )
        press(page, decision.locator("summary"), keys)
        assert "doubled (K9)" in decision.inner_text()
        press(page, decision.locator("button.risky"), keys)
    elif t in ("challenge", "drop"):
        # A decision that costs points is confirmed first (issue 38, item 4): the
        # Colonel's challenge, Tonk's drop (T9).
        decision = page.locator(f"details.decision[data-type={t}]")
        press(page, decision.locator("summary"), keys)
        assert "Your hand counts" in decision.inner_text()
        press(page, decision.locator("button.risky"), keys)
    else:
        click_json(page, data, keys)
    # The bound is for a loaded machine (the whole suite on two cores: a 6 s bound once
    # expired there); a move answers in well under a second alone.
    page.wait_for_function(
        "s => { const f = document.getElementById('table-root'); return (f && f.dataset.settled !== s) || document.querySelector('.choices'); }",
        arg=before,
        timeout=15000,
    )
    if page.locator(".choices").count() and stamp(page) == before:
        click_json(page, data, keys)
        page.wait_for_function(
            "s => document.getElementById('table-root').dataset.settled !== s",
            arg=before,
            timeout=15000,
        )


def choose_conquian(legal: list[Any]) -> dict[str, Any]:
    js = [a.to_json() for a in legal]
    for pred in (
        lambda j: j["type"] == "use" and j.get("to") is None and not j.get("borrow"),
        lambda j: j["type"] == "use" and j.get("to") is not None,
        lambda j: j["type"] == "meld" and j.get("to") is None and not j.get("borrow"),
        lambda j: j["type"] in ("turn", "pass"),
    ):
        found = [j for j in js if pred(j)]
        if found:
            return found[0]
    throws = [j for j in js if j["type"] == "throw"]
    if throws:
        return max(throws, key=lambda j: pips(j["card"]))
    return js[0]


def play_conquian_deal(table_id: int, pages: list[Any], watchers: tuple[Any, ...] = ()) -> None:
    """Play the current deal to its end, each move by the browser of the seat to move;
    every other browser (and each watcher) must show each move live."""
    number = reading.current_deal(table_id).number
    moves = 0
    while moves < 300:
        deal = reading.current_deal(table_id)
        if deal.number > number:
            break
        state = reading.load_state(deal)
        seat = state.to_move()
        data = choose_conquian(state.legal_actions(seat))
        play(pages[seat], data)
        moves += 1
        now = db_stamp(table_id)
        wait_stamp(pages[seat], now)
        for other in [*pages[:seat], *pages[seat + 1 :], *watchers]:
            wait_stamp(other, now, timeout=3000)  # the other screens update live
    assert Deal.objects.get(table_id=table_id, number=number).finished


def test_two_members_play_a_conquian_deal_to_its_end_each_seeing_the_other_live(
    live: dict[str, Any], browser: Any, make_table: Any, make_member: Any
) -> None:
    """Two people, no computer player: each move is made in its seat's browser and shown
    live in the other's. The deal starts sixteen moves before its end, built by the engine
    (issue 55: the whole Conquián deal is played in the browser by the phone's test)."""
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    seed, script = moves_before_the_end("conquian", 2, choose_conquian, 16, first_seed=20)
    deal_at(table, seed, script, [ann, bob])
    pages = []
    # Each page's requests while the deal is played: its moves, and its live refreshes.
    asked: list[dict[str, int]] = [{"act": 0, "state": 0}, {"act": 0, "state": 0}]
    # A page holds the stream's notice of its own move for the move's answer at most
    # 300 ms (table.js, HOLD: a slow answer lets the refresh show the table first, issue
    # 40), then fetches: on a loaded machine an answer that slow costs its page a fetch.
    slow = [0, 0]
    for i, m in enumerate((ann, bob)):
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
        login(ctx, live["url"], m)
        page = ctx.new_page()
        page.goto(f"{live['url']}/tables/{table.pk}/")
        page.on("request", lambda r, n=asked[i]: [n.__setitem__(k, n[k] + 1) for k in n
                                                    if f"/{k}/" in r.url])  # fmt: skip
        page.on("requestfinished", lambda r, i=i: slow.__setitem__(i, slow[i] + 1)
                if "/act/" in r.url and r.timing["responseEnd"] > 300 else None)  # fmt: skip
        pages.append(page)
    for page in pages:
        page.wait_for_selector("#conn[data-state=live]", timeout=8000)
        # a stream lost meanwhile makes the page poll (fetches by design): counted
        page.evaluate(
            """() => { window.__lost = 0; new MutationObserver(() => {
                 if (document.getElementById('conn').dataset.state !== 'live') window.__lost += 1;
               }).observe(document.getElementById('conn'), {attributes: true}); }"""
        )
    play_conquian_deal(table.pk, pages)
    lost = [page.evaluate("window.__lost") for page in pages]
    first = Deal.objects.get(table_id=table.pk, number=1)
    assert first.log.count() == len(script) + 16
    # A page is pushed its part for the other's moves (issue 59: each page fetched it,
    # four requests of a move's five at a table of five) and has its own move's answer:
    # it fetches nothing, but for the move that ended the deal, whose notice (everything
    # changed) its mover's page still fetches, and for a move whose answer came slower
    # than its notice's hold, and a stream lost meanwhile (polls every 2 s while it is
    # down, one more on reopening). make test once found bob's page with two fetches
    # where one was allowed, on a busy machine; neither cause was recorded then.
    moves = [n["act"] for n in asked]
    assert sum(moves) == 16, asked
    assert sum(n["state"] for n in asked) <= 1 + sum(slow) + 3 * sum(lost), (asked, slow, lost)
    for i, page in enumerate(pages):
        page.wait_for_selector("#club [data-lines='1']", timeout=6000)
        assert "Game 1, deal 1:" in page.locator("#club").inner_text()
        assert page.locator("#conn").get_attribute("data-state") == "live"
        # Both players see the deal's end (issue 28), and the next deal waits under it.
        end = page.locator("#deal-end")
        end.wait_for(state="visible", timeout=6000)
        assert end.get_attribute("data-deal") == str(first.pk)
        assert "Game 1, deal 1 is over" in end.inner_text()
        assert not page.locator("#play .deal-area").is_visible()
        page.screenshot(
            path=str(ARTIFACTS / f"conquian-{'ann' if i == 0 else 'bob'}.png"), full_page=True
        )
    # A live refresh (the next deal's first move) does not wipe it for the other player.
    deal = reading.current_deal(table.pk)
    state = reading.load_state(deal)
    seat = state.to_move()
    pages[seat].locator("[data-continue]").click()
    assert pages[seat].locator("#play .deal-area").is_visible()
    assert not pages[seat].locator("#deal-end").is_visible()
    play(pages[seat], choose_conquian(state.legal_actions(seat)))
    other = pages[1 - seat]
    wait_stamp(other, db_stamp(table.pk), timeout=6000)
    assert other.locator("#deal-end").is_visible()
    other.locator("[data-continue]").click()
    assert other.locator("#play .deal-area").is_visible()


def open_practice(
    live: dict[str, Any],
    browser: Any,
    member: Any,
    variant: str,
    players: int | None,
    options: dict[str, str],
    viewport: tuple[int, int] = (1200, 900),
    touch: bool = False,
) -> tuple[Any, int]:
    """Start a practice table from the home page; the page (live) and the table's id."""
    ctx = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, has_touch=touch
    )
    login(ctx, live["url"], member)
    page = ctx.new_page()
    page.goto(f"{live['url']}/")
    page.select_option("#practice-variant", variant)
    # The home page's practice form shows the chosen game's options only (issue 28).
    shown = page.locator(".variant-options:not([hidden])")
    assert shown.count() == 1 and shown.get_attribute("data-variant") == variant
    if players is not None:
        page.select_option(f"#players-{variant}", str(players))
    for name, value in options.items():
        page.select_option(f"#opt-{variant}-{name}", value)
    page.get_by_role("button", name="Start a practice table").click()
    page.wait_for_url("**/tables/*/")
    table_id = int(page.url.rstrip("/").split("/")[-1])
    page.wait_for_selector("#conn[data-state=live]", timeout=8000)
    return page, table_id


def play_practice_deal(
    live: dict[str, Any],
    browser: Any,
    member: Any,
    variant: str,
    players: int | None,
    options: dict[str, str],
    choose: Callable[[list[Any], int], dict[str, Any]],
    shot: str,
    *,
    viewport: tuple[int, int] = (1200, 900),
    keys: bool = False,
) -> int:
    """Start a practice table from the home page and play its first deal to the end in
    the browser, the bots moving through the real worker; returns the table's id."""
    page, table_id = open_practice(live, browser, member, variant, players, options, viewport)
    deadline = time.monotonic() + 240
    my_moves = 0
    while True:
        # the bots move, and a call round closes, through the worker
        turn = turn_of(
            table_id, 0, past=lambda d: d.number > 1, seconds=deadline - time.monotonic()
        )
        if turn is None:
            break
        deal, state = turn
        # Our turn: the page must show the state with the bots' actions since our last
        # one, reached live (it is never reloaded); wait_stamp fails otherwise.
        wait_stamp(page, f"{deal.pk}:{deal.version}")
        play(page, choose(state.legal_actions(0), my_moves), keys)
        my_moves += 1
    first = Deal.objects.get(table_id=table_id, number=1)
    assert first.finished, "the deal did not end in time"
    assert first.options == reading.current_deal(table_id).options
    # The computer players did play (each of their actions before one of ours was seen
    # live above; those that ended the deal are seen with its line below). Read from the
    # deal's actions, not counted by a timed poll, which missed a bot's whole turn in CI
    # ('assert 0 >= 1' at 664b748).
    assert DealAction.objects.filter(deal=first).exclude(seat=0).exists()
    page.wait_for_selector("#club [data-lines='1']", timeout=6000)
    assert "Game 1, deal 1" in page.locator("#club").inner_text()  # "of 3" at three (L5)
    page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
    return table_id


def choose_rummy(legal: list[Any], my_moves: int) -> dict[str, Any]:
    """Lay out and add at once; draw from the pack, but take a card from the stock on
    every third draw when one may be taken; discard the highest card."""
    js = [a.to_json() for a in legal]
    for t in ("layout", "add"):
        found = [j for j in js if j["type"] == t]
        if found:
            return found[0]
    stock = [j for j in js if j["type"] == "draw" and j["source"] == "stock"]
    if stock and my_moves % 3 == 2:
        return stock[-1]
    draws = [j for j in js if j["type"] == "draw" and j["source"] == "pack"]
    if draws:
        return draws[0]
    discards = [j for j in js if j["type"] == "discard"]
    if discards:
        return max(discards, key=lambda j: pips(j["card"]))
    return js[0]


def test_three_handed_with_an_exposed_stock_and_a_joker_against_two_bots(
    live: dict[str, Any], browser: Any, make_member: Any
) -> None:
    """Foster's special laws for three, every discard left showing (book p.36)."""
    table_id = play_practice_deal(
        live, browser, make_member("Player Three"), "foster-three", None,
        # The club's safety cap (10 turnovers of the stock): a deal whose pack is made up
        # again and again once ran past the test's four minutes in CI.
        {"stock": "exposed", "joker": "True", "max_turnovers": "10"}, choose_rummy,
        "foster-three-exposed.png",
        viewport=(360, 800),
    )  # fmt: skip
    deal = Deal.objects.get(table_id=table_id, number=1)
    assert deal.options["stock"] == "exposed" and deal.options["joker"] is True


def choose_colonel(legal: list[Any], my_moves: int) -> dict[str, Any]:
    """The rummy choice, but challenge on the member's sixth turn if he may, and accept
    a challenge (the test must press those buttons too)."""
    js = [a.to_json() for a in legal]
    for t in ("accept", "challenge"):
        found = [j for j in js if j["type"] == t]
        if found and (t == "accept" or my_moves >= 10):
            return found[0]
    return choose_rummy(legal, my_moves)


def choose_tonk(legal: list[Any], my_moves: int) -> dict[str, Any]:
    """Let the call on the deal go by (TO5), spread and hit at once, drop from the
    eighth move on when the drop is offered (T9: a decision confirmed in the dock), pluck
    the stock every third draw, else draw from the pack; discard the highest card."""
    js = [a.to_json() for a in legal]
    for t in ("no-call", "spread", "hit"):
        found = [j for j in js if j["type"] == t]
        if found:
            return found[0]
    drops = [j for j in js if j["type"] == "drop"]
    if drops and my_moves >= 8:
        return drops[0]
    plucks = [j for j in js if j["type"] == "pluck"]
    if plucks and my_moves % 3 == 2:
        return plucks[0]
    for t in ("draw", "pluck"):
        found = [j for j in js if j["type"] == t]
        if found:
            return found[0]
    discards = [j for j in js if j["type"] == "discard"]
    if discards:
        return max(discards, key=lambda j: pips(j["card"]))
    return js[0]


def tonk_until(
    page: Any, table_id: int, kind: str, *, seconds: float, moves_as: int
) -> list[dict[str, Any]]:
    """Play the member's Tonk moves in the page (``choose_tonk``, counting his moves up to
    ``moves_as``) until a turn of his offers an action of ``kind``; its legal actions."""
    deadline = time.monotonic() + seconds
    moves = 0
    while True:
        assert time.monotonic() < deadline, f"no turn of ours offered {kind}"
        # our turn, the call round closed (it closes alone)
        turn = turn_of(table_id, 0, past=lambda d: False, seconds=deadline - time.monotonic())
        assert turn is not None
        deal, state = turn
        legal = [a.to_json() for a in state.legal_actions(0)]
        if any(j["type"] == kind for j in legal):
            return legal
        wait_stamp(page, f"{deal.pk}:{deal.version}")
        play(page, choose_tonk(state.legal_actions(0), min(moves, moves_as)))
        moves += 1


# A whole deal of five-hand Foster, of Colonel and of Tonk against two computer players is
# played once each, on a phone (tests/e2e/test_phone.py); the desktop's copies of those
# deals were cut (issue 55: one whole deal a game in the browser).


def test_a_whole_tonk_deal_by_the_keyboard_alone(
    live: dict[str, Any], browser: Any, make_member: Any
) -> None:
    """Issue 40: every Tonk move by the keyboard (each control focused and Enter pressed,
    no mouse): the call round, draws, plucks, spreads, discards, the drop confirmed."""
    table_id = play_practice_deal(
        live, browser, make_member("Player Keys"), "tonk", 2, {}, choose_tonk,
        "tonk-by-keyboard.png", keys=True,
    )  # fmt: skip
    deal = Deal.objects.get(table_id=table_id, number=1)
    assert deal.outcome is not None and deal.finished


def choose_tunk(legal: list[Any], my_moves: int, keep_high: bool = False) -> dict[str, Any]:
    """Tunk when offered (K7), on the discard of the highest card it may go with;
    take the stock's card every third draw (K5), else the pack's; discard the highest
    (``keep_high``: the lowest, so that the hand counts high and the game ends sooner)."""
    js = [a.to_json() for a in legal]
    tunks = [j for j in js if j["type"] == "tunk"]
    if tunks:
        return max(tunks, key=lambda j: pips(j["card"]))
    discards = [j for j in js if j["type"] == "discard"]
    if discards:
        return (min if keep_high else max)(discards, key=lambda j: pips(j["card"]))
    plucks = [j for j in js if j["type"] == "pluck"]
    if plucks and my_moves % 3 == 2:
        return plucks[0]
    return next((j for j in js if j["type"] == "draw"), js[0])


@pytest.mark.deal_seed(4)
def test_a_member_plays_a_whole_tunk_game_against_a_bot_on_a_phone(
    live: dict[str, Any], browser: Any, make_member: Any
) -> None:
    """Issue 41: a whole game of Tunk, deal after deal until one player is left (K10), at
    a practice table at 360 px: the game's scores shown before each deal, the member's
    draws, discards and Tunks (each confirmed) made in the page, each move by the mouse,
    the keyboard alone or a finger in turn, the bot's moves seen
    live, and at the end the page names who won the game."""
    page, table_id = open_practice(
        live, browser, make_member("Player Tunk"), "tunk", 2, {}, viewport=(360, 800), touch=True
    )
    inputs: set[str] = set()
    deadline = time.monotonic() + 300
    my_moves = tunks = 0
    held = False  # a plucked card selected: the discard held back
    draws_seen = 0  # draw decisions whose card was checked in view
    ends_seen = 0  # deal ends seen whole on the screen
    shots: list[str] = []
    while True:
        turn = turn_of(
            table_id, 0, past=lambda d: d.game_number > 1, seconds=deadline - time.monotonic()
        )
        if turn is None:
            break
        deal, state = turn
        wait_stamp(page, f"{deal.pk}:{deal.version}")
        # The last deal's end, until the member goes on (issue 28), all of it on the
        # phone's screen, "Continue" too (issue 56: three screens): read at one instant
        # in the page, whether it shows and where (issue 77: a read that it shows, then
        # a read of its box, straddled a refresh that showed an end already continued
        # for 20 ms; the page now decides it in the refresh's own task).
        seen = page.evaluate(
            """() => { const e = document.getElementById('deal-end');
               if (!e || !e.checkVisibility()) return null;
               const go = e.querySelector('[data-continue]');
               const r = e.getBoundingClientRect(), g = go.getBoundingClientRect();
               return {text: e.innerText, continue: go.checkVisibility(),
                       top: r.top, bottom: g.bottom}; }"""
        )
        if seen is not None:
            assert "The next deal has been dealt" in seen["text"]
            assert seen["continue"] and seen["top"] >= -1 and seen["bottom"] <= 800, seen
            ends_seen += 1
            page.locator("#deal-end [data-continue]").click()
        if deal.number == 2 and not shots:  # the game's scores after the first deal
            assert "The game before this deal" in page.locator(".game-scores").inner_text()
            page.screenshot(path=str(ARTIFACTS / "tunk-game-scores.png"), full_page=True)
            shots.append("tunk-game-scores.png")
        if state.phase == "draw":  # the stock's top, decided about: in view, clear of the dock
            top, dock = boxes(page, ".centre .pile.stock .card", "#dock")  # one instant
            # within a pixel either way: the page scrolls by fractions of one (seen in CI:
            # the card's top at -0.08 px after the page brought it clear of the dock)
            assert top and dock and top["y"] >= -1 and top["y"] + top["height"] <= dock["y"] + 1, (
                top, dock)  # fmt: skip
            draws_seen += 1
        plucked = getattr(state, "plucked", None)
        if plucked is not None and not held:  # issue 56: the plucked card is kept (K5)
            card = page.locator(f'#hand [data-card="{plucked.code}"]')
            card.click()
            discard = page.locator("button[name=intent][value=discard]")
            assert discard.is_disabled() and page.locator("#discard-hint").is_visible()
            card.click()  # put back: the button is offered again
            assert discard.is_enabled() and not page.locator("#discard-hint").is_visible()
            held = True
        # after the first deal the member keeps his high cards: the game ends sooner
        action = choose_tunk(state.legal_actions(0), my_moves, keep_high=deal.number > 1)
        tunks += action["type"] == "tunk"
        # each move by one way in, in turn: the mouse, the keyboard alone, a finger
        by = ("mouse", "keys", "tap")[my_moves % 3]
        play(page, action, {"mouse": False, "keys": True, "tap": "tap"}[by])
        inputs.add(by)
        my_moves += 1
    deals = list(Deal.objects.filter(table_id=table_id).order_by("number"))
    last = deals[-2]
    assert deals[-1].game_number == 2, "the game did not end in time"
    assert all(d.finished and d.game_number == 1 for d in deals[:-1]) and len(deals) > 2
    # the game's end: one player left under 100 (K10), said on the page with the winner
    state = reading.load_state(last)
    winners = state.rules.spec.game_winners(state)
    assert len(winners) == 1
    notice = page.locator(".game-over")
    notice.wait_for(timeout=8000)
    name = "Player Tunk (you)" if winners == (0,) else "Bot"
    assert name in notice.locator(".game-winners").inner_text()
    assert f"after {len(deals) - 1} deals" in notice.inner_text()
    page.screenshot(path=str(ARTIFACTS / "tunk-game-over.png"), full_page=True)
    # the washbook says how the game is booked: deal by deal (issue 41, item 4)
    page.goto(f"{live['url']}/club/tables/{table_id}/washbook/")
    assert "booked deal by deal" in page.locator(".booking").inner_text()
    assert my_moves >= 3 and inputs == {"mouse", "keys", "tap"}, (my_moves, inputs, len(deals))
    assert held, "the member never plucked: the held discard was not checked"
    assert draws_seen >= 3, draws_seen
    assert ends_seen >= 1, ends_seen
    # Seeded (deal_seed 4): two deals, twelve moves of the member's. Another length means
    # the play is not what the seed gives: if the engine or the bots changed on purpose,
    # choose a seed anew (E2E_DEAL_SEED=n runs the test from another).
    assert (len(deals) - 1, my_moves) == (2, 12), "the seeded game's length changed"


def test_a_substitute_takes_over_a_seat_and_plays_for_the_leaver(
    live: dict[str, Any], browser: Any, make_table: Any, make_member: Any
) -> None:
    """L6 in the browser: Ann appoints Cleo from the table, Bob consents, Cleo takes Ann's
    seat (her hand, her turn) while Ann only watches, and the deal is booked to Ann.

    The deal starts eight moves before a won end, built by the engine (issue 55): a whole
    Conquián deal is played in the browser by the phone's test; here what matters is the
    seat changing hands and the deal booked after it."""
    from club.models import Substitution, WashbookEntry

    ann, bob, cleo = make_member("Ann"), make_member("Bob"), make_member("Cleo")
    table = make_table("conquian", [ann, bob])
    seed, script = moves_before_the_end("conquian", 2, choose_conquian, 8)
    held = len(reading.load_state(deal_at(table, seed, script, [ann, bob])).player_view(0)["hand"])
    pages = {}
    for m in (ann, bob, cleo):
        ctx = browser.new_context(viewport={"width": 1000, "height": 900})
        login(ctx, live["url"], m)
        pages[m.display_name] = ctx.new_page()
    a, b, c = pages["Ann"], pages["Bob"], pages["Cleo"]
    for page in (a, b):
        page.goto(f"{live['url']}/tables/{table.pk}/")
        page.wait_for_selector("#conn[data-state=live]", timeout=8000)
    assert a.locator("#hand button").count() == held  # Ann holds seat 0's hand

    # Ann goes to the table's club page from the play page and names Cleo.
    a.locator("a[data-club-page]").click()
    a.wait_for_url("**/club/tables/*/")
    a.select_option("select[name=substitute]", label="Cleo")
    a.get_by_role("button", name="Appoint a substitute for this game").click()
    a.wait_for_selector("text=Cleo for Ann")
    # Bob consents on the same page.
    b.goto(f"{live['url']}{table.get_club_url()}")
    b.get_by_role("button", name="Consent").click()
    b.wait_for_selector("text=active")

    # Cleo opens the table: she has seat 0 and its hand; Ann now sees the public view.
    c.goto(f"{live['url']}/tables/{table.pk}/")
    c.wait_for_selector("#conn[data-state=live]", timeout=8000)
    assert c.locator("#hand button").count() == held
    assert "Cleo (you)" in c.locator(".players").inner_text()
    assert "Cleo plays for Ann" in c.locator("#club").inner_text()
    a.goto(f"{live['url']}/tables/{table.pk}/")
    a.wait_for_selector("#conn[data-state=live]", timeout=8000)
    assert a.locator("#hand").count() == 0
    b.goto(f"{live['url']}/tables/{table.pk}/")
    b.wait_for_selector("#conn[data-state=live]", timeout=8000)

    # Cleo and Bob play the deal out; Ann's screen follows it live as a spectator.
    play_conquian_deal(table.pk, [c, b], watchers=(a,))
    c.wait_for_selector("#club [data-lines='1']", timeout=6000)
    first = Deal.objects.get(table=table, number=1)
    members = set(
        WashbookEntry.objects.filter(line_id=first.washbook_line_id).values_list(
            "member_id", flat=True
        )
    )
    assert cleo.pk not in members and ann.pk in members  # booked to the leaver (L6)
    # the eight moves left were made in the browsers, Ann's seat's by Cleo
    played = DealAction.objects.filter(deal=first, index__gte=len(script))
    assert played.count() == 8
    assert {a.by_member_id for a in played if a.seat == 0} == {cleo.pk}
    c.screenshot(path=str(ARTIFACTS / "substitute-cleo.png"), full_page=True)
    # With two players each deal is a game (L5), so the appointment has lapsed (L6): Ann
    # has her seat and a hand again, live, and Cleo is back to watching.
    assert Substitution.objects.get(table=table).status == Substitution.LAPSED
    a.locator("#deal-end [data-continue]").click()  # past the deal's end (issue 28)
    a.wait_for_selector("#hand button", timeout=6000)
    c.wait_for_selector("#hand", state="detached", timeout=6000)


def test_answers_out_of_order_keep_the_selection_and_the_newest_state(
    live: dict[str, Any], browser: Any, make_member: Any
) -> None:
    """An action's own answer can come after the live refresh that the stream sent for it
    (issue 40's keyboard play found it: a fast player selected the card to discard, then
    the draw's answer swept the selection away). Here the answers are held back on
    purpose: a card selected meanwhile stays selected, and an answer older than the table
    shown (the computer player has moved since) does not put the table back."""
    page, table_id = open_practice(live, browser, make_member("Player Quick"), "tonk", 2, {})
    # to the start of one of our turns (the call round on the deal first, T3)
    legal = tonk_until(page, table_id, "draw", seconds=60, moves_as=0)
    wait_stamp(page, db_stamp(table_id))
    # (The form that sent an action is replaced by its answer, so count at the region.)
    page.evaluate(
        """() => { window.__answers = 0; document.body.addEventListener('htmx:beforeSwap',
           e => { if (e.detail.requestConfig.verb === 'post')
                    setTimeout(() => { window.__answers += 1; }, 0); }); }"""
    )
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        if route.request.is_navigation_request():  # a form sent without htmx: let it go
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route("**/act/", hold)

    def answer(n: int) -> None:
        route, response = held.pop()
        route.fulfill(response=response)
        # (counted a task after the answer's swap, htmx's settle included)
        page.wait_for_function("n => window.__answers >= n", arg=n, timeout=6000)

    # 1. Draw; the stream's refresh shows the drawn card before the draw's answer comes.
    before = db_stamp(table_id)
    click_json(page, next(j for j in legal if j["type"] == "draw"))
    until(lambda: db_stamp(table_id) != before, "the draw in the database", page=page)
    wait_stamp(page, db_stamp(table_id))
    # The handler holds the answer once its fetch returns, which can be after the stream's
    # refresh has shown the new state (CI saw it): wait for it rather than assume it.
    until(lambda: held, "the draw's answer held", page=page)
    state = reading.load_state(reading.current_deal(table_id))
    discard = max(
        (j for j in (a.to_json() for a in state.legal_actions(0)) if j["type"] == "discard"),
        key=lambda j: pips(j["card"]),
    )
    # By the keyboard: the card focused and Enter pressed, then on to the Discard button.
    select(page, [discard["card"]], keys=True)
    chosen = page.locator(f'#hand button[data-card="{discard["card"]}"][aria-pressed="true"]')
    assert chosen.count() == 1
    page.locator("button[name=intent][value=discard]").focus()
    # The player presses Enter the moment the draw's answer lands (a task after its swap).
    page.evaluate(
        """() => document.body.addEventListener('htmx:afterSwap', function once(e) {
             if (e.detail.requestConfig.verb !== 'post') return;
             document.body.removeEventListener('htmx:afterSwap', once);
             window.__focused = document.activeElement.outerHTML.slice(0, 80);
             window.__selected = document.querySelectorAll('#hand [aria-pressed=true]').length;
             setTimeout(() => { document.activeElement.click(); window.__clicked = true; }, 0);
           })"""
    )
    posted = db_stamp(table_id)
    answer(1)
    page.wait_for_function("() => window.__clicked", timeout=6000)
    assert page.url.endswith(f"/tables/{table_id}/"), (
        "Enter at once after the refresh sent the form without htmx (before it was set up)"
    )
    assert page.evaluate("() => window.__selected") == 1, (
        "the draw's late answer cleared the card selected since"
    )
    assert 'value="discard"' in page.evaluate("() => window.__focused"), (
        "the refresh dropped the keyboard's place on the Discard button"
    )

    # 2. The discard went (by htmx, with its card); the computer player moves before the
    # discard's answer comes.
    # The stamp and the turn from one read of the deal: read apart, the computer player's
    # last action could fall between them (CI at 09425d5 saw '53:7' != '53:6').
    def moved() -> str | None:
        deal = reading.current_deal(table_id)
        now = f"{deal.pk}:{deal.version}"
        return now if now != posted and held and reading.load_state(deal).to_move() == 0 else None

    now = until(moved, "the computer player's move, the discard's answer held", 15, page=page)
    wait_stamp(page, now)
    answer(2)
    assert stamp(page) == now, "the discard's late answer put the table back"
    assert page.url.endswith(f"/tables/{table_id}/")
    assert not page.locator("#live .notice.reject").count()


def test_a_refresh_of_the_state_shown_leaves_an_open_decision_open(
    live: dict[str, Any], browser: Any, make_member: Any
) -> None:
    """A live refresh asked for before one's own action's answer came brings the state
    already shown: it changes nothing, so the decision being confirmed (here Tonk's drop,
    T9) stays open, with its explanation, instead of snapping shut under the finger."""
    page, table_id = open_practice(live, browser, make_member("Player Still"), "tonk", 2, {})
    tonk_until(page, table_id, "drop", seconds=90, moves_as=7)  # a turn that offers the drop
    shown = db_stamp(table_id)
    wait_stamp(page, shown)
    decision = page.locator("details.decision[data-type=drop]")
    decision.locator("summary").click()
    assert decision.get_attribute("open") is not None
    # the refresh the stream asks for, answered with the whole region (no "since")
    page.evaluate(
        """url => new Promise(done => {
             document.body.addEventListener('htmx:afterRequest', () => setTimeout(done, 50),
                                            { once: true });
             htmx.ajax('GET', url, { target: '#live', swap: 'innerHTML' });
           })""",
        page.locator("#live").get_attribute("hx-get"),
    )
    assert stamp(page) == shown
    assert decision.get_attribute("open") is not None, "the refresh closed the decision"
    assert decision.locator("button.risky").is_visible()
