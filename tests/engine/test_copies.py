"""A deal's two copies (issue 59): ``copy`` shares the log's view (its entries kept
against the records themselves) for the bots' playouts; ``copy_apart`` shares nothing,
so the web may apply a move to it while other threads read the deal it came from
(games.play.kept: the state kept for a version, read by every render of it)."""

from __future__ import annotations

import random

import pytest

from games.engine import make_rules, new_deal

GAMES = [
    ("foster", 5),
    ("foster-three", 3),
    ("conquian", 2),
    ("colonel", 2),
    ("tonk", 3),
    ("tunk", 3),
]


def log_view(deal: object) -> object:
    """The deal's log view (a property in some games, an attribute in Conquián)."""
    return getattr(deal, "log_view", None) or getattr(deal, "_log_view")  # noqa: B009


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_copy_apart_shares_no_log_view_and_moves_on_alone(variant: str, players: int) -> None:
    d = new_deal(make_rules(variant), players, 0, seed=7)
    rng = random.Random(7)
    for _ in range(6):  # a log to view
        seat = d.to_move()
        if seat is None or d.is_over():
            break
        d.apply(rng.choice(d.legal_actions(seat)))
    views = [d.player_view(s) for s in range(players)]
    assert log_view(d.copy()) is log_view(d)
    apart = d.copy_apart()
    assert log_view(apart) is not log_view(d)
    assert apart.to_json() == d.to_json()
    assert [apart.player_view(s) for s in range(players)] == views
    seat = apart.to_move()
    if seat is not None and not apart.is_over():
        apart.apply(rng.choice(apart.legal_actions(seat)))
        assert apart.version == d.version + 1
    assert [d.player_view(s) for s in range(players)] == views  # the deal as it was
