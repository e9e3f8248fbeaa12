"""The games app's view of the club app: seats, the washbook, the next dealer.

Everything goes through ``club.services`` (the club's contract). A thin fallback on the
club's public model fields is kept for any function the club services do not offer
(reported to the lead; it never writes anything the club service would not).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Sum


@dataclass(frozen=True)
class SeatInfo:
    position: int
    member_id: int
    display_name: str
    is_bot: bool
    playing_for_id: int | None = None


@dataclass(frozen=True)
class TableTurn:
    dealer_position: int
    seating_changed: bool
    game_number: int
    deal_in_game: int
    events: list[str]


def _service(name: str) -> Any:
    try:
        import club.services as services
    except ImportError:  # pragma: no cover - the club app always has its services
        return None
    return getattr(services, name, None)


def table_seating(table_id: int) -> list[SeatInfo]:
    fn = _service("table_seating")
    if fn is not None:
        return list(fn(table_id))
    from club.models import Seat, Substitution

    subs = {
        s.leaver_id: s
        for s in Substitution.objects.filter(table_id=table_id, status="active").select_related(
            "substitute"
        )
    }
    out = []
    for seat in Seat.objects.filter(table_id=table_id).select_related("member"):
        sub = subs.get(seat.member_id)
        if sub is not None:
            out.append(
                SeatInfo(
                    seat.position,
                    sub.substitute_id,
                    sub.substitute.display_name,
                    False,
                    seat.member_id,
                )
            )
        else:
            out.append(
                SeatInfo(
                    seat.position, seat.member_id, seat.member.display_name, seat.member.is_bot
                )
            )
    return sorted(out, key=lambda s: s.position)


def current_dealer(table_id: int) -> int:
    fn = _service("current_dealer")
    if fn is not None:
        return int(fn(table_id))
    from club.models import Table

    return Table.objects.values_list("dealer_position", flat=True).get(pk=table_id)


def post_online_deal(
    table_id: int, *, deal_key: str, points: dict[int, int], detail: dict[str, Any]
) -> Any:
    fn = _service("post_online_deal")
    if fn is not None:
        return fn(table_id, deal_key=deal_key, points=points, detail=detail)
    # Fallback: one washbook line, entries by seat (the club's checks still apply at commit).
    from club.models import Table, WashbookEntry, WashbookLine

    with transaction.atomic():
        line = WashbookLine.objects.filter(deal_key=deal_key).first()
        if line is not None:
            return line
        table = Table.objects.select_for_update().get(pk=table_id)
        seating = {s.position: s for s in table_seating(table_id)}
        number = (WashbookLine.objects.filter(table=table).count()) + 1
        total = sum(p for p in points.values() if p > 0)
        line = WashbookLine.objects.create(
            table=table,
            number=number,
            kind="deal" if total else "tableau",
            deal_key=deal_key,
            game_number=table.game_number,
            value=total,
            detail=detail,
        )
        WashbookEntry.objects.bulk_create(
            [
                WashbookEntry(
                    line=line,
                    member_id=seating[pos].playing_for_id or seating[pos].member_id,
                    position=pos,
                    points=p,
                )
                for pos, p in sorted(points.items())
            ]
        )
        line.sealed = True
        line.save(update_fields=["sealed"])
        return line


def advance_after_deal(table_id: int) -> TableTurn:
    fn = _service("advance_after_deal")
    if fn is not None:
        t = fn(table_id)
        return TableTurn(
            int(t.dealer_position),
            bool(t.seating_changed),
            int(t.game_number),
            int(t.deal_in_game),
            list(t.events),
        )
    from club.models import Table

    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        table.deals_played += 1
        table.deal_in_game += 1
        if table.deal_in_game >= table.size:
            table.deal_in_game = 0
            table.game_number += 1
        table.dealer_position = (table.dealer_position + 1) % table.size
        table.save(update_fields=["deals_played", "deal_in_game", "game_number", "dealer_position"])
        return TableTurn(table.dealer_position, False, table.game_number, table.deal_in_game, [])


def create_practice_table(member: Any, variant: str, players: int, options: dict[str, Any]) -> Any:
    fn = _service("create_practice_table")
    if fn is not None:
        return fn(member, variant, players, options)
    from club.models import Seat, Table
    from club.services.base import bots

    with transaction.atomic():
        table = Table.objects.create(
            variant=variant,
            size=players,
            options=options,
            is_practice=True,
            status="playing",
            mode="online",
        )
        Seat.objects.create(table=table, position=0, member=member)
        for i, bot in enumerate(bots(players - 1), start=1):
            Seat.objects.create(table=table, position=i, member=bot)
        return table


def washbook_totals(table_id: int) -> dict[int, int]:
    """Running totals by member id (the club's washbook, read-only)."""
    from club.models import WashbookEntry

    rows = (
        WashbookEntry.objects.filter(line__table_id=table_id)
        .values("member_id")
        .annotate(total=Sum("points"))
    )
    return {r["member_id"]: r["total"] for r in rows}


def member_id_for(user: Any) -> int | None:
    if not getattr(user, "is_authenticated", False):
        return None
    from club.models import Member

    return Member.objects.filter(user_id=user.pk).values_list("pk", flat=True).first()
