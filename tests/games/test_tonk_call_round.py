"""Tonk's call round at a club table (T4, TO5; issue 58, item 5): open to every player at
once for the same seconds after the deal; a hand of courts calls with a button, every
other hand lets it close without a click; a call is secret (no version, no action, no
notice) until the round closes, and then every answer is applied in turn and resolved
together. Nothing anyone else sees says whether a hand may call."""

from __future__ import annotations

import re
from typing import Any

import pytest

from club.infra import redis as club_redis
from games.models import Deal, DealAction
from games.play import call_round, reading, timers

from .club_deals import first_deal

pytestmark = pytest.mark.django_db
COURTS = "JC QC KC JD QD KD JH"
PLAIN = "2H 3H 4H 5H 6H 7H 8H"
OTHER = "2C 3C 4C 5C 6C 7C 8C"


def _pack(hands: list[str], stock: str = "9S") -> list[str]:
    """Seat 1 deals a table of two: seat 0 gets the first card (T3, singly)."""
    cards = [h.split() for h in hands]
    order = [cards[i % 2][i // 2] for i in range(14)] + [stock]
    from games.engine.cards import PackKind, make_pack

    return order + [c.code for c in make_pack(PackKind.SINGLE) if c.code not in order]


def _deal(table: Any, first: str) -> Deal:
    return first_deal(table, "tonk", {}, pack=_pack([first, OTHER]), dealer=1)


def _act(client: Any, table: Any, deal: Deal, action: str) -> Any:
    return client.post(
        f"/tables/{table.pk}/act/",
        {"action": f'{{"type": "{action}", "seat": 0}}', "version": deal.version, "deal": deal.pk},
    )


def _status(html: str) -> str:
    line = html[html.index('id="status"') : html.index("</p>", html.index('id="status"'))]
    return " ".join(re.sub(r"<[^>]+>", " ", line).split())


def test_the_round_opens_for_everyone_at_once_and_nobody_is_to_play(
    make_table: Any, client_for: Any
) -> None:
    table = make_table("tonk")
    deal = _deal(table, COURTS)
    assert call_round.is_open(deal) and not deal.bot_turn
    assert 4 <= call_round.seconds_left(deal) <= 5  # GAMES_CALL_ROUND_SECONDS
    courts = client_for(table.seats.get(position=0).member).get(f"/tables/{table.pk}/")
    other = client_for(table.seats.get(position=1).member).get(f"/tables/{table.pk}/")
    for page in (courts, other):
        html = page.content.decode()
        assert "The call round is open to everyone (TO5)" in _status(html)
        assert 'class="tag turn"' not in html  # nobody's turn: no "to play" tag
    assert "Call Tonk" in courts.content.decode()  # the hand that may call has its button
    assert "Call Tonk" not in other.content.decode() and "Do not call" not in other.content.decode()


def test_what_another_player_sees_is_the_same_whether_or_not_a_hand_may_call(
    make_table: Any, client_for: Any
) -> None:
    seen = []
    for first in (COURTS, PLAIN):
        table = make_table("tonk")
        _deal(table, first)
        html = client_for(table.seats.get(position=1).member).get(f"/tables/{table.pk}/")
        html = html.content.decode()
        seen.append((_status(html), "Call Tonk" in html, "to play" in html))
    assert seen[0] == seen[1]


def test_a_call_is_kept_secret_until_the_round_closes_then_it_wins(
    make_table: Any, client_for: Any
) -> None:
    table = make_table("tonk")
    deal = _deal(table, COURTS)
    last = club_redis.client().get(club_redis.key("table", table.pk, "last"))
    page = _act(client_for(table.seats.get(position=0).member), table, deal, "call")
    assert page.status_code == 200 and "You have called Tonk" in page.content.decode()
    deal.refresh_from_db()
    assert deal.called == [0] and deal.version == 0 and not DealAction.objects.filter(deal=deal)
    assert club_redis.client().get(club_redis.key("table", table.pk, "last")) == last
    other = client_for(table.seats.get(position=1).member).get(f"/tables/{table.pk}/")
    assert "calls Tonk" not in other.content.decode()
    assert timers.close_round(deal.pk) is False  # not before its time
    assert timers.close_round(deal.pk, early=True) is True
    assert timers.close_round(deal.pk, early=True) is False  # closed once
    deal.refresh_from_db()
    out = reading.load_state(deal).outcome()
    assert deal.finished and out is not None and out.kind == "tonk" and out.winner == 0
    assert list(DealAction.objects.filter(deal=deal).values_list("seat", "action__type")) == [
        (0, "call"), (1, "no-call")
    ]  # fmt: skip


def test_a_call_taken_back_or_none_made_lets_play_begin_without_a_click(
    make_table: Any, client_for: Any
) -> None:
    table = make_table("tonk")
    deal = _deal(table, COURTS)
    client = client_for(table.seats.get(position=0).member)
    assert _act(client, table, deal, "call").status_code == 200
    page = _act(client, table, deal, "no-call")  # taken back before the round closes
    assert page.status_code == 200 and "Call Tonk" in page.content.decode()
    deal.refresh_from_db()
    assert deal.called == []
    timers.close_round(deal.pk, early=True)
    deal.refresh_from_db()
    state = reading.load_state(deal)
    assert not deal.finished and state.player_view(0)["phase"] == "draw"
    assert (
        state.log[-1].seat is None
        and "nobody calls Tonk" in state.player_view(1)["log"][-1]["text"]
    )


def test_in_the_round_a_hand_below_a_jack_may_not_call_and_nobody_may_play(
    make_table: Any, client_for: Any
) -> None:
    table = make_table("tonk")
    deal = _deal(table, PLAIN)
    client = client_for(table.seats.get(position=0).member)
    page = _act(client, table, deal, "call")
    assert page.status_code == 409 and "hand of courts calls Tonk" in page.content.decode()
    page = _act(client, table, deal, "draw")
    assert page.status_code == 409 and "play begins when it closes" in page.content.decode()
    deal.refresh_from_db()
    assert deal.called == [] and deal.version == 0


def test_the_sweep_closes_a_round_whose_countdown_was_lost(make_table: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    table = make_table("tonk")
    deal = _deal(table, PLAIN)
    assert timers.close_overdue() == 0
    Deal.objects.filter(pk=deal.pk).update(call_round_until=timezone.now() - timedelta(seconds=1))
    assert timers.close_overdue() == 1
    deal.refresh_from_db()
    assert deal.version == 2 and not call_round.is_open(deal)
