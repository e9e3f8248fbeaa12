"""Computer players' moves, through the same service as people's.

``bot_move`` is queued after each commit that leaves a bot to move, with a short,
human-like countdown; it is idempotent (a deal that moved on is left alone). The
periodic sweep re-queues a move whose message was lost.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from club.celery import add_periodic

from . import services

add_periodic("games-bot-sweep", "games.tasks.bot_sweep", settings.GAMES_BOT_SWEEP_SECONDS)


@shared_task(ignore_result=True)
def bot_move(deal_id: int, version: int) -> bool:
    return services.play_bot(deal_id, version)


@shared_task(ignore_result=True)
def bot_sweep() -> int:
    """Deals stuck on a bot's turn (a lost message, a restarted worker) move again."""
    from . import club_api
    from .models import Deal

    quiet = timezone.now() - timedelta(seconds=settings.GAMES_BOT_QUIET_SECONDS)
    n = 0
    for deal in Deal.objects.filter(finished=False, to_move__isnull=False).only(
        "id", "table_id", "version", "to_move", "created_at"
    )[:200]:
        last = deal.log.order_by("-index").values_list("created_at", flat=True).first()
        if (last or deal.created_at) > quiet:
            continue
        seating = club_api.table_seating(deal.table_id)
        if any(s.position == deal.to_move and s.is_bot for s in seating):
            services.schedule_bot(deal.pk, deal.version)
            n += 1
    return n
