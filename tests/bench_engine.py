"""Engine micro-benchmark: `legal_actions` right after a draw, with a full hand (eleven
cards) and two jokers on the table, in five-player Foster (the hardest case the issue
names). Positions come from seeded random play, so the figure is reproducible."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from games.engine import Draw, make_rules, new_deal
from games.engine.rummy.deal import RummyDeal


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


def _games(variant: str, players: int, deals: int, seed: int) -> list[tuple[Any, list[Any]]]:
    """Seeded random deals: each one's fresh state and the actions played in it."""
    rules = make_rules(variant)
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        state = new_deal(rules, players, 0, seed=rng.randrange(2**32))
        start = state.copy()
        actions = []
        while not state.is_over():
            seat = state.to_move()
            assert seat is not None
            action = rng.choice(state.legal_actions(seat))
            state.apply(action)
            actions.append(action)
        out.append((start, actions))
    return out


def snapshot_per_action(quick: bool = False) -> dict[str, Any]:
    """What the server does for every action: load the deal's stored state, apply the
    action, store the state again. The deal's JSON snapshot (to_json, then the text the
    database keeps; json.loads, then from_json) against pickle, over the same seeded
    deals in one run, per variant. The apply is included in both."""
    import json
    import pickle

    from games.engine.deal import deal_from_json

    def by_json(start: Any, actions: list[Any]) -> float:
        blob = json.dumps(start.to_json())
        t = time.perf_counter()
        for a in actions:
            state = deal_from_json(json.loads(blob))
            state.apply(a)
            blob = json.dumps(state.to_json())
        return time.perf_counter() - t

    def by_pickle(start: Any, actions: list[Any]) -> float:
        blob = pickle.dumps(start, protocol=pickle.HIGHEST_PROTOCOL)
        t = time.perf_counter()
        for a in actions:
            state = pickle.loads(blob)
            state.apply(a)
            blob = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        return time.perf_counter() - t

    rows = []
    for variant, players in [("conquian", 2), ("colonel", 2), ("foster-three", 3),
                             ("foster", 5), ("foster", 7)]:  # fmt: skip
        games = _games(variant, players, 3 if quick else 12, seed=11)
        n = sum(len(a) for _, a in games)
        # alternate the two, game by game, so a slow spell of the machine hits both
        tj = tp = 0.0
        for start, actions in games:
            tp += by_pickle(start.copy(), actions)
            tj += by_json(start.copy(), actions)
        rows.append({
            "variant": variant, "players": players, "deals": len(games), "actions": n,
            "pickle_us_per_action": round(tp / n * 1e6, 1),
            "json_us_per_action": round(tj / n * 1e6, 1),
            "json_vs_pickle": round(tj / tp, 2),
        })  # fmt: skip
    return {"rows": rows, "worst_json_vs_pickle": max(r["json_vs_pickle"] for r in rows)}
