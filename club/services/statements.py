"""A member's statement for a period (issue 81, item 3): brought forward, then each evening
(his points, the money they came to, his table fee), each payment, refund, reversal and
adjustment, then carried forward; every row adds up, and brought forward plus the rows is
carried forward. Postings are dated as :mod:`club.services.accounts` dates them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Sum

from club.models import ClubSession, Member, Posting, WashbookEntry
from club.services.accounts import ZERO, Period, dated_legs
from club.services.ledger import CENT, staked


@dataclass(frozen=True)
class StatementRow:
    """One row: an evening (its play and its fee together), or one other posting."""

    day: dt.date
    text: str
    evening: ClubSession | None = None
    points: int | None = None  # his points at the evening's staked tables
    play: Decimal = ZERO  # the points at the evening's stake (the balancing)
    fee: Decimal = ZERO  # the evening's table fee (negative)
    other: Decimal = ZERO  # a payment, refund, reversal or adjustment
    stored: bool = False  # ``text`` is a posting's memo: the books' words, as kept

    @property
    def amount(self) -> Decimal:
        return self.play + self.fee + self.other


@dataclass(frozen=True)
class PeriodStatement:
    member: Member
    period: Period
    brought_forward: Decimal
    rows: list[StatementRow]
    carried_forward: Decimal

    @property
    def adds_up(self) -> bool:
        return self.brought_forward + sum((r.amount for r in self.rows), ZERO) == (
            self.carried_forward
        )

    @property
    def totals(self) -> tuple[Decimal, Decimal, Decimal]:
        """The play, fee and other columns summed."""
        return (
            sum((r.play for r in self.rows), ZERO),
            sum((r.fee for r in self.rows), ZERO),
            sum((r.other for r in self.rows), ZERO),
        )


def period_statement(member: Member, period: Period | None = None) -> PeriodStatement:
    """The member's statement over ``period`` (every date when None)."""
    period = period or Period()
    mine = dated_legs(period, up_to_end=True).filter(account__member=member)
    before = (
        mine.filter(day__lt=period.since).aggregate(s=Sum("amount"))["s"] if period.since else None
    )
    carried = mine.aggregate(s=Sum("amount"))["s"] or ZERO
    legs = mine.filter(day__gte=period.since) if period.since else mine
    evenings: dict[int, dict[str, Decimal]] = {}
    days: dict[int, dt.date] = {}
    rows: list[StatementRow] = []
    for day, kind, session_id, amount, memo in legs.order_by(
        "day", "posting__created_at", "posting_id"
    ).values_list("day", "posting__kind", "posting__session_id", "amount", "posting__memo"):
        if kind in (Posting.SESSION_BALANCE, Posting.FEE) and session_id is not None:
            cols = evenings.setdefault(session_id, {"play": ZERO, "fee": ZERO})
            cols["play" if kind == Posting.SESSION_BALANCE else "fee"] += amount
            days[session_id] = day
            continue
        label = dict(Posting._meta.get_field("kind").choices or []).get(kind, kind)
        rows.append(
            StatementRow(
                day=day, text=memo or str(label).capitalize(), other=amount, stored=bool(memo)
            )
        )
    sessions = ClubSession.objects.in_bulk(list(evenings))
    for session_id, cols in evenings.items():
        session = sessions[session_id]
        counted = staked(session.tables.all()).values("pk")
        points = WashbookEntry.objects.filter(
            member=member, line__table__in=counted, line__created_at__lte=session.balanced_at
        ).aggregate(s=Sum("points"))["s"] if session.balanced_at else None  # fmt: skip
        rows.append(
            StatementRow(
                day=days[session_id],
                text=session.title,
                evening=session,
                points=points or 0,
                play=cols["play"].quantize(CENT),
                fee=cols["fee"].quantize(CENT),
            )
        )
    rows.sort(key=lambda r: (r.day, r.evening is None, r.text))
    return PeriodStatement(
        member=member,
        period=period,
        brought_forward=(before or ZERO).quantize(CENT),
        rows=rows,
        carried_forward=carried.quantize(CENT),
    )
