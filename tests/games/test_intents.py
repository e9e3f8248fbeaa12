"""Intents: what a player clicked, resolved against the legal actions (games/play/intents.py)."""

from __future__ import annotations

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
