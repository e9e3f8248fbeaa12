"""The web app's door to the rules engine: start, replay and parse, per variant."""

from __future__ import annotations

from typing import Any

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.errors import InvalidActionError
from games.engine.protocol import DealState
from games.engine.rules import make_rules


def new_state(
    variant: str,
    options: dict[str, Any],
    players: int,
    dealer: int,
    *,
    seed: int | None = None,
    pack: list[str] | None = None,
    carry_in: int = 0,
    scores_in: tuple[int, ...] = (),
) -> DealState:
    from games.engine.deal import new_deal

    rules = make_rules(variant, options)
    cards = [Card.from_code(c) for c in pack] if pack is not None else None
    return new_deal(
        rules, players, dealer, seed=seed, pack=cards, carry_in=carry_in, scores_in=scores_in
    )


def pack_codes(state: DealState) -> list[str]:
    return [c.code for c in state.pack_order]  # type: ignore[attr-defined]


def parse_action(data: Any, legal: list[Action], state: DealState) -> Action:
    """The action a JSON object names in ``state``'s game: one of ``legal`` when it is,
    else parsed by the game's notation (so the engine can say which law it breaks)."""
    if not isinstance(data, dict):
        raise InvalidActionError("an action is a JSON object")
    for a in legal:
        if a.to_json() == data:
            return a
    return state.rules.spec.parse_action(data)


def to_snapshot(state: DealState) -> dict[str, Any]:
    """The state as the engine's versioned JSON snapshot (what ``Deal.snapshot`` keeps)."""
    return state.to_json()


def from_snapshot(data: Any, what: str) -> DealState:
    """The state a stored snapshot describes; :class:`SnapshotError` (naming ``what``)
    when it cannot be read. Reading data never runs code."""
    from games.engine.deal import deal_from_json

    return deal_from_json(data, what=what)
