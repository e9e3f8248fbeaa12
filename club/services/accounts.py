"""The treasurer's reports (issue 81): the club's own account over a period, each member's
balance in its two parts (with other members, with the club), and who owes what, oldest
first. Every figure is summed by the database from the ledger's legs, or laid out here
from them; money is ``Decimal`` throughout and nothing is computed in a template.

A posting is dated as the standings date it: play, adjustments and fees on their
evening's opening day, payments, refunds and reversals on the day they were recorded."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import models
from django.db.models import Q, Sum
from django.utils.formats import date_format
from django.utils.translation import gettext

from club.models import Account, Arrival, ClubSession, Leg, Member, Posting, Transfer
from club.services.ledger import CENT, posting_day
from club.services.payments import FeeStanding, fee_standings

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Period:
    """From ``since`` to ``until``, both days included; None: open on that side."""

    since: dt.date | None = None
    until: dt.date | None = None

    def __str__(self) -> str:
        """The period in the reader's language, its days in his format (issue 82)."""
        since = date_format(self.since, "j M Y") if self.since else ""
        until = date_format(self.until, "j M Y") if self.until else ""
        if self.since and self.until:
            return gettext("%(since)s to %(until)s") % {"since": since, "until": until}
        if self.since:
            return gettext("since %(since)s") % {"since": since}
        if self.until:
            return gettext("up to %(until)s") % {"until": until}
        return gettext("every date")


def dated_legs(period: Period, *, up_to_end: bool = False) -> models.QuerySet[Leg]:
    """The legs of the postings dated in ``period`` (``up_to_end``: every posting up to its
    end, for a balance as it stood then)."""
    legs = Leg.objects.annotate(day=posting_day())
    if period.since and not up_to_end:
        legs = legs.filter(day__gte=period.since)
    if period.until:
        legs = legs.filter(day__lte=period.until)
    return legs


def _sum(legs: models.QuerySet[Leg]) -> Decimal:
    return (legs.aggregate(s=Sum("amount"))["s"] or ZERO).quantize(CENT)


@dataclass(frozen=True)
class MemberBalance:
    """A member's balance at the end of a period, in its two parts."""

    member: Member
    with_members: Decimal  # positive: other members owe him (points, transfers)
    with_club: Decimal  # positive: the club owes him (a credit); negative: fees unpaid

    @property
    def balance(self) -> Decimal:
        return self.with_members + self.with_club


@dataclass(frozen=True)
class ClubAccount:
    """The club's account over a period (issue 81, item 1)."""

    period: Period
    fees_charged: Decimal  # table fees charged at evenings in the period
    fees_waived: Decimal  # the fees the secretary waived at those evenings
    received: Decimal  # paid to the club in the period, less reversals of such payments
    refunded: Decimal  # paid back by the club in the period, less reversals of refunds
    transfers_paid: Decimal  # between members, at evenings in the period, paid
    transfers_unpaid: Decimal  # the same, still to pay
    members: list[MemberBalance]  # at the end of the period, every member with money
    club_balance: Decimal  # the club's own account at the end of the period

    @property
    def owed_to_club(self) -> Decimal:
        return sum((-m.with_club for m in self.members if m.with_club < 0), ZERO)

    @property
    def owed_by_club(self) -> Decimal:
        return sum((m.with_club for m in self.members if m.with_club > 0), ZERO)

    @property
    def members_total(self) -> Decimal:
        return sum((m.balance for m in self.members), ZERO)

    @property
    def with_members_total(self) -> Decimal:
        return sum((m.with_members for m in self.members), ZERO)

    @property
    def with_club_total(self) -> Decimal:
        return sum((m.with_club for m in self.members), ZERO)

    @property
    def adds_to_zero(self) -> bool:
        return self.members_total + self.club_balance == 0


def member_balances(period: Period | None = None) -> list[MemberBalance]:
    """Every member with a leg by the period's end (guests too), his balance then in its
    two parts: the legs of postings that touch the club's account are with the club."""
    period = period or Period()
    legs = dated_legs(period, up_to_end=True).filter(account__member__isnull=False)
    club_postings = Leg.objects.filter(account__is_club=True).values("posting_id")
    rows = legs.values("account__member_id").annotate(
        total=Sum("amount"),
        club=Sum("amount", filter=Q(posting_id__in=club_postings)),
    )
    by_id = {r["account__member_id"]: r for r in rows}
    members = Member.objects.in_bulk(list(by_id))
    out = [
        MemberBalance(
            member=members[pk],
            with_members=((r["total"] or ZERO) - (r["club"] or ZERO)).quantize(CENT),
            with_club=(r["club"] or ZERO).quantize(CENT),
        )
        for pk, r in by_id.items()
    ]
    return sorted(out, key=lambda m: m.member.display_name.casefold())


def club_account(period: Period | None = None) -> ClubAccount:
    """The club's account over ``period``: fees charged, waived, received and refunded,
    transfers between members paid and unpaid, and every balance at the period's end,
    the members' and the club's adding up to zero."""
    period = period or Period()
    legs = dated_legs(period).filter(account__is_club=True)
    evenings = ClubSession.objects.filter(status=ClubSession.BALANCED)
    if period.since:
        evenings = evenings.filter(opened_at__date__gte=period.since)
    if period.until:
        evenings = evenings.filter(opened_at__date__lte=period.until)
    waived = Arrival.objects.filter(
        session__in=evenings, fee_waived=True, member__is_bot=False
    ).values_list("session__fee_member", "session__fee_guest", "member__is_guest")
    transfers = Transfer.objects.filter(session__in=evenings)
    paid = transfers.filter(payment__isnull=False).aggregate(s=Sum("amount"))["s"] or ZERO
    unpaid = transfers.filter(payment__isnull=True).aggregate(s=Sum("amount"))["s"] or ZERO
    # the club's legs: positive where the club is owed more (a fee), negative where it
    # received money (a payment) or owes more (a refund paid out raises it back)
    received = -_sum(
        legs.filter(posting__kind=Posting.PAYMENT, posting__transfer__isnull=True)
    ) - _sum(legs.filter(posting__kind=Posting.REVERSAL, posting__reverses__kind=Posting.PAYMENT))
    refunded = _sum(legs.filter(posting__kind=Posting.REFUND)) + _sum(
        legs.filter(posting__kind=Posting.REVERSAL, posting__reverses__kind=Posting.REFUND)
    )
    return ClubAccount(
        period=period,
        fees_charged=_sum(legs.filter(posting__kind=Posting.FEE)),
        fees_waived=sum((guest_fee if guest else fee for fee, guest_fee, guest in waived), ZERO),
        received=received,
        refunded=refunded,
        transfers_paid=paid.quantize(CENT),
        transfers_unpaid=unpaid.quantize(CENT),
        members=member_balances(period),
        club_balance=_sum(dated_legs(period, up_to_end=True).filter(account__is_club=True)),
    )


@dataclass(frozen=True)
class ClubDebt:
    """A fee not paid in full: the member, the evening, the fee and what is owed of it."""

    member: Member
    evening: ClubSession
    standing: FeeStanding


def unpaid_transfers() -> list[Transfer]:
    """Every transfer of a settlement not yet paid, across evenings, oldest first."""
    return list(
        Transfer.objects.filter(payment__isnull=True)
        .select_related("session", "payer", "payee")
        .order_by("session__opened_at", "session_id", "pk")
    )


def club_debts() -> list[ClubDebt]:
    """Every table fee not paid in full, oldest first (payments laid on the oldest fees
    first: :func:`~club.services.payments.fee_standings`)."""
    charged = (
        Account.objects.filter(
            member__isnull=False, legs__posting__kind=Posting.FEE, member__is_bot=False
        )
        .values_list("member_id", flat=True)
        .distinct()
    )
    standings = fee_standings(list(charged))
    owing = [(m, f) for m, rows in standings.items() for f in rows if f.owed > 0]
    members = Member.objects.in_bulk([m for m, _ in owing])
    evenings = ClubSession.objects.in_bulk([f.session_id for _, f in owing])
    debts = [ClubDebt(members[m], evenings[f.session_id], f) for m, f in owing]
    return sorted(debts, key=lambda d: (d.evening.opened_at, d.evening.pk, d.member.display_name))
