"""Deal states as versioned JSON snapshots (games/engine/snapshot.py).

For seeded random deals of every option set: after every action the snapshot is plain
JSON, ``from_json(to_json(s)) == s`` with the same legal actions, play goes on from the
loaded copy, and at the end replaying the seed and the log gives exactly the snapshot.
``SNAPSHOT_DEALS`` sets how many deals (80 in make test; 1,000 in make test-long).
"""

from __future__ import annotations

import itertools
import json
import os
import random
from typing import Any

import pytest

from games.bots import get_bot
from games.engine.conquian.deal import ConquianDeal, new_conquian_deal
from games.engine.deal import deal_from_json, new_deal
from games.engine.rules import VARIANTS, make_rules
from games.engine.rummy.deal import RummyDeal
from games.engine.snapshot import SNAPSHOT_VERSION, SnapshotError
from tests.scale import scaled

DEALS = int(os.environ.get("SNAPSHOT_DEALS", str(scaled(80))))
GREEDY = get_bot("greedy")
# With no turnover cap (max_turnovers 0) and Dalton's "six", a deal of three greedy players
# can go round for ever with nobody able to show six: such a deal is checked this far.
LONGEST = 3000


def option_sets(variant: str) -> list[dict[str, Any]]:
    spec = VARIANTS[variant]
    names = [o.name for o in spec.options]
    return [dict(zip(names, values, strict=True))
            for values in itertools.product(*(o.choices for o in spec.options))]  # fmt: skip


def round_trip(deal: ConquianDeal) -> ConquianDeal:
    snap = deal.to_json()
    assert snap["snapshot"] == SNAPSHOT_VERSION
    assert json.loads(json.dumps(snap)) == snap  # plain JSON: no tuples, no objects
    loaded = ConquianDeal.from_json(json.loads(json.dumps(snap)))
    assert loaded == deal and loaded.to_json() == snap
    seat = deal.to_move()
    if seat is not None:
        assert loaded.legal_actions(seat) == deal.legal_actions(seat)
    assert loaded.player_view(0) == deal.player_view(0)
    return loaded


def test_conquian_snapshots_round_trip_and_replay_along_random_play() -> None:
    sets = option_sets("conquian")
    random.Random(0).shuffle(sets)  # the first deals take every pack, not the first only
    assert {o["pack"] for o in sets[:DEALS]} == {"forty", "spanish", "full"}
    for n in range(DEALS):
        options = sets[n % len(sets)]
        rules = make_rules("conquian", options)
        carry = n % 3 if options["carry"] else 0
        seed, dealer = 1000 + n, n % 2
        deal = new_conquian_deal(rules, dealer, seed=seed, carry_in=carry)
        rng = random.Random(n)
        while True:
            deal = round_trip(deal)  # play goes on from the loaded copy
            seat = deal.to_move()
            if seat is None:
                break
            deal.apply(rng.choice(deal.legal_actions(seat)))
        assert deal.outcome() is not None
        replayed = new_conquian_deal(rules, dealer, seed=seed, carry_in=carry)
        for action in deal.history:
            replayed.apply(action)
        assert replayed.to_json() == deal.to_json(), (n, options)


@pytest.mark.parametrize("variant", ["foster", "foster-three", "colonel"])
def test_rummy_snapshots_round_trip_and_replay_along_random_play(variant: str) -> None:
    """The rummy family (RummyDeal): every option set, two to seven players for Foster,
    played by the greedy computer player with one random action in ten."""
    spec = VARIANTS[variant]
    sets = option_sets(variant)
    for n in range(DEALS):
        options = sets[n % len(sets)]
        rules = make_rules(variant, options)
        players = spec.min_players + n % (spec.max_players - spec.min_players + 1)
        seed, dealer = 2000 + n, n % players
        deal = new_deal(rules, players, dealer, seed=seed)
        assert isinstance(deal, RummyDeal)
        rng = random.Random(n)
        while True:
            seat = deal.to_move()
            # Round trips at the first actions, then at every power of two and at the
            # end (each snapshot holds the whole log).
            v = deal.version
            if v < 5 or v & (v - 1) == 0 or seat is None:
                snap = deal.to_json()
                assert json.loads(json.dumps(snap)) == snap
                loaded = RummyDeal.from_json(json.loads(json.dumps(snap)))
                assert loaded == deal and loaded.to_json() == snap
                if seat is not None:
                    assert loaded.legal_actions(seat) == deal.legal_actions(seat)
                deal = loaded  # play goes on from the loaded copy
            if seat is None or v >= LONGEST:
                break
            # The greedy computer player, with a random legal action one time in ten:
            # deals of realistic length (pure random play runs to thousands of actions).
            legal = deal.legal_actions(seat)
            if rng.random() < 0.1:
                deal.apply(rng.choice(legal))
            else:
                deal.apply(GREEDY.choose(deal.player_view(seat), legal, rng))
        assert deal.outcome() is not None or deal.version >= LONGEST
        replayed = new_deal(rules, players, dealer, seed=seed)
        for action in deal.history:
            replayed.apply(action)
        assert replayed.to_json() == deal.to_json(), (variant, n, options)


def test_a_rummy_snapshot_with_an_unknown_version_or_damage_is_refused() -> None:
    deal = new_deal(make_rules("foster", {}), 3, 0, seed=9)
    deal.apply(deal.legal_actions(deal.to_move() or 0)[0])
    snap = deal.to_json()
    with pytest.raises(SnapshotError, match="deal 9: snapshot version 3"):
        RummyDeal.from_json(snap | {"snapshot": 3}, what="deal 9")
    for damage in ({"hands": [["ZZ"]] * 3}, {"sizes": [1]}, {"combinations": [{"kind": "run"}]},
                   {"version": 5}, {"taken_back_to": {"hand": []}},
                   {"log": [{"seat": 0, "kind": "sings", "law": "L1"}]}):  # fmt: skip
        with pytest.raises(SnapshotError, match="deal 9: malformed snapshot version 2"):
            RummyDeal.from_json(snap | damage, what="deal 9")


def _snapshot() -> dict[str, Any]:
    deal = new_conquian_deal(make_rules("conquian", {}), 0, seed=3)
    deal.apply(deal.legal_actions(deal.to_move() or 0)[0])
    return deal.to_json()


@pytest.mark.parametrize("version", [None, 0, 1, 3, "2"])
def test_an_unknown_snapshot_version_is_refused_naming_the_deal_and_the_version(
    version: object,
) -> None:
    snap = _snapshot() | {"snapshot": version}
    with pytest.raises(SnapshotError, match=rf"deal 7: snapshot version {version!r}"):
        ConquianDeal.from_json(snap, what="deal 7")


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: s.pop("hands"),
        lambda s: s.update(hands=[["ZZ"], []]),
        lambda s: s.update(card=17),
        lambda s: s.update(history=[{"type": "fly"}]),
        lambda s: s.update(version=s["version"] + 1),
        lambda s: s["rules"].update(variant="chess"),
    ],
)
def test_a_malformed_snapshot_is_refused_whole(damage: Any) -> None:
    snap = _snapshot()
    damage(snap)
    with pytest.raises(SnapshotError, match="deal 8"):
        ConquianDeal.from_json(snap, what="deal 8")


def test_a_loaded_history_is_decoded_on_reading_and_a_damaged_action_is_refused_then() -> None:
    """The history stays as the snapshot's JSON until read (a server applies one action
    and saves again); it reads back the same actions, and one that cannot be decoded is a
    SnapshotError naming the deal, never a half-read history."""
    deal = new_deal(make_rules("foster", {}), 4, 0, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        deal.apply(rng.choice(deal.legal_actions(deal.to_move() or 0)))
    snap = deal.to_json()
    loaded = RummyDeal.from_json(json.loads(json.dumps(snap)), what="deal 4")
    nxt = rng.choice(loaded.legal_actions(loaded.to_move() or 0))
    loaded.apply(nxt)
    deal.apply(nxt)
    assert loaded.to_json()["history"] == deal.to_json()["history"]  # written back undecoded
    assert loaded.history == deal.history and len(loaded.history) == 31
    damaged = json.loads(json.dumps(snap))
    draw = next(a for a in damaged["history"] if "card" in a)
    draw["card"] = "ZZ"
    broken = RummyDeal.from_json(damaged, what="deal 4")
    with pytest.raises(SnapshotError, match="deal 4: malformed history"):
        broken.history  # noqa: B018


@pytest.mark.parametrize("entry", [{"type": "draw", "seat": 4}, {"type": "draw"}, "1 draw pack"])
def test_a_history_entry_of_the_wrong_form_is_refused_on_loading(entry: object) -> None:
    snap = new_deal(make_rules("foster", {}), 4, 0, seed=5).to_json()
    snap["history"] = [entry]
    snap["version"] = 1
    with pytest.raises(SnapshotError, match="deal 6: malformed snapshot"):
        RummyDeal.from_json(snap, what="deal 6")


@pytest.mark.parametrize(
    ("variant", "players"), [("conquian", 2), ("colonel", 2), ("foster-three", 3), ("foster", 6)]
)
def test_deal_from_json_reads_a_snapshot_of_any_variant(variant: str, players: int) -> None:
    deal = new_deal(make_rules(variant, {}), players, 1, seed=8)
    deal.apply(deal.legal_actions(deal.to_move() or 0)[0])
    loaded = deal_from_json(json.loads(json.dumps(deal.to_json())))
    assert type(loaded) is type(deal) and loaded == deal


def test_deal_from_json_refuses_a_variant_it_does_not_know() -> None:
    snap = new_deal(make_rules("colonel", {}), 2, 0, seed=8).to_json()
    snap["rules"]["variant"] = "chess"
    with pytest.raises(SnapshotError, match="deal 3: snapshot of unknown variant 'chess'"):
        deal_from_json(snap, what="deal 3")
