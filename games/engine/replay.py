"""Replaying a recorded deal (see ``docs/replay-format.md``).

>>> data = {"rules": {"variant": "colonel", "options": {}}, "players": 2, "dealer": 0,
...         "seed": 3, "actions": [{"type": "challenge", "seat": 1},
...                                 {"type": "accept", "seat": 0}]}
>>> r = replay(data)
>>> r.error is None, r.state.is_over(), r.state.outcome().kind
(True, True, 'challenge')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .deal import new_deal
from .errors import IllegalActionError, InvalidActionError
from .protocol import DealState
from .rules import make_rules


@dataclass(slots=True)
class ReplayResult:
    """The state after the legal prefix; ``error`` is set at the first illegal action."""

    state: DealState
    applied: int
    error: IllegalActionError | None = None
    index: int | None = None


def start(data: object) -> tuple[DealState, list[object]]:
    """The dealt state and the (unparsed) actions; malformed input raises InvalidActionError."""
    if not isinstance(data, dict):
        raise InvalidActionError("a replay is a JSON object")
    rules_data = data.get("rules")
    if not isinstance(rules_data, dict) or not isinstance(rules_data.get("variant"), str):
        raise InvalidActionError('"rules" must be {"variant": ..., "options": {...}}')
    options = rules_data.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidActionError('"options" is an object')
    rules = make_rules(rules_data["variant"], options)
    players = data.get("players", rules.spec.default_players)
    dealer = data.get("dealer", 0)
    carry_in = data.get("carry_in", 0)
    if not isinstance(carry_in, int) or isinstance(carry_in, bool):
        raise InvalidActionError("carry_in is an integer")
    pack: list[Card] | None = None
    seed = data.get("seed")
    if "pack" in data:
        codes = data["pack"]
        if not isinstance(codes, list):
            raise InvalidActionError('"pack" is a list of card codes, top first')
        pack = [Card.from_code(c) for c in codes]
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidActionError(
            'a replay gives "pack" (card codes, top first) or an integer "seed"'
        )
    state = new_deal(rules, players, dealer, seed=seed, pack=pack, carry_in=carry_in)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidActionError('"actions" is a list')
    return state, actions


def replay(data: object) -> ReplayResult:
    """Apply every action; stop at the first illegal one. Malformed input (bad JSON shape,
    unknown card or action) raises :class:`InvalidActionError` instead."""
    state, raw = start(data)
    actions = [state.rules.spec.parse_action(a) for a in raw]
    for i, a in enumerate(actions):
        try:
            state.apply(a)
        except IllegalActionError as e:
            return ReplayResult(state, i, e, i)
    return ReplayResult(state, len(actions))


def record(state: DealState, *, seed: int | None = None) -> dict[str, Any]:
    """The replay JSON of a deal."""
    out: dict[str, Any] = {
        "rules": state.rules.to_json(),
        "players": state.players,
        "dealer": state.dealer,
    }
    if seed is not None:
        out["seed"] = seed
    else:
        out["pack"] = [c.code for c in state.pack_order]
    out["carry_in"] = state.carry_in
    out["actions"] = [a.to_json() for a in state.history]
    o = state.outcome()
    if o is not None:
        out["outcome"] = o.to_json()
    return out


def load(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidActionError(f"not JSON: {e}") from None
