import functools
from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .play import club_api, services

        # The club asks play through these hooks (club/services/base.py), never by import.
        club_api.PLAY_CHECKS.append(_online_play)
        club_api.DEAL_PROGRESS.append(_latest_deals)
        club_api.TABLE_STOPS.append(_stop_deals)
        club_api.TABLE_TELLERS.append(_tell_tables)
        club_api.FRESH_GAMES.append(services.fresh_game)
        club_api.REDEALS.append(services.redeal)


def _online_play(table_ids: list[int]) -> bool:
    """Whether an online deal at any of these tables has an applied action (the club asks
    before it cancels a table or an evening made by mistake)."""
    from .models import DealAction

    return DealAction.objects.filter(deal__table_id__in=table_ids).exists()


def _latest_deals(table_ids: list[int]) -> dict[int, Any]:
    """The latest deal at each of these tables, for the secretary's console: one query,
    written once (on every move, the console's line of its table asks: issue 59)."""
    from django.db import connection

    from .models import Deal
    from .play.club_api import DealProgress

    options = Deal._meta.get_field("options")
    with connection.cursor() as cursor:
        cursor.execute(_latest_deals_sql(), [list(table_ids)])
        rows = cursor.fetchall()
    return {
        table_id: DealProgress(
            game,
            in_game,
            to_move,
            version,
            finished,
            variant,
            options.from_db_value(opts, None, connection),
        )
        for table_id, game, in_game, to_move, version, finished, variant, opts in rows
    }


@functools.cache
def _latest_deals_sql() -> str:
    from django.db import connection

    from .models import Deal

    q = connection.ops.quote_name
    cols = ", ".join(
        q(c)
        for c in (
            "table_id", "game_number", "deal_in_game", "to_move", "version", "finished",
            "variant", "options",
        )
    )  # fmt: skip
    return (
        f"SELECT DISTINCT ON ({q('table_id')}) {cols} FROM {q(Deal._meta.db_table)}"
        f" WHERE {q('table_id')} = ANY(%s) ORDER BY {q('table_id')}, {q('number')} DESC"
    )


def _stop_deals(table_ids: list[int], reason: str) -> None:
    """The club closed these tables (cancelled or voided): the online deal in progress
    at each ends where it stands, unscored, with the reason; nothing more is dealt. The
    players' screens are told after commit."""
    from django.db import transaction
    from django.utils import timezone

    from .models import Deal
    from .play import services

    stopped = list(
        Deal.objects.filter(table_id__in=table_ids, finished=False).values_list(
            "pk", "table_id", "version"
        )
    )
    Deal.objects.filter(pk__in=[pk for pk, _, _ in stopped]).update(
        finished=True, finished_at=timezone.now(), to_move=None, outcome={"stopped": reason}
    )
    for pk, table_id, version in stopped:
        transaction.on_commit(
            lambda t=table_id, d=pk, v=version: services.publish(t, d, v, club=True)
        )


def _tell_tables(table_ids: list[int]) -> None:
    """Refresh every screen at these tables (the club told them their evening changed):
    the latest deal's stamp is published again, so each browser reloads its club panel."""
    from .models import Deal
    from .play import services

    rows = (
        Deal.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "-number")
        .distinct("table_id")
        .values_list("table_id", "pk", "version")
    )
    for table_id, pk, version in rows:
        services.publish(table_id, pk, version, club=True)
