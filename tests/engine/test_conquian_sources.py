"""Where the sources 003 and 004 read Conquián otherwise than Foster, a named option
(issue 80, item 6), each off by default: Foster's game is unchanged.

- ``upcard_refused``: after both refuse the 21st card, the dealer turns next (Foster: the
  second to refuse, book p.52) or the pone does (seed 003, line 64).
- ``demand``: a discard its opponent refuses though it fits their own combination may be
  demanded (seed 004, line 17; seed 003, line 74): its discarder forces it there and the
  opponent must discard. Foster turns a refused discard down.
- ``court_pips="ace-fifteen"``: the Spanish forty counted as the French pack without its
  8, 9 and 10, courts 10 and the ace 15 (seed 003, line 80).
"""

from __future__ import annotations

import random

import pytest

from games.engine import new_deal
from games.engine.conquian.actions import ForceAction, PassAction, ThrowAction
from games.engine.conquian.deal import ConquianDeal
from games.engine.conquian.melds import fits
from games.engine.records import Kind
from games.engine.rules import make_rules

from .conquian_helpers import random_play


def _refuse(d: ConquianDeal) -> None:
    seat = d.to_move()
    assert seat is not None
    d.apply(next(a for a in d.legal_actions(seat) if isinstance(a, PassAction)))


@pytest.mark.parametrize(("option", "turns"), [("dealer", "dealer"), ("pone", "pone")])
def test_after_both_refuse_the_upcard_the_option_says_who_turns(option: str, turns: str) -> None:
    for seed in range(5):
        d = new_deal(make_rules("conquian", {"upcard_refused": option}), 2, 0, seed=seed)
        assert isinstance(d, ConquianDeal)
        _refuse(d)  # the pone's say first (book p.51)
        _refuse(d)  # then the dealer's: the card is turned down
        assert d.log[-1].kind == Kind.TURN_DOWN
        assert d.to_move() == (d.dealer if turns == "dealer" else 1 - d.dealer)
        # a later card both refuse is turned by the second to refuse either way (book p.52)
        second = 1 - d.to_move()  # type: ignore[operator]
        d.apply(d.legal_actions(d.to_move())[0])  # type: ignore[arg-type]  # turns one up
        _refuse(d)
        _refuse(d)
        assert d.to_move() == second


def _a_refusable_discard(demand: bool, seed: int) -> ConquianDeal | None:
    """A deal played at random to a discard that fits a combination of the player with
    the say (who may refuse it); None if the deal ends first."""
    rng = random.Random(seed)
    d = new_deal(make_rules("conquian", {"demand": demand}), 2, 0, seed=seed)
    assert isinstance(d, ConquianDeal)
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        if d.log and d.log[-1].kind == Kind.THROW and d._pack:
            c = d._card
            if any(o == seat and fits(c, (o, q, cs), d._order, d.cap)
                   for o, q, cs in d._combos.values()):  # fmt: skip
                return d
        d.apply(rng.choice(d.legal_actions(seat)))
    return None


def _found(demand: bool) -> ConquianDeal:
    for seed in range(400):
        d = _a_refusable_discard(demand, seed)
        if d is not None:
            return d
    raise AssertionError("no deal reached a refusable discard")


def test_a_refused_discard_that_fits_may_be_demanded() -> None:
    d = _found(True)
    refuser = d.to_move()
    assert refuser is not None
    discarder = 1 - refuser
    card = d._card
    _refuse(d)
    assert d.log[-1].kind == Kind.REFUSE and d.to_move() == discarder
    choices = d.legal_actions(discarder)
    forces = [a for a in choices if isinstance(a, ForceAction)]
    # the discarder demands it (a force onto the refuser's combination) or lets it go; it
    # cannot take back their own discard
    assert forces and all(isinstance(a, ForceAction | PassAction) for a in choices)
    assert all(d._combos[a.to][0] == refuser for a in forces)
    demanded = d.copy()
    demanded.apply(forces[0])
    assert demanded._where[card] == forces[0].to
    # the refuser must discard: it is their turn's end (L19)
    assert demanded.to_move() == refuser
    assert any(isinstance(a, ThrowAction) for a in demanded.legal_actions(refuser))
    # let go, the refuser turns the next card, as after any refused discard
    _refuse(d)
    assert d.log[-1].kind == Kind.TURN_DOWN and d.to_move() == refuser


def test_foster_turns_a_refused_discard_down() -> None:
    d = _found(False)
    refuser = d.to_move()
    _refuse(d)
    assert d.log[-1].kind == Kind.TURN_DOWN and d.to_move() == refuser


def test_the_ace_pays_fifteen_counting_the_spanish_forty_as_the_french() -> None:
    rules = make_rules(
        "conquian", {"pack": "spanish", "scoring": "pips", "court_pips": "ace-fifteen"}
    )
    seen_ace = False
    for seed in range(40):
        d = new_deal(rules, 2, 0, seed=seed)
        random_play(d, random.Random(seed))  # type: ignore[arg-type]
        out = d.outcome()
        assert out is not None
        for hand, pips in zip(out.hands, out.pips, strict=True):
            assert pips == sum(15 if c.rank == 1 else min(c.rank, 10) for c in hand)
            seen_ace |= any(c.rank == 1 for c in hand)
    assert seen_ace
