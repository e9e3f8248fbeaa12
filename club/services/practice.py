"""Practice tables: a member and computer players, never staked; started from the
club's house rules or the game's own, closed when left idle. Uses the tables'
services; nothing there calls back."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from club.models import (
    HouseRules,
    Member,
    Seat,
    Table,
)
from club.services import base
from club.services.base import ClubError, counted, log
from club.services.tables import check_variant, with_house_rules
from club.tables import cutting


def practice_tables(member: Member | None, limit: int = 5) -> list[Table]:
    """The member's practice tables still open, the latest first: a list to return to."""
    if member is None:
        return []
    return list(
        Table.objects.filter(is_practice=True, status=Table.PLAYING, seats__member=member).order_by(
            "-created_at"
        )[:limit]
    )


def create_practice_table(
    member: Member,
    variant: str,
    players: int,
    options: dict[str, Any] | None = None,
    house_rules: HouseRules | None = None,
) -> Table:
    """A session-less online table: ``member`` in seat 0, bots in the others. Unstaked.
    A member has at most PRACTICE_TABLES_MAX open (the sweep closes idle ones). It may
    start from a set of house rules, as a club table does."""
    from django.conf import settings

    check_variant(variant, players)
    options, rules_name = with_house_rules(house_rules, variant, options)
    wrong = cutting.options_error(variant, options)
    if wrong:
        raise ClubError(gettext("these options do not fit the game: %(wrong)s") % {"wrong": wrong})
    with transaction.atomic():
        Member.objects.select_for_update().filter(pk=member.pk).first()  # one at a time
        most = settings.PRACTICE_TABLES_MAX
        if len(practice_tables(member, limit=most)) >= most:
            idle = settings.GAMES_PRACTICE_IDLE.total_seconds() / 3600
            raise ClubError(
                f"you have {most} practice tables open: play on at one of them (the home page "
                f"lists them); one left for {idle:g} hours without a move closes by itself"
            )
        # Numbered among the member's own practice tables, so he can tell them apart.
        top = Table.objects.filter(is_practice=True, seats__member=member).aggregate(
            n=Max("number")
        )["n"]
        table = Table.objects.create(
            session=None,
            number=(top or 0) + 1,
            variant=variant,
            size=players,
            mode=Table.ONLINE,
            options=options,
            house_rules=house_rules,
            house_rules_name=rules_name,
            is_practice=True,
            status=Table.PLAYING,
            started_at=timezone.now(),
        )
        seats = [member, *base.bots(players - 1)]
        Seat.objects.bulk_create(
            [Seat(table=table, position=i, member=m) for i, m in enumerate(seats)]
        )
        log(table, f"Practice table for {member} with {counted(players - 1, 'bot')}.")
    return table


def close_practice_tables(table_ids: list[int], why: str) -> None:
    """Close these practice tables (left idle): play stops there, with ``why``."""
    with transaction.atomic():
        ids = [t.pk for t in base.lock_tables(table_ids) if t.is_practice]
        Table.objects.filter(pk__in=ids, status=Table.PLAYING).update(status=Table.CLOSED)
        base.stop_play(ids, why)


def tables_with_bots() -> Q:
    """Tables excluded from money: practice tables and any table a bot has played at."""
    return (
        Q(is_practice=True)
        | Q(had_computer_players=True)
        | Q(seats__member__is_bot=True)
        | Q(lines__entries__member__is_bot=True)
    )
