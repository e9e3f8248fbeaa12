"""Issue 41: a club table of Tunk deals each deal from the game's scores (K9, K10): who
has reached 100 is out of the next deal (KO11), and a game over begins a new one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import make_rules
from games.engine.actions import Action
from games.engine.tunk.deal import TunkDeal
from games.models import Deal
from games.play import engine_api, reading, services
from games.play.moves import Move

from .club_deals import finish, first_deal

RULES = make_rules("tunk")

pytestmark = pytest.mark.django_db


def _deal(table: Any, scores: tuple[int, ...], seed: int) -> Deal:
    return first_deal(table, "tunk", {}, scores, seed)


def _tunk_if_offered(legal: Sequence[Action], rng: random.Random) -> Action:
    tunks = [a for a in legal if a.type == "tunk"]
    return tunks[0] if tunks else rng.choice(legal)


def _finish(table: Any, deal: Deal, seed: int) -> TunkDeal:
    state = finish(table, deal, seed, _tunk_if_offered)
    assert isinstance(state, TunkDeal)
    return state


def test_the_next_deal_is_dealt_from_the_games_scores(make_table: Any) -> None:
    table = make_table("tunk", size=3)
    first = _deal(table, (0, 0, 0), seed=11)
    ended = _finish(table, first, seed=11)
    out = ended.outcome()
    assert out is not None
    following = Deal.objects.get(table=table, number=2)
    state = reading.load_state(following)
    assert isinstance(state, TunkDeal)
    assert state.scores_in == tuple(out.pips)  # K9: the penalties added (a break: none)


def test_a_player_at_100_sits_out_and_the_last_left_ends_the_game(make_table: Any) -> None:
    table = make_table("tunk", size=3)
    # seat 1 has left the game (K10); seats 0 and 2 are near the end
    first = _deal(table, (98, 130, 97), seed=4)
    state = reading.load_state(first)
    assert isinstance(state, TunkDeal)
    assert state.active == (0, 2) and state.hands[1] == [] and state.to_move() == 2
    for seed in range(40):
        ended = _finish(table, Deal.objects.filter(table=table).order_by("-number")[0], seed)
        if ended.outcome().kind != "break":  # type: ignore[union-attr]
            break
    following = Deal.objects.filter(table=table).order_by("-number")[0]
    after = reading.load_state(following)
    assert isinstance(after, TunkDeal)
    # a Tunk put one of them (or both) at 100 or more: the game is over, a new one begins
    assert after.scores_in == (0, 0, 0) and after.active == (0, 1, 2)
    # the club counts Tunk's game (K10), not a round of deals (L5): the breaks before
    # the Tunk did not end it, the Tunk did
    assert (following.game_number, following.deal_in_game) == (2, 0)


def test_a_two_handed_table_counts_the_game_to_100_not_each_deal(make_table: Any) -> None:
    """L5 makes each deal of a two-player table a game; Tunk's game is the deals until
    one player is left (K10), and the table's game number follows it."""
    table = make_table("tunk", size=2)
    _finish(table, _deal(table, (0, 0), seed=5), seed=5)
    second = Deal.objects.get(table=table, number=2)
    assert (second.game_number, second.deal_in_game) == (1, 1)
    table.refresh_from_db()
    assert (table.game_number, table.deal_in_game) == (1, 1)
    # the washbook's CSV names the deal's dealer (seat 0 dealt) and its winner (issue 42)
    import csv
    import io

    from club.models import WashbookLine
    from club.washbooks import books

    book = books.build(WashbookLine.objects.filter(table=table))
    head, first, *_ = csv.reader(io.StringIO(books.to_csv(book)))
    dealer = str(table.seats.get(position=0).member)
    assert first[head.index("dealer")] == dealer
    winner = first[head.index("winner")]
    assert winner in {str(s.member) for s in table.seats.all()}


def test_the_deal_that_ends_the_game_says_who_won_it(make_table: Any, client_for: Any) -> None:
    """K10: the page at the end of the game's last deal names the last player left."""
    table = make_table("tunk", size=2)
    deal = _deal(table, (97, 98), seed=8)
    for seed in range(40):
        ended = _finish(table, deal, seed)
        if ended.outcome().kind != "break":  # type: ignore[union-attr]
            break
        deal = Deal.objects.filter(table=table).order_by("-number")[0]
    (winner,) = RULES.spec.game_winners(ended)
    name = str(table.seats.get(position=winner).member)
    body = client_for(table.seats.get(position=1 - winner).member).get(f"/tables/{table.pk}/")
    text = " ".join(body.content.decode().split())
    assert "is over</strong> after" in text
    assert f'<strong class="game-winners">{name}</strong> wins the game (K10)' in text


def test_the_table_shows_the_games_scores_who_is_out_and_how_far_each_is_from_100(
    make_table: Any, client_for: Any
) -> None:
    """Issue 41, item 2: the running totals, who is out, and the distance to 100."""
    table = make_table("tunk", size=3)
    deal = _deal(table, (98, 130, 57), seed=4)
    seat0 = table.seats.get(position=0).member
    body = client_for(seat0).get(f"/tables/{table.pk}/").content.decode()
    scores = body[body.index("The game before this deal") :]
    scores = scores[: scores.index("</table>")]
    rows = [r for r in scores.split("<tr")[2:]]
    assert [("98" in r, "out of the game" in r) for r in rows] == [
        (True, False), (False, True), (False, False)
    ]  # fmt: skip
    assert "<td>2</td>" in rows[0] and "<td>43</td>" in rows[2]  # 100 - 98, 100 - 57
    state = reading.load_state(deal)
    mine = state.player_view(0)["count"]
    assert f"; {mine} unmatched at best" in body


def test_the_page_offers_the_tunk_as_a_decision_with_its_discard(
    make_table: Any, client_for: Any
) -> None:
    """K7, KO9: after drawing, the Tunk is offered with each discard it may go with, and
    asks to be confirmed, saying what follows (K8, K9)."""
    from games.engine.cards import parse_cards

    table = make_table("tunk", size=2)
    hands = {1: parse_cards("5H 6H 7H JD JS JC 4C"), 0: parse_cards("KS QS 9H 8D 6C 4D JH")}
    order = [hands[(1 + i) % 2][i // 2].code for i in range(14)] + ["KD", "3S"]
    rest = [c.code for c in engine_api.new_state("tunk", {}, 2, 0, seed=1).pack_order]
    state = engine_api.new_state("tunk", {}, 2, 0, pack=order + [c for c in rest if c not in order])
    deal = Deal.objects.create(
        table=table, number=1, variant="tunk", options={}, players=2, dealer=0, seed=0,
        pack=engine_api.pack_codes(state), version=0, to_move=1,
        snapshot=engine_api.to_snapshot(state),
    )  # fmt: skip
    player = client_for(table.seats.get(position=1).member)
    services.act(Move(table.pk, member_id=table.seats.get(position=1).member.pk, version=0, deal_id=deal.pk, action={"type": "draw", "seat": 1}))  # fmt: skip
    body = player.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-type="tunk"' in body
    assert "Tunk, discarding the four of clubs" in body
    assert "Tunk, discarding the three of spades" in body
    assert "if anyone ends lower, they are doubled (K9)" in body
