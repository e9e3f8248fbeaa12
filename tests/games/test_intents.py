"""Intents: what a player clicked, resolved against the legal actions (games/play/intents.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.play.intents import AmbiguousActionError, IntentError, resolve
from tests.engine.helpers import arrange, play


def _with_joker() -> object:
    # Seat 1 (the dealer's left) holds 7H 8H and a joker: after drawing, the joker may
    # stand for the 6H or the 9H of the sequence (L17).
    deal = arrange(
        "foster",
        ["2C 3D 4S 5C 6D 9S 10C JD QS KC", "7H 8H JK 2S 4C 6S 8D 10S QC KD",
         "3C 5D 7S 9C JS 2D 4H 6C 8S 10D", "AC AD AS 3H 5H 7C 9D JH KS KH",
         "2H 3S 4D 5S 6H 7D 9H 10H JC QD"],
        "QH", "AH",
    )  # fmt: skip
    play(deal, "1 draw pack")
    return deal


def test_an_intent_that_could_mean_two_moves_names_both() -> None:
    deal = _with_joker()
    with pytest.raises(AmbiguousActionError) as e:
        resolve(deal, 1, "layout", ["7H", "8H", "JK"], None)  # type: ignore[arg-type]
    texts = sorted(a.text for a in e.value.candidates)
    assert texts == ["1 layout 7H 8H JK=9H", "1 layout JK=6H 7H 8H"]
    assert isinstance(e.value, IntentError)  # callers that only know IntentError still refuse


def test_an_intent_that_means_one_move_resolves_to_it() -> None:
    deal = _with_joker()
    resolved = resolve(deal, 1, "discard", ["KD"], None)  # type: ignore[arg-type]
    assert [a.text for a in resolved.actions] == ["1 discard KD"]


def _conquian_until(kind: str, seed: int) -> tuple[Any, dict[str, Any]]:
    """Seeded random Conquián play up to the first position where the seat to move may
    add to a combination by ``kind`` ("meld": from the hand; "use": the turned card)."""
    from games.play import engine_api

    state = engine_api.new_state("conquian", {}, 2, 0, seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        legal = state.legal_actions(state.to_move())
        for a in legal:
            j = a.to_json()
            if j["type"] == kind and j.get("to") is not None and not j.get("borrow"):
                return state, j
        state.apply(rng.choice(legal))
    raise AssertionError(f"no {kind} to a combination in seed {seed}")


def test_conquian_adds_a_selected_card_or_the_turned_card_to_a_combination() -> None:
    """The "add" intent at Conquián (L12: the say): a card selected from the hand is melded
    to the combination chosen; with nothing selected, the turned card is used there; with
    neither, the player is asked to select one. Reached before issue 55 only by two
    members' whole deal in the browser."""
    state, j = _conquian_until("meld", 3)
    seat = state.to_move()
    try:
        actions = resolve(state, seat, "add", j["hand"][:1], j["to"]).actions
    except AmbiguousActionError as e:
        actions = e.candidates
    assert actions and all(
        a.to_json()["type"] == "meld" and a.to_json()["to"] == j["to"] for a in actions
    )
    state, j = _conquian_until("use", 1)
    seat = state.to_move()
    turned = state.player_view(seat)["turned"]
    [action] = resolve(state, seat, "add", [], j["to"], turned=turned).actions
    assert action.to_json()["type"] in ("use", "force") and action.to_json()["card"] == turned
    with pytest.raises(IntentError, match="select a card to add first"):
        resolve(state, seat, "add", [], j["to"], turned=None)
