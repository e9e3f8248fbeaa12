"""Computer players' moves, through the same service as people's.

``bot_move`` is queued after each commit that leaves a bot to move, with a short,
human-like countdown; it is idempotent (a deal that moved on is left alone). The
periodic sweep re-queues a move whose message was lost.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from club.celery import add_at_start, add_periodic

from .play import services, timers

add_periodic("games-bot-sweep", "games.tasks.bot_sweep", settings.GAMES_BOT_SWEEP_SECONDS)
add_at_start("games.tasks.bot_sweep_at_start")


@shared_task(name="games.tasks.bot_move", ignore_result=True)
def bot_move(deal_id: int, version: int) -> bool:
    return services.play_bot(deal_id, version)


@shared_task(name="games.tasks.bot_sweep", ignore_result=True)
def bot_sweep() -> int:
    """Deals stuck on a computer player's turn (a lost message, a restarted worker) move
    again: every one quiet for GAMES_BOT_QUIET_SECONDS, the quietest first, whatever their
    number, read through the index of unfinished deals by their last move (a deal waiting
    on a person is never read: abandoned practice tables cost the sweep nothing). Then
    practice tables left idle for GAMES_PRACTICE_IDLE_HOURS are closed."""
    n = _queue_stuck_bots(timezone.now() - timedelta(seconds=settings.GAMES_BOT_QUIET_SECONDS))
    timers.close_overdue()  # call rounds whose countdown was lost (TO5)
    timers.close_idle_practice(timezone.now() - settings.GAMES_PRACTICE_IDLE)
    return n


@shared_task(name="games.tasks.close_call_round", ignore_result=True)
def close_call_round(deal_id: int) -> bool:
    """Queued with the round's countdown as a deal with a call round begins (TO5); a
    close delivered twice closes it once (the deal's version has moved on)."""
    return timers.close_round(deal_id)


@shared_task(name="games.tasks.bot_sweep_at_start", ignore_result=True)
def bot_sweep_at_start() -> int:
    """Queued by beat as it starts (issue 57): every deal on a computer player's turn
    moves again now, however recent its last move (its queued move went with the cut);
    a move queued twice is applied once (play_bot checks the deal's version). A call
    round whose time ran out while the power was off closes now; one still open is
    closed when its time is up (its countdown went with the cut too)."""
    timers.close_overdue()
    for deal_id, seconds in timers.open_rounds():
        services.schedule_close(deal_id, seconds)
    return _queue_stuck_bots(timezone.now())


def _queue_stuck_bots(quiet: datetime) -> int:
    from .models import Deal

    due = (
        Deal.objects.filter(finished=False, bot_turn=True, moved_at__lte=quiet)
        .order_by("moved_at")
        .values_list("pk", "version")
    )
    n = 0
    for deal_id, version in due.iterator(chunk_size=500):
        services.schedule_bot(deal_id, version)  # play_bot checks the seat again
        n += 1
    return n
