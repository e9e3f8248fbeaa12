"""``DealState.from_view``: a deal from one seat's view and the cards it hides (issue 39).

Given the true hidden cards (read from the deal's snapshot), the state built from a
seat's view must be the deal itself as far as play goes: every seat's view the same
(the log aside: a built state keeps none), the same legal actions, and, played on with
the same actions, the same outcome. That is checked at every turn of seeded random deals
of every game and option, a take-back (L20) included. Hidden cards that do not fit the
view are refused.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import (
    Card,
    DealState,
    Hidden,
    ViewMismatch,
    deal_from_view,
    make_rules,
    new_deal,
)
from games.engine.rules import VARIANTS, OptionValue

from .helpers import arrange, play

PLAYERS = {"foster": 4, "foster-three": 3, "conquian": 2, "colonel": 2}


def configurations() -> list[tuple[str, int, dict[str, OptionValue]]]:
    out: list[tuple[str, int, dict[str, OptionValue]]] = []
    for name, spec in VARIANTS.items():
        players = PLAYERS.get(name, spec.default_players)
        out.append((name, players, {}))
        for opt in spec.options:
            out += [(name, players, {opt.name: v}) for v in opt.choices if v != opt.default]
    return out


def true_hidden(deal: DealState, seat: int) -> Hidden:
    """The cards ``seat`` does not see, where they really are (from the snapshot: each
    stores its pack with the top card last)."""
    snap = deal.to_json()
    cards = lambda codes: [Card.from_code(c) for c in codes]  # noqa: E731
    others = {s: cards(h) for s, h in enumerate(snap["hands"]) if s != seat}
    return Hidden(others, cards(snap["pack"])[::-1], cards(snap.get("stock") or []))


def _without_log(view: dict[str, Any]) -> dict[str, Any]:
    return view | {"log": None}


def _same_play(a: DealState, b: DealState, rng: random.Random) -> None:
    """Both deals, played on with the same random actions, stay the same for every seat
    and end the same."""
    for _ in range(150):
        for s in range(a.players):
            assert _without_log(a.player_view(s)) == _without_log(b.player_view(s))
        if a.is_over():
            break
        seat = a.to_move()
        assert seat is not None
        legal = a.legal_actions(seat)
        assert b.legal_actions(seat) == legal
        takes = [x for x in legal if x.type == "take-back"]
        action = takes[0] if takes and rng.random() < 0.5 else rng.choice(legal)
        a.apply(action)
        b.apply(action)
    out_a, out_b = a.outcome(), b.outcome()
    assert b.is_over() == a.is_over()
    assert (out_a and out_a.to_json()) == (out_b and out_b.to_json())


@pytest.mark.parametrize(
    "variant,players,options", configurations(), ids=lambda c: str(c) if c else "default"
)
def test_a_state_from_a_view_and_the_true_hidden_cards_is_the_deal(
    variant: str, players: int, options: dict[str, OptionValue]
) -> None:
    built = seed = 0
    while seed < 2 or built <= 20:  # two deals at least; more of a game of short deals
        seed += 1
        assert seed < 50
        rng = random.Random(seed)
        deal = new_deal(make_rules(variant, options), players, seed % players, seed=seed)
        fork_at = rng.randrange(5, 40)
        while not deal.is_over() and deal.version < 150:  # a random deal may run long
            seat = deal.to_move()
            assert seat is not None
            view = deal.player_view(seat)
            if view["phase"] != "trade":  # Conquián's trade is not searched
                state = deal_from_view(view, true_hidden(deal, seat))
                assert _without_log(state.player_view(seat)) == _without_log(view)
                assert state.legal_actions(seat) == deal.legal_actions(seat)
                built += 1
                if deal.version == fork_at:
                    _same_play(deal.copy(), state, random.Random(seed))
            deal.apply(rng.choice(deal.legal_actions(seat)))
    assert built > 20


def _taken_back_alike(deal: DealState) -> None:
    """The seat to move takes back its turn (L20) on the deal and on a state built from
    its view: both are then the same."""
    seat = deal.to_move()
    assert seat is not None
    state = deal_from_view(deal.player_view(seat), true_hidden(deal, seat))
    take = next(x for x in deal.legal_actions(seat) if x.type == "take-back")
    deal.apply(take)
    state.apply(take)
    for s in range(deal.players):
        assert _without_log(state.player_view(s)) == _without_log(deal.player_view(s))


def test_a_take_back_restores_the_table_before_the_turn() -> None:
    """L20: the combinations laid and added to this turn come off the table again."""
    seen = 0
    for seed in range(30):
        rng = random.Random(seed)
        deal = new_deal(make_rules("foster"), 2, 0, seed=seed)
        while not deal.is_over() and deal.version < 300:
            seat = deal.to_move()
            assert seat is not None
            legal = deal.legal_actions(seat)
            if any(x.type == "take-back" for x in legal) and rng.random() < 0.3:
                _taken_back_alike(deal)
                seen += 1
                continue
            shows = [x for x in legal if x.type in ("layout", "add")]
            deal.apply(rng.choice(shows) if shows and rng.random() < 0.7 else rng.choice(legal))
    assert seen > 20


@pytest.mark.parametrize(
    "hands,moves",
    [
        (["6H 10H 5H JH 2C 3S 4D KS KD KC", "JK 7H 8H 2D 4C 9S QD QC 6S 8C"],
         ["1 layout JK=6H 7H 8H", "1 discard AC", "0 draw pack", "0 move-joker 0 6H"]),
        (["6H 10H 5H JH 2C 3S 4D KS KD KC", "JK 7H 8H 2D 4C 9S QD QC 6S 8C"],
         ["1 layout JK=6H 7H 8H", "1 discard AC", "0 draw pack", "0 move-joker 0 10H"]),
        (["7H 3H 5H JH 2C 3S 4D KS KD KC", "JK 5H 6H 2D 4C 9S QD QC 6S 8C"],
         ["1 layout 5H 6H JK=7H", "1 discard AC", "0 draw pack", "0 move-joker 0 3H"]),
        (["7H 3H 5H JH 2C 3S 4D KS KD KC", "JK 5H 6H 2D 4C 9S QD QC 6S 8C"],
         ["1 layout 5H 6H JK=7H", "1 discard AC", "0 draw pack", "0 move-joker 0 7H",
          "0 add 0 3H"]),
    ],
)  # fmt: skip
def test_a_take_back_puts_a_moved_joker_back_at_its_end(hands: list[str], moves: list[str]) -> None:
    """L18 and L20: the joker moved this turn goes back to the end it came from, named by
    its place, and the card played where it stood comes back to the hand."""
    deal = arrange("foster", hands, "3C", "AC AD 9D 10D 7C 8H")
    play(deal, "1 draw pack", *moves)
    assert any(c.cards[0].crossways or c.cards[-1].crossways or len(c.cards) > 3
               for c in deal.combinations)  # fmt: skip
    _taken_back_alike(deal)


def _view_and_hidden(variant: str, players: int) -> tuple[dict[str, Any], Hidden, int]:
    deal = new_deal(make_rules(variant), players, 0, seed=3)
    seat = deal.to_move()
    assert seat is not None
    return deal.player_view(seat), true_hidden(deal, seat), seat


@pytest.mark.parametrize("variant,players", [("foster", 4), ("conquian", 2)])
def test_hidden_cards_that_do_not_fit_the_view_are_refused(variant: str, players: int) -> None:
    view, hidden, seat = _view_and_hidden(variant, players)
    other = (seat + 1) % players
    short = dict(hidden.hands) | {other: list(hidden.hands[other])[1:]}
    with pytest.raises(ViewMismatch, match=f"seat {other} holds"):
        deal_from_view(view, Hidden(short, hidden.pack, hidden.stock))
    with pytest.raises(ViewMismatch, match="the pack holds"):
        deal_from_view(view, Hidden(hidden.hands, list(hidden.pack)[1:], hidden.stock))
    swapped = dict(hidden.hands) | {other: [*list(hidden.hands[other])[1:], hidden.pack[0]]}
    pack = [list(hidden.hands[other])[0], *list(hidden.pack)[1:]]
    deal_from_view(view, Hidden(swapped, pack, hidden.stock))  # another deal, as good
    doubled = dict(hidden.hands) | {other: [hidden.pack[0], *list(hidden.hands[other])[1:]]}
    with pytest.raises(ViewMismatch, match="not the deal's pack"):
        deal_from_view(view, Hidden(doubled, hidden.pack, hidden.stock))
    with pytest.raises(ViewMismatch, match="no hand given"):
        deal_from_view(view, Hidden({}, hidden.pack, hidden.stock))
    with pytest.raises(ViewMismatch, match="unknown variant"):
        deal_from_view(view | {"variant": "whist"}, hidden)


def test_a_finished_deal_or_a_spectators_view_builds_nothing() -> None:
    view, hidden, _ = _view_and_hidden("foster", 4)
    with pytest.raises(ViewMismatch, match="during play, not 'over'"):
        deal_from_view(view | {"phase": "over"}, hidden)
    with pytest.raises(ViewMismatch, match="during play"):
        deal_from_view(view | {"seat": None}, hidden)
