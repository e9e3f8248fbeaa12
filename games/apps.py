from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from club.services.base import DEAL_PROGRESS, PLAY_CHECKS

        PLAY_CHECKS.append(_online_play)
        DEAL_PROGRESS.append(_latest_deals)


def _online_play(table_ids: list[int]) -> bool:
    """Whether an online deal at any of these tables has an applied action (the club asks
    before it cancels a table or an evening made by mistake)."""
    from .models import DealAction

    return DealAction.objects.filter(deal__table_id__in=table_ids).exists()


def _latest_deals(table_ids: list[int]) -> dict[int, Any]:
    """The latest deal at each of these tables, for the secretary's console (one query)."""
    from club.services.base import DealProgress

    from .models import Deal

    rows = (
        Deal.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "-number")
        .distinct("table_id")
        .values_list("table_id", "game_number", "deal_in_game", "to_move", "version", "finished")
    )
    return {
        table_id: DealProgress(game, in_game, to_move, version, finished)
        for table_id, game, in_game, to_move, version, finished in rows
    }
