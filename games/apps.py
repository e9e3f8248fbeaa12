from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from club.services.base import PLAY_CHECKS

        PLAY_CHECKS.append(_online_play)


def _online_play(table_ids: list[int]) -> bool:
    """Whether an online deal at any of these tables has an applied action (the club asks
    before it cancels a table or an evening made by mistake)."""
    from .models import DealAction

    return DealAction.objects.filter(deal__table_id__in=table_ids).exists()
