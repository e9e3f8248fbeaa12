"""Computer players' pace (issue 28, item 6): a short default pause before each move,
set by GAMES_BOT_DELAY, and the table says who is thinking."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from club import settings as defaults
from games.play import services

from .helpers import deal_from_seed


def test_a_computer_player_moves_within_half_a_second_by_default(monkeypatch: Any) -> None:
    monkeypatch.setattr(settings, "GAMES_BOT_DELAY", defaults.GAMES_BOT_DELAY)
    waits = [services.bot_delay() for _ in range(200)]
    assert max(waits) <= 0.5 and min(waits) >= 0.2
    monkeypatch.setattr(settings, "GAMES_BOT_DELAY", "1,2")  # the club's own pace
    assert all(1 <= services.bot_delay() <= 2 for _ in range(50))


def test_the_table_shows_the_computer_player_thinking(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    me, bot = make_member("Me"), make_member("Bot Alfa", is_bot=True)
    table = make_table("conquian", [me, bot])
    deal_from_seed(table, 4, dealer=0)  # the pone (seat 1, the bot) says first
    body = client_for(me).get(f"/tables/{table.pk}/").content.decode()
    assert '<strong>Bot Alfa</strong> <span class="thinking" role="status">is thinking' in body
