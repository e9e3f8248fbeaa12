"""A club table of Conquián played to a points total (C-opt-4, seed 003): the game's
points carry from deal to deal, the table counts the game to its total rather than each
deal (L5 at two players), and the deal that ends it names its winner."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.conquian.deal import ConquianDeal
from games.models import Deal
from games.play import reading

from .club_deals import finish, first_deal

pytestmark = pytest.mark.django_db
TO_FIVE = {"target": 5}


def _deal(table: Any, scores: tuple[int, int], seed: int) -> Deal:
    return first_deal(table, "conquian", TO_FIVE, scores, seed)


def _finish(table: Any, deal: Deal, seed: int) -> ConquianDeal:
    state = finish(table, deal, seed)
    assert isinstance(state, ConquianDeal)
    return state


def _latest(table: Any) -> Deal:
    return Deal.objects.filter(table=table).order_by("-number")[0]


def test_the_points_won_carry_and_the_game_goes_on_below_the_total(make_table: Any) -> None:
    table = make_table("conquian", options=TO_FIVE)
    ended = _finish(table, _deal(table, (0, 0), seed=3), seed=3)
    out = ended.outcome()
    assert out is not None
    following = _latest(table)
    state = reading.load_state(following)
    assert isinstance(state, ConquianDeal)
    assert state.scores_in == tuple(max(0, p) for p in out.payments)
    # L5 makes each deal at two players a game; played to a total it is the deals to it
    assert (following.game_number, following.deal_in_game) == (1, 1)


def test_the_deal_that_reaches_the_total_ends_the_game_and_names_its_winner(
    make_table: Any, client_for: Any
) -> None:
    table = make_table("conquian", options=TO_FIVE)
    deal = _deal(table, (4, 4), seed=8)
    for seed in range(40):  # tableaux carry on; the first deal won ends the game
        ended = _finish(table, deal, seed)
        if ended.outcome().kind == "out":  # type: ignore[union-attr]
            break
        deal = _latest(table)
    (winner,) = reading.load_state(deal).rules.spec.game_winners(ended)
    following = _latest(table)
    assert (following.game_number, following.deal_in_game) == (2, 0)
    fresh = reading.load_state(following)
    assert isinstance(fresh, ConquianDeal) and fresh.scores_in == (0, 0)
    name = str(table.seats.get(position=winner).member)
    body = client_for(table.seats.get(position=1 - winner).member).get(f"/tables/{table.pk}/")
    text = " ".join(body.content.decode().split())
    assert f'<strong class="game-winners">{name}</strong> wins the game (C-opt-4)' in text
    assert "Game 2 to 5, deal 1" in text


def test_the_table_shows_the_points_won_and_how_far_each_is_from_the_total(
    make_table: Any, client_for: Any
) -> None:
    table = make_table("conquian", options=TO_FIVE)
    _deal(table, (3, 1), seed=4)
    body = client_for(table.seats.get(position=0).member).get(f"/tables/{table.pk}/")
    text = body.content.decode()
    scores = text[text.index("points won, the game to 5 (C-opt-4)") :]
    rows = scores[: scores.index("</table>")].split("<tr")[2:]
    assert ["<td>3</td><td>2</td>" in rows[0], "<td>1</td><td>4</td>" in rows[1]] == [True, True]
