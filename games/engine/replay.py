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
from .variant import find_variant


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
    if data.get("format", 1) not in (1, REPLAY_FORMAT):
        raise InvalidActionError(
            f"replay format {data.get('format')!r}; this engine reads 1 and {REPLAY_FORMAT}"
        )
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
    scores_in = data.get("scores_in", [])
    if not isinstance(scores_in, list):
        raise InvalidActionError("scores_in is a list of scores, one a seat")
    state = new_deal(
        rules, players, dealer, seed=seed, pack=pack, carry_in=carry_in, scores_in=tuple(scores_in)
    )
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
    _check_log(data, state)
    return ReplayResult(state, len(actions))


def _check_log(data: object, state: DealState) -> None:
    """A replay that gives its log must give the log its actions make."""
    given = data.get("log") if isinstance(data, dict) else None
    if given is None:
        return
    if not isinstance(given, list):
        raise InvalidActionError('"log" is a list of records')
    made = [r.to_json() for r in state.log]
    for i, (g, m) in enumerate(zip(given, made, strict=False)):
        if g != m:
            raise InvalidActionError(f"log entry {i} is {g!r}; the actions make {m!r}")
    if len(given) != len(made):
        raise InvalidActionError(f"the log has {len(given)} entries; the actions make {len(made)}")


# 2: the log's records beside the actions (issue 39); 1 (or none given): actions only.
REPLAY_FORMAT = 2


def record(state: DealState, *, seed: int | None = None) -> dict[str, Any]:
    """The replay JSON of a deal, with its log's records (whole: a replay file is the
    club's record of the deal, not a player's view)."""
    out: dict[str, Any] = {
        "format": REPLAY_FORMAT,
        "rules": state.rules.to_json(),
        "players": state.players,
        "dealer": state.dealer,
    }
    if seed is not None:
        out["seed"] = seed
    else:
        out["pack"] = [c.code for c in state.pack_order]
    out["carry_in"] = state.carry_in
    # a game's scores, only where a deal needs them (issue 80: a Conquián deal without a
    # target recorded (0, 0), which its replay refused)
    scores_in = find_variant(state.rules.variant).scores_in(state)
    if scores_in:
        out["scores_in"] = list(scores_in)
    out["actions"] = [a.to_json() for a in state.history]
    out["log"] = [r.to_json() for r in state.log]
    o = state.outcome()
    if o is not None:
        out["outcome"] = o.to_json()
    return out


def load(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidActionError(f"not JSON: {e}") from None
