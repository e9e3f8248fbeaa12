"""Deal states as versioned JSON snapshots (games/engine/snapshot.py).

For seeded random deals of every option set: after every action the snapshot is plain
JSON, ``from_json(to_json(s)) == s`` with the same legal actions, play goes on from the
loaded copy, and at the end replaying the seed and the log gives exactly the snapshot.
``SNAPSHOT_DEALS`` sets how many deals (200 in make test).
"""

from __future__ import annotations

import itertools
import json
import os
import random
from typing import Any

import pytest

from games.engine.conquian import ConquianDeal, new_conquian_deal
from games.engine.rules import VARIANTS, make_rules
from games.engine.snapshot import SNAPSHOT_VERSION, SnapshotError

DEALS = int(os.environ.get("SNAPSHOT_DEALS", "200"))


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


def _snapshot() -> dict[str, Any]:
    deal = new_conquian_deal(make_rules("conquian", {}), 0, seed=3)
    deal.apply(deal.legal_actions(deal.to_move() or 0)[0])
    return deal.to_json()


@pytest.mark.parametrize("version", [None, 0, 2, "1"])
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
