"""Property tests over random legal play (hypothesis): conservation of cards, termination,
zero-sum payments, private views, exact replay, and legal_actions agreeing with apply."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Action,
    Add,
    Card,
    Discard,
    Draw,
    IllegalActionError,
    InvalidActionError,
    Layout,
    MoveJoker,
    RummyDeal,
    make_pack,
    make_rules,
    new_deal,
    record,
    replay,
)
from games.engine.combinations import CARDS, Placed
from games.engine.rummy.moves import Accept, Challenge, Decline, TakeBack
from games.engine.rummy.validate import canonical
from tests.scale import scaled

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("foster", 5, {}),
    ("foster", 2, {"splash": 25}),
    ("foster", 7, {"jokers": "spade-twos"}),
    ("foster", 4, {"ratting": "six", "jokers": "spade-twos"}),
    ("foster", 3, {"ratting": "penalty30", "splash": 50}),
    ("foster", 2, {"ratting": "none", "max_turnovers": 10}),
    ("foster-three", 3, {}),
    ("foster-three", 3, {"joker": True, "stock": "exposed"}),
    ("foster-three", 3, {"joker": True, "ratting": "six"}),
    ("colonel", 2, {}),
]
SETTINGS = settings(max_examples=scaled(40), deadline=None, derandomize=True)
deals = st.tuples(st.sampled_from(CONFIGS), st.integers(0, 2**32 - 1))
CODE = re.compile(r"\b(?:JK|(?:10|[2-9AJQK])[CDHS])\b")


def start(cfg: tuple[str, int, dict[str, Any]], seed: int) -> RummyDeal:
    variant, players, options = cfg
    d = new_deal(make_rules(variant, options), players, seed % players, seed=seed)
    assert isinstance(d, RummyDeal)
    return d


def everything(d: RummyDeal) -> Counter[Card]:
    cards: Counter[Card] = Counter(d.pack) + Counter(d.stock)
    for h in d.hands:
        cards += Counter(h)
    for c in d.combinations:
        cards += Counter(t.card for t in c.cards)
    return cards


def tokens(obj: object) -> Counter[str]:
    return Counter(CODE.findall(json.dumps(obj)))


def check_views(d: RummyDeal) -> None:
    spectator = d.spectator_view()
    assert spectator["hand"] == [] and spectator["seat"] is None
    public = tokens(spectator)
    for seat in range(d.players):
        view = d.player_view(seat)
        assert view["hand"] == [c.code for c in d.hands[seat]]
        rest = {k: v for k, v in view.items() if k != "hand"}
        private = Counter()  # type: Counter[str]
        for r in d.log:
            if r.seat == seat and r.secret:  # its card, in its record and in its words
                private += tokens(r.cards) + tokens(r.cards)
        # Everything but the own hand is public, except the seat's own pack draws.
        assert tokens(rest) - public == private, (seat, tokens(rest) - public, private)
        assert "pack" not in view and "pack_order" not in view


def choose(legal: list[Action], rng: random.Random) -> Action:
    """A random legal action; challenges and take-backs are rarer so that deals run on."""
    rare = (Challenge, Accept, TakeBack)
    common = [a for a in legal if not isinstance(a, rare)]
    if common and rng.random() < 0.95:
        return rng.choice(common)
    return rng.choice(legal)


def play_out(d: RummyDeal, rng: random.Random, check: float) -> None:
    full = Counter(make_pack(d.table.pack))
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        legal = d.legal_actions(seat)
        assert legal, "a player is never stuck"
        assert len(set(legal)) == len(legal)
        for other in range(d.players):
            if other != seat:
                assert d.legal_actions(other) == []
        if check and rng.random() < check:
            assert everything(d) == full
            check_views(d)
            for a in legal:
                assert canonical(d, a) == a
            agree(d, seat, legal, rng)
        d.apply(choose(legal, rng))
    assert everything(d) == full


@SETTINGS
@given(deals)
def test_random_play_ends_with_a_zero_sum_outcome(params: tuple[Any, int]) -> None:
    d = start(*params)
    play_out(d, random.Random(params[1]), check=0)
    o = d.outcome()
    assert o is not None and sum(o.payments) == 0
    assert len(o.hands) == d.players and len(o.pips) == d.players
    assert o.kind in ("out", "challenge", "exhausted", "abandoned")
    if o.kind == "out":
        assert o.winner is not None and o.pips[o.winner] == 0 and not o.hands[o.winner]
        assert all(p <= 0 for s, p in enumerate(o.payments) if s != o.winner)
    assert d.spectator_view()["outcome"] == o.to_json()


@settings(max_examples=scaled(40), deadline=None, derandomize=True)
@given(st.tuples(st.sampled_from([c for c in CONFIGS if c[2].get("ratting") != "none"]),
                 st.integers(0, 2**32 - 1)))  # fmt: skip
def test_invariants_views_and_legal_actions_along_random_play(params: tuple[Any, int]) -> None:
    d = start(*params)
    play_out(d, random.Random(params[1] + 1), check=0.05)
    check_views(d)


@SETTINGS
@given(deals)
def test_replaying_the_log_reproduces_the_deal(params: tuple[Any, int]) -> None:
    d = start(*params)
    rng = random.Random(params[1] + 2)
    steps = rng.randrange(1, 400)
    for _ in range(steps):
        if d.is_over():
            break
        seat = d.to_move()
        assert seat is not None
        d.apply(choose(d.legal_actions(seat), rng))
    data = json.loads(json.dumps(record(d)))
    result = replay(data)
    assert result.error is None
    again = result.state
    assert again.spectator_view() == d.spectator_view()
    for seat in range(d.players):
        assert again.player_view(seat) == d.player_view(seat)
    c = d.copy()
    assert c.spectator_view() == d.spectator_view()
    if not c.is_over():
        seat = c.to_move()
        assert seat is not None
        c.apply(c.legal_actions(seat)[-1])
        assert c.version == d.version + 1 and again.spectator_view() == d.spectator_view()


# -- legal_actions versus apply ---------------------------------------------------------


def candidates(d: RummyDeal, seat: int, legal: list[Action], rng: random.Random) -> list[Action]:
    """Random actions, many of them near misses of legal ones."""
    hand = [c for c in d.hands[seat]] or [CARDS[0]]
    anycard = lambda: CARDS[rng.randrange(52)]  # noqa: E731
    combos = max(1, len(d.combinations) + 1)

    def placed_from(card: Card) -> Placed:
        if card.is_joker or (card.code == "2S" and rng.random() < 0.5):
            return Placed(card, anycard())
        return Placed(card, card)

    out: list[Action] = []
    for _ in range(12):
        k = rng.randrange(3, 6)
        cards = rng.sample(hand, min(k, len(hand)))
        out.append(Layout(seat, tuple(placed_from(c) for c in cards)))
        out.append(Add(seat, rng.randrange(combos), placed_from(rng.choice(hand)),
                       rng.choice([None, None, "low", "high"])))  # fmt: skip
        out.append(MoveJoker(seat, rng.randrange(combos), placed_from(rng.choice(hand)),
                             rng.choice([None, None, "low", "high"])))  # fmt: skip
        out.append(Discard(seat, rng.choice(hand + [anycard()])))
    out += [Draw(seat, "pack"), Draw(seat, "stock"), Draw(seat, "stock", anycard()),
            TakeBack(seat), Challenge(seat), Accept(seat), Decline(seat),
            Discard((seat + 1) % d.players, hand[0])]  # fmt: skip
    for a in rng.sample(legal, min(6, len(legal))):  # mutate listed actions
        if isinstance(a, Layout):
            cards = list(a.cards)
            rng.shuffle(cards)
            if rng.random() < 0.5 and len(cards) > 3:
                cards.pop()
            i = rng.randrange(len(cards))
            if cards[i].is_wild:
                cards[i] = Placed(cards[i].card, anycard())
            out.append(Layout(seat, tuple(cards)))
        elif isinstance(a, Add | MoveJoker):
            out.append(type(a)(seat, a.combination, a.card, rng.choice(["low", "high"])))
            if a.card.is_wild:
                out.append(type(a)(seat, a.combination, Placed(a.card.card, anycard()), a.end))
    return out


def agree(d: RummyDeal, seat: int, legal: list[Action], rng: random.Random) -> None:
    listed = set(legal)
    for a in candidates(d, seat, legal, rng):
        try:
            canon = canonical(d, a)
        except (IllegalActionError, InvalidActionError):
            assert a not in listed, a
            assert not d.is_legal(a)
            c = d.copy()
            try:
                c.apply(a)
            except (IllegalActionError, InvalidActionError):
                assert c.version == d.version
            else:  # pragma: no cover
                raise AssertionError(f"apply accepted an action the checker refused: {a}")
            continue
        assert canon in listed, (a, canon)
        assert d.is_legal(a)
        c = d.copy()
        c.apply(a)
        assert c.history[-1] == canon


def test_only_the_listed_action_objects_take_the_fast_path_and_a_pickled_deal_checks_anew() -> None:
    """The fast path of ``apply`` trusts an action only if it is one of the objects
    ``legal_actions`` listed (identity, not an id that a new object could reuse); a deal
    loaded from a pickle carries no legality cache, so it lists and checks anew."""
    import copy
    import pickle

    from games.engine.deal import new_deal
    from games.engine.rules import make_rules

    deal = new_deal(make_rules("foster", {}), 3, 0, seed=11)
    seat = deal.to_move()
    assert seat is not None
    listed = deal.legal_actions(seat)
    twin = copy.copy(listed[0])  # equal, but another object
    assert deal._listed(listed[0]) and not deal._listed(twin)
    assert deal.is_legal(twin)  # the slow path still says yes

    loaded = pickle.loads(pickle.dumps(deal))
    assert loaded._legal_key == -1 and loaded._legal_ids == frozenset() and loaded._legal == []
    loaded.apply(twin)  # checked from scratch, and legal
    assert loaded.version == 1
