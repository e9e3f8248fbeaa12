"""Tap what you mean (issue 38, items 1 and 4), in the presenter: the dock lists every
combination a card may go to with the hand cards it takes, and Colonel's challenge is kept
apart from the ordinary moves with what it risks."""

from __future__ import annotations

import pytest

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


def test_a_joker_that_may_move_is_a_dock_target_with_the_cards_that_take_its_place() -> None:
    """L18 in the dock: seat 0 holds the 6H and the 10H beside seat 1's JK=6H 7H 8H, so the
    joker may move (the 6H in its place) and the sequence offers both cards. Played whole
    in the browser before issue 55; here the presenter is asked directly."""
    d = arrange("foster", ["6H 10H 5H JH 2C 3S 4D KS KD KC", "JK 7H 8H 2D 4C 9S QD QC 6S 8C"],
                "3C", "AC AD 9D 10D 7C")  # fmt: skip
    play(d, "1 draw pack", "1 layout JK=6H 7H 8H", "1 discard AC", "0 draw pack")
    targets = build(d.player_view(0), d.legal_actions(0), [], me=0)["offers"]["targets"]
    [move] = [t for t in targets if t["intent"] == "move-joker"]
    assert move["id"] == 0 and sorted(move["fits"].split()) == ["10H", "6H"]
    assert move["label"] == "Move the joker on Seat 2's sequence"
    [add] = [t for t in targets if t["intent"] == "add"]
    assert add["fits"] == "5H"


def test_tonk_spreads_resolve_from_the_selected_cards() -> None:
    """T6 by selection: the cards a player selects name the spread they make, whatever
    their order, and cards that make none are the engine's to refuse, with its reason."""
    from games.engine.errors import IllegalActionError
    from games.play.intents import resolve
    from tests.engine import test_tonk

    d = test_tonk.arrange(["3C 4C 5C 9D 9H 9S KS", "AD 2C 6C 7H 8S JC 9C"], "QD", "KH 4H 5H",
                          dealer=1, wait_rule=True)  # fmt: skip
    test_tonk.play(d, "0 no-call", "1 no-call", "0 draw")  # the call round first (TO5)
    resolved = resolve(d, 0, "layout", ["9S", "9D", "9H"], None)
    assert [a.text for a in resolved.actions] == ["0 spread 9D 9H 9S"]
    [plain] = resolve(d, 0, "layout", ["9S", "KS", "3C"], None).actions
    with pytest.raises(IllegalActionError, match="TO2"):
        d.apply(plain)


def test_a_card_just_plucked_from_the_stock_is_never_offered_as_the_discard() -> None:
    """Issue 56: a card taken from the stock stayed selected with "Discard the selected
    card" enabled, and the discard was then refused (Tunk, K5). The dock's discard names
    the cards that may go (its data-fits); table.js holds the button for any other."""
    from collections import Counter

    from games.engine.deal import new_deal
    from games.engine.rules import make_rules
    from games.engine.tunk.actions import Pluck

    d = new_deal(make_rules("tunk"), 3, 0, seed=5)
    seat = d.to_move()
    assert seat is not None
    before = Counter(d.player_view(seat)["hand"])
    d.apply(Pluck(seat=seat))
    hand = Counter(d.player_view(seat)["hand"])
    [plucked] = list((hand - before).elements())
    offers = build(d.player_view(seat), d.legal_actions(seat), [], me=seat)["offers"]
    assert offers["discard"]
    may = offers["discard_fits"].split()
    assert plucked not in may
    assert sorted(may) == sorted(set(before))  # every other card may go


def test_l17_a_sets_joker_is_named_by_its_holder_who_is_asked_which_card() -> None:
    """Issue 58, item 3 in the dock: laying out 7H 7H and a joker, the player is asked
    which seven the joker stands for (a double pack: any suit, even the 7H he holds);
    the name he picks is the one recorded. With one pack the set's own suits are not
    offered. Adding a joker to a set asks the same."""
    from games.play.intents import AmbiguousActionError, resolve

    d = arrange("foster", ["AC KD JK 5C 9H 9D 4H 7S QC 10D", "JK 7H 7H 2C 5D 7D 9S KD QD 4C"],
                "QS", "KH")  # fmt: skip
    play(d, "1 draw pack")
    with pytest.raises(AmbiguousActionError) as asked:
        resolve(d, 1, "layout", ["7H", "JK", "7H"], None)
    assert asked.value.question == "Which card does the joker stand for? (L17)"
    names = [a.text for a in asked.value.candidates]
    assert sorted(names) == sorted(f"1 layout 7H 7H JK={s}" for s in ("7C", "7D", "7H", "7S"))
    chosen = next(a for a in asked.value.candidates if a.text.endswith("JK=7H"))
    d.apply(chosen)
    assert d.combinations[0].code == "7H 7H JK=7H"
    # one pack: the joker names a suit the set does not show
    three = arrange("foster-three", ["JK 7H 7D 2C 5D 9S KD", "AC 2D 3S 4H 6C 8D 10S",
                                     "QC QD QS QH JC JD JS"], "3H", "KH", dealer=2, joker=True)  # fmt: skip
    play(three, "0 draw pack")
    with pytest.raises(AmbiguousActionError) as asked:
        resolve(three, 0, "layout", ["7H", "7D", "JK"], None)
    assert sorted(a.text.split("=")[1] for a in asked.value.candidates) == ["7C", "7S"]
    # a sequence's joker is named by its place: asked only which end, as before
    seq = arrange("foster", ["AC KD 3H 5C 9H 9D 4H 7S QC 10D", "JK 7H 8H 2C 5D 7D 9S KD QD 4C"],
                  "QS", "KH")  # fmt: skip
    play(seq, "1 draw pack")
    with pytest.raises(AmbiguousActionError) as asked:
        resolve(seq, 1, "layout", ["7H", "8H", "JK"], None)
    assert sorted(a.text for a in asked.value.candidates) == [
        "1 layout 7H 8H JK=9H", "1 layout JK=6H 7H 8H"]  # fmt: skip
