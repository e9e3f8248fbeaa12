"""How a browser test waits (issue 77): for a state, never for a time.

What the page shows is waited for through Playwright (``wait_for_function``,
``wait_for(state=...)``, ``test_play.wait_stamp``). What only the servers know (a computer
player's move in the worker, an evening the worker balanced, a route the test holds, a
port opening) is polled here, with a deadline and the name of what was waited for.
``tests/foundation/test_waits.py`` fails on a sleep or a timed wait anywhere else in
``tests/e2e/``. What the page shows is read in one ``evaluate`` where an assertion needs
more than one value of it (``boxes``): a refresh can swap the live part in between reads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def until[T](
    condition: Callable[[], T | None],
    what: str,
    seconds: float = 10,
    *,
    page: Any = None,
    every: float = 0.05,
) -> T:
    """The first true value ``condition`` returns, asked every ``every`` seconds; fails
    naming ``what`` after ``seconds``. With ``page``, Playwright's own loop turns while
    waiting (its routes' handlers and its events run only inside its calls)."""
    deadline = time.monotonic() + seconds
    while True:
        got = condition()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        if page is not None:
            page.wait_for_timeout(every * 1000)
        else:
            time.sleep(every)


def turn_of(
    table_id: int,
    seat: int,
    *,
    past: Callable[[Any], bool],
    seconds: float,
) -> tuple[Any, Any] | None:
    """The table's deal and its state once it is ``seat``'s turn (and no call round is
    open, TO5); None once ``past(deal)`` holds (the deal or game the test plays is over).
    The computer players move meanwhile, through the real worker."""
    from games.play import call_round, reading

    def check() -> tuple[Any, ...] | None:
        deal = reading.current_deal(table_id)
        if deal is None:
            return None
        if past(deal):
            return (None, None)
        if call_round.is_open(deal):
            return None
        state = reading.load_state(deal)
        return (deal, state) if state.to_move() == seat else None

    deal, state = until(check, f"seat {seat}'s turn at table {table_id}", max(seconds, 0.1))
    return None if deal is None else (deal, state)


BOXES = """sels => sels.map(s => {
  const all = document.querySelectorAll(s), e = all[all.length - 1];
  if (!e || !e.checkVisibility()) return null;
  const r = e.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
})"""


def boxes(page: Any, *selectors: str) -> list[dict[str, float] | None]:
    """The boxes of the last element each selector finds, read at one instant in the
    page (None for one absent or hidden)."""
    got: list[dict[str, float] | None] = page.evaluate(BOXES, list(selectors))
    return got
