"""Engine micro-benchmark: `legal_actions` right after a draw, with a full hand (eleven
cards) and two jokers on the table, in five-player Foster (the hardest case the issue
names). Positions come from seeded random play, so the figure is reproducible."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from games.engine import Draw, make_rules, new_deal
from games.engine.foster import RummyDeal


def _jokers_on_table(view: dict[str, Any]) -> int:
    return sum(1 for c in view["combinations"] for tc in c["cards"] if tc["card"] == "JK")


def positions(count: int, seed: int = 7) -> list[tuple[RummyDeal, int]]:
    """States right after a draw where the drawer holds 11 cards and 2 jokers are down."""
    rules = make_rules("foster")
    rng = random.Random(seed)
    found: list[tuple[RummyDeal, int]] = []
    while len(found) < count:
        state = new_deal(rules, 5, 0, seed=rng.randrange(2**32))
        assert isinstance(state, RummyDeal)
        while not state.is_over():
            seat = state.to_move()
            assert seat is not None
            action = rng.choice(state.legal_actions(seat))
            state.apply(action)
            if (
                isinstance(action, Draw)
                and not state.is_over()
                and len(state.player_view(seat)["hand"]) == 11
                and _jokers_on_table(state.spectator_view()) == 2
            ):
                found.append((state.copy(), seat))
                break
    return found


def legal_actions_after_draw(quick: bool = False) -> dict[str, Any]:
    pos = positions(10 if quick else 40)
    cold: list[float] = []
    counts: list[int] = []
    repeat = 20 if quick else 100
    for state, seat in pos:
        for _ in range(repeat):
            fresh = state.copy()
            fresh._legal_key = -1  # a copy shares nothing cached: force the generation
            t = time.perf_counter()
            legal = fresh.legal_actions(seat)
            cold.append(time.perf_counter() - t)
        counts.append(len(legal))
    cold.sort()
    return {
        "positions": len(pos),
        "calls": len(cold),
        "median_us": round(statistics.median(cold) * 1e6, 1),
        "p99_us": round(cold[int(len(cold) * 0.99) - 1] * 1e6, 1),
        "legal_actions_median": statistics.median(counts),
        "legal_actions_max": max(counts),
    }


if __name__ == "__main__":
    print(legal_actions_after_draw())
