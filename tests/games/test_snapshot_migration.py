"""games 0002: deals move from a pickled state to the engine's JSON snapshot (issue 25).

Real PostgreSQL, real migrations: deals played through the services are taken back to
0001 (their pickle column back, empty), given a pickle that would run code if anything
unpickled it, and migrated forward again. Each deal's snapshot must be exactly what
replaying its pack and log gives, the pickle must never have been read, and play must go
on from the migrated deal. And ``load_state`` replays any deal whose snapshot it cannot
use (none, unreadable, behind the deal).
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Deal
from games.play import engine_api, reading

from .helpers import deal_from_seed, play_script

OLD = [("games", "0001_initial")]
NEW = [("games", "0002_deal_snapshot")]


class _Trap:
    """Unpickling this creates a file: the proof that something read the pickle."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path(self.path).touch, ())


def _migrate(target: list[tuple[str, str]] | None = None) -> None:
    """To ``target``; with none, to the latest migrations (the schema every other test,
    and the code after the migration, expect)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def _columns() -> set[str]:
    with connection.cursor() as cur:
        return {c.name for c in connection.introspection.get_table_description(cur, "games_deal")}


def _script(variant: str, players: int, seed: int, moves: int) -> list[dict[str, Any]]:
    state = engine_api.new_state(variant, {}, players, 0, seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(moves):
        seat = state.to_move()
        if seat is None:
            break
        a = rng.choice(state.legal_actions(seat))
        out.append(a.to_json())
        state.apply(a)
    return out


@pytest.mark.django_db(transaction=True)
def test_migrating_replays_each_deal_into_its_snapshot_and_never_unpickles(
    make_table: Any, make_member: Any, tmp_path: Path
) -> None:
    deals = []
    for variant, players, seed, moves in [("conquian", 2, 4, 9), ("foster", 5, 7, 23),
                                          ("foster-three", 3, 2, 0), ("colonel", 2, 9, 5)]:  # fmt: skip
        members = [make_member() for _ in range(players)]
        table = make_table(variant, members)
        deal = deal_from_seed(table, seed)
        play_script(table, deal, _script(variant, players, seed, moves), members)
        deals.append(Deal.objects.get(pk=deal.pk))
    expected = {d.pk: d.snapshot for d in deals}
    assert all(
        s is not None and s["version"] == d.version
        for d, s in zip(deals, expected.values(), strict=True)
    )

    try:
        _migrate(OLD)
        assert "state_blob" in _columns() and "snapshot" not in _columns()
        trap = tmp_path / "unpickled"
        with connection.cursor() as cur:
            # the reverse left the blob empty: the old code replays such a deal from its log
            cur.execute("SELECT count(*) FROM games_deal WHERE state_blob IS NOT NULL")
            assert cur.fetchone() == (0,)
            cur.execute("UPDATE games_deal SET state_blob = %s", [pickle.dumps(_Trap(str(trap)))])
        _migrate(NEW)
    finally:
        _migrate()  # leave the schema as the other tests expect it, whatever happened
    assert "snapshot" in _columns() and "state_blob" not in _columns()
    assert not trap.exists(), "the migration unpickled a stored state"
    for d in Deal.objects.filter(pk__in=expected):
        assert d.snapshot == expected[d.pk]  # exactly the replay of pack and log
        assert d.snapshot == engine_api.to_snapshot(reading.replay(d))

    # Play goes on from a migrated deal.
    d = Deal.objects.get(pk=deals[1].pk)
    state = reading.load_state(d)
    seat = state.to_move()
    assert seat is not None
    members = [s.member for s in d.table.seats.order_by("position")]
    play_script(d.table, d, [state.legal_actions(seat)[0].to_json()], members)
    assert Deal.objects.get(pk=d.pk).version == d.version + 1


@pytest.mark.django_db(transaction=True)
def test_a_deal_the_engine_cannot_replay_is_left_without_a_snapshot_and_replays_later(
    make_table: Any, make_member: Any
) -> None:
    """A log the engine refuses does not stop the migration: that deal keeps no snapshot
    (the others are filled), and loading it goes to the replay, which says why."""
    members = [make_member() for _ in range(2)]
    table = make_table("conquian", members)
    good = deal_from_seed(table, 4)
    play_script(table, good, _script("conquian", 2, 4, 3), members)
    bad_table = make_table("conquian", [make_member() for _ in range(2)])
    bad = deal_from_seed(bad_table, 5)
    try:
        _migrate(OLD)
        with connection.cursor() as cur:
            cur.execute(
                "INSERT INTO games_dealaction (deal_id, index, seat, action, created_at) "
                "VALUES (%s, 0, 0, %s, now())",
                [bad.pk, '{"type": "draw", "seat": 1, "source": "nowhere"}'],
            )
            cur.execute("UPDATE games_deal SET version = 1 WHERE id = %s", [bad.pk])
        _migrate(NEW)
    finally:
        _migrate()
    assert Deal.objects.get(pk=good.pk).snapshot is not None
    assert Deal.objects.get(pk=bad.pk).snapshot is None


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda s: None, id="none"),
        pytest.param(lambda s: s | {"snapshot": 99}, id="unknown-version"),
        pytest.param(lambda s: s | {"hands": "ZZ"}, id="malformed"),
        pytest.param(lambda s: s | {"rules": {"variant": "chess"}}, id="unknown-variant"),
        pytest.param(lambda s: s | {"version": 0, "history": []}, id="behind-the-deal"),
        # Issue 39: a snapshot of version 1 kept the log as sentences; it converts by replay.
        pytest.param(
            lambda s: s | {"snapshot": 1, "log": [[e[0], "turns up", e[2]] for e in s["log"]]},
            id="version-1-log-as-sentences",
        ),
    ],
)
def test_a_snapshot_load_state_cannot_use_is_replayed_from_the_log(
    make_table: Any, make_member: Any, damage: Any, caplog: pytest.LogCaptureFixture
) -> None:
    members = [make_member() for _ in range(2)]
    table = make_table("conquian", members)
    deal = deal_from_seed(table, 4)
    play_script(table, deal, _script("conquian", 2, 4, 6), members)
    deal = Deal.objects.get(pk=deal.pk)
    good = deal.snapshot
    Deal.objects.filter(pk=deal.pk).update(snapshot=damage(dict(good)))
    state = reading.load_state(Deal.objects.get(pk=deal.pk))
    assert engine_api.to_snapshot(state) == good
    if damage(dict(good)) is not None:
        assert f"deal {deal.pk}" in caplog.text and "replaying" in caplog.text
