"""No dead end (issue 38): from every position reached in random legal play, under every
option set of every game in the registry, each action the engine offers leaves a legal way
to end the turn without taking this turn's cards back (L20).

Before this test, Dalton's "six" ratting offered a first show of three or four cards that
could never reach six, and "none" offered a part of a hand that could never go out: after
either, the only move left was "take back" (the page's status still said "then discard").
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import make_rules, new_deal
from games.engine.protocol import DealState
from games.engine.rummy.moves import TakeBack
from games.engine.variant import VARIANTS, OptionValue, Variant

WHOLE_PRODUCT = 200  # a game with more combinations than this is covered three options at a time


def option_sets(v: Variant) -> Iterator[dict[str, OptionValue]]:
    """Every combination of the variant's option values (the whole product), or, where
    that is more than WHOLE_PRODUCT (Conquián's nine options: 512; Foster's for three, the
    most before them, 144, stays whole), combinations chosen so that the values of any
    three options meet in every way in one of them at least (all triples; chosen
    greedily, the same every run)."""
    names = [o.name for o in v.options]
    every = [
        dict(zip(names, vs, strict=True))
        for vs in itertools.product(*(o.choices for o in v.options))
    ]
    if len(every) <= WHOLE_PRODUCT:
        yield from every
        return

    def triples(case: dict[str, OptionValue]) -> set[tuple[tuple[str, str], ...]]:
        items = [(n, repr(case[n])) for n in names]
        return set(itertools.combinations(items, 3))

    wanted = set().union(*(triples(c) for c in every))
    while wanted:
        best = max(every, key=lambda c: len(triples(c) & wanted))
        wanted -= triples(best)
        yield best


CASES = [
    pytest.param(v.name, options, id=f"{v.name}-" + "-".join(map(str, options.values())))
    for v in VARIANTS.values()
    for options in option_sets(v)
]


MAX_ACTIONS = 120


def _key(d: DealState, seat: int) -> str:
    view = d.player_view(seat)
    for k in ("log", "version"):
        view.pop(k, None)
    return json.dumps(view, sort_keys=True, default=str)


def can_end_turn(d: DealState, seat: int, seen: set[str]) -> bool:
    """Some sequence of ``seat``'s own actions, none a take-back, ends the turn."""
    if d.is_over() or d.to_move() != seat:
        return True
    key = _key(d, seat)
    if key in seen:
        return False
    seen.add(key)
    after = []
    for a in d.legal_actions(seat):
        if isinstance(a, TakeBack):
            continue
        c = d.copy()
        c.apply(a)
        if c.is_over() or c.to_move() != seat:
            return True
        after.append(c)
    return any(can_end_turn(c, seat, seen) for c in after)


def dead_ends(d: DealState) -> Iterator[str]:
    seat = d.to_move()
    assert seat is not None
    for a in d.legal_actions(seat):
        if isinstance(a, TakeBack):
            continue
        c = d.copy()
        c.apply(a)
        if not can_end_turn(c, seat, set()):
            yield a.text


def play_and_check(variant: str, options: dict[str, Any], seed: int) -> list[str]:
    v = VARIANTS[variant]
    rng = random.Random(seed)
    players = rng.randint(v.players.low, min(v.players.high, 4))
    d = new_deal(make_rules(variant, options), players, seed % players, seed=seed)
    found: list[str] = []
    # Under "none" nobody may rat, and a deal can run to thousands of actions through the
    # turnovers (L25) repeating the same kinds of position: the first MAX_ACTIONS suffice.
    while not d.is_over() and len(d.history) < MAX_ACTIONS:
        seat = d.to_move()
        assert seat is not None
        found.extend(f"after {len(d.history)} actions: {t}" for t in dead_ends(d))
        if found:
            return found
        legal = [a for a in d.legal_actions(seat) if not isinstance(a, TakeBack)]
        d.apply(rng.choice(legal))
    return found


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_every_offered_action_leaves_a_way_to_end_the_turn(
    variant: str, options: dict[str, Any]
) -> None:
    for seed in range(2):
        assert play_and_check(variant, options, seed) == [], (variant, options, seed)


def test_dalton_six_a_short_first_show_is_not_offered() -> None:
    """Dalton: a first show is at least six cards. A three-card layout that nothing else in
    the hand can bring to six is not offered, and asked for, it is refused with the reason."""
    from games.engine import IllegalActionError

    from .helpers import act, arrange, play, texts

    d = arrange("foster", ["2H 3H 4H 5S 9S KS 9C 9D KC QD", "2C 3C 4C 6D 8D 10D 8S JS 10H KH"],
                "QS", "AH 8C 7C 9H", ratting="six")  # fmt: skip
    play(d, "1 draw pack")
    assert "1 layout 2C 3C 4C" not in texts(d)
    with pytest.raises(IllegalActionError) as e:
        d.apply(act("1 layout 2C 3C 4C"))
    assert e.value.law == "Dalton" and "six" in str(e.value)


def test_dalton_six_the_table_says_why_no_discard_is_offered() -> None:
    """After a first show of three that can still reach six, the mover's status names the
    rule and what is missing, instead of "then discard" with no discard offered."""
    from games.play.presenters import build

    from .helpers import arrange, play, texts

    d = arrange("foster", ["2H 3H 4H 5S 6S 7S 9C 9D KC QD", "2C 3C 4C 5D 6D 7D 8S 9S 10S KH"],
                "QS", "AH 8D 8C 9H", ratting="six")  # fmt: skip
    play(d, "1 draw pack", "1 layout 2C 3C 4C")
    assert not [t for t in texts(d) if "discard" in t]
    view = d.player_view(1)
    assert view["no_discard"] == (
        "a first show is at least six cards (Dalton): show 3 more cards, or take back"
    )
    assert build(view, d.legal_actions(1), [], me=1)["must"] == view["no_discard"]
    other = d.player_view(0)
    assert build(other, [], [], me=0)["must"].startswith("lay out or add cards")
    play(d, "1 layout 5D 6D 7D")
    assert d.player_view(1)["no_discard"] is None
