"""Positions built by the engine and stored as play leaves them (issue 55, item 2).

A test that checks the end of a deal, a substitute's turn or a race at the last action
starts there in one step, rather than reaching it by an HTTP request (or a browser's
click) a move. ``deal_at`` stores the deal of a seed after a script of actions exactly as
``games.play.services.act`` would have (its log, version and snapshot), so a replay of
the log and every later action through the site hold for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Deal, DealAction
from games.play import engine_api

Policy = Callable[[list[Any]], dict[str, Any]]


def deal_at(table: Any, seed: int, script: list[dict[str, Any]], members: list[Any]) -> Deal:
    """Deal 1 of ``table`` from ``seed`` after ``script`` (actions' JSON, in order), with
    each action logged as made by the member in its seat."""
    state = engine_api.new_state(table.variant, dict(table.options or {}), table.size, 0, seed=seed)
    pack = engine_api.pack_codes(state)
    actions = []
    for data in script:
        action = engine_api.parse_action(data, state.legal_actions(data["seat"]), state)
        actions.append(action)
        state.apply(action)
    assert not state.is_over()
    deal = Deal.objects.create(
        table=table, number=1, variant=table.variant, options=dict(state.rules.options),
        players=table.size, dealer=0, seed=seed, pack=pack, version=state.version,
        to_move=state.to_move(), snapshot=engine_api.to_snapshot(state),
    )  # fmt: skip
    DealAction.objects.bulk_create(
        DealAction(
            deal=deal, index=i, seat=a.seat, action=a.to_json(), by_member_id=members[a.seat].pk
        )  # fmt: skip
        for i, a in enumerate(actions)
    )
    return deal


def moves_before_the_end(
    variant: str,
    players: int,
    policy: Policy,
    left: int,
    *,
    first_seed: int = 1,
    paid: bool = True,
    options: dict[str, Any] | None = None,
) -> tuple[int, list[dict[str, Any]]]:
    """The first seed from ``first_seed`` whose deal, every seat choosing by ``policy``
    (given the legal actions, it returns one's JSON), lasts more than ``left`` moves (and
    ends with money changing hands, when ``paid``), and the script of its moves but the
    last ``left``: played on by the same policy, the deal ends in exactly ``left`` moves."""
    for seed in range(first_seed, first_seed + 500):
        state = engine_api.new_state(variant, dict(options or {}), players, 0, seed=seed)
        script: list[dict[str, Any]] = []
        while not state.is_over() and len(script) < 400:
            seat = state.to_move()
            legal = state.legal_actions(seat)
            data = policy(legal)
            action = engine_api.parse_action(data, legal, state)
            script.append(action.to_json())
            state.apply(action)
        outcome = state.outcome() if state.is_over() else None
        if outcome is None or len(script) <= left:
            continue
        if paid and not any(outcome.payments):
            continue
        return seed, script[:-left]
    raise AssertionError(f"no {variant} deal of more than {left} moves found")
