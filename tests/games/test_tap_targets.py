"""Tap what you mean (issue 38, items 1 and 4), in the presenter: the dock lists every
combination a card may go to with the hand cards it takes, and Colonel's challenge is kept
apart from the ordinary moves with what it risks."""

from __future__ import annotations

from games.play.presenters import build
from tests.engine.helpers import arrange, play


def test_each_combination_that_takes_a_card_is_a_dock_target_with_the_cards_it_takes() -> None:
    d = arrange("foster", ["2H 3H 4H 5S 6S 7S 9C 9D KC QD", "2C 3C 4C 5D 6D 7D 8S 9S 10S KH"],
                "QS", "AH 9H 5C")  # fmt: skip
    play(d, "1 draw pack", "1 layout 2C 3C 4C", "1 discard AH", "0 draw pack")
    play(d, "0 discard 9D", "1 draw pack")  # seat 1 holds 5C for its own sequence
    offers = build(d.player_view(1), d.legal_actions(1), [], me=1)["offers"]
    [target] = [t for t in offers["targets"] if t["intent"] == "add"]
    assert target["id"] == 0 and target["fits"] == "5C" and not target["free"]
    assert target["label"] == "Add to your sequence"
    # Nothing to add for the other seat, whose turn it is not.
    assert build(d.player_view(0), [], [], me=0)["offers"]["targets"] == []


def test_colonel_challenge_is_a_decision_apart_with_what_it_risks() -> None:
    d = arrange("colonel", ["2H 3H 4H 5S 6S 7S 9C 9D KC QD", "2C 3C 4C 5D 6D 7D 8S 9S 10S KH"],
                "QS", "AH")  # fmt: skip
    seat = d.to_move()
    assert seat is not None
    offers = build(d.player_view(seat), d.legal_actions(seat), [], me=seat)["offers"]
    assert "challenge" not in [a["type"] for a in offers["simple"]]
    [decision] = offers["decisions"]
    hand = d.player_view(seat)["hand"]
    pips = sum(
        min({"A": 1, "J": 10, "Q": 10, "K": 10}.get(c[:-1]) or int(c[:-1]), 10) for c in hand
    )
    assert decision["type"] == "challenge" and f"Your hand counts {pips}." in decision["explain"]
