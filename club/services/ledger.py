"""Money: the double-entry ledger, balancing a closed session exactly once, payments.

Sign: a member's balance is what the club's books say he is owed — positive when he has
won more than he has been paid, negative when he owes. Every posting's legs sum to zero
(checked here and by the database: see club/models.py).

Rounding rule (points → money): a stake is a whole number of the club currency's smallest
unit (``money.check_stake``), so ``points × stake`` is exact and nothing is rounded. For an
evening staked before that rule (at four decimal places), each member's exact amount is
rounded to the unit (the cent) with ROUND_HALF_EVEN; whatever that leaves over (a few cents, so that the money
would not sum to zero) is handed out one cent at a time to the members whose rounding
moved them furthest in the other direction — the largest remainders first, ties broken
by member id — so the session's money sums exactly to zero and nobody is more than one
cent from his exact amount.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db import transaction
from django.db.models import Case, Count, F, Q, QuerySet, Sum, When
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext

from club.models import (
    Account,
    Arrival,
    AuditEntry,
    ClubSession,
    Leg,
    Member,
    Posting,
    Table,
    Transfer,
    WashbookEntry,
    WashbookLine,
)
from club.money import settlement as settle_algo
from club.services import audit
from club.services import money as club_money
from club.services.base import Actor, ClubError, clean_reason, counted, recorded_user
from club.services.money import unit as money_unit

logger = logging.getLogger(__name__)
CENT = Decimal("0.01")  # the ledger's columns: two decimal places (money.unit() is one or coarser)


CLUB = 0  # the key of the club's own account in a posting's legs (member ids start at 1)


def account_for(member: Member | int) -> Account:
    member_id = member if isinstance(member, int) else member.pk
    if member_id == CLUB:
        return club_account()
    account, _ = Account.objects.get_or_create(member_id=member_id)
    return account


def club_account() -> Account:
    """The club's own account: table fees are owed to it, and members pay it (issue 42)."""
    account, _ = Account.objects.get_or_create(is_club=True, defaults={"member": None})
    return account


def post(
    kind: str,
    legs: dict[int, Decimal],
    *,
    session: ClubSession | None = None,
    memo: str = "",
    method: str = "",
    by: Actor = None,
    reverses: Posting | None = None,
) -> Posting:
    """Write a posting with one leg per member id, or `CLUB` for the club's own account
    (amounts in whole units of the club's money, summing to zero)."""
    legs = {m: Decimal(a) for m, a in legs.items() if Decimal(a) != 0}
    unit = money_unit()
    if any(a != a.quantize(unit) for a in legs.values()):
        raise ClubError(
            gettext("amounts are whole cents (whole units of %(unit)s)") % {"unit": unit}
        )
    if sum(legs.values(), Decimal(0)) != 0:
        raise ClubError(gettext("a posting's legs must sum to zero"))
    with transaction.atomic():
        posting = Posting.objects.create(
            kind=kind,
            session=session,
            memo=memo[:200],
            method=method,
            created_by=recorded_user(by),
            reverses=reverses,
        )
        members = [m for m in legs if m != CLUB]
        accounts = {a.member_id: a for a in Account.objects.filter(member_id__in=members)}
        missing = [m for m in members if m not in accounts]
        if missing:
            Account.objects.bulk_create([Account(member_id=m) for m in missing])
            accounts = {a.member_id: a for a in Account.objects.filter(member_id__in=members)}
        if CLUB in legs:
            accounts[CLUB] = club_account()
        Leg.objects.bulk_create(
            [Leg(posting=posting, account=accounts[m], amount=a) for m, a in legs.items()]
        )
        _seal(posting)
        _update_cached_balances(accounts, legs)
    return posting


def _seal(posting: Posting) -> None:
    Posting.objects.filter(pk=posting.pk).update(sealed=True)
    posting.sealed = True


def _update_cached_balances(accounts: dict[int, Account], legs: dict[int, Decimal]) -> None:
    for member_id, amount in legs.items():
        Account.objects.filter(pk=accounts[member_id].pk).update(balance=F("balance") + amount)


def balance_of(member: Member | int) -> Decimal:
    """The member's balance derived from the ledger (the legs), not from the cache."""
    member_id = member if isinstance(member, int) else member.pk
    legs = Leg.objects.filter(
        Q(account__is_club=True) if member_id == CLUB else Q(account__member_id=member_id)
    )
    total = legs.aggregate(s=Sum("amount"))["s"]
    return (total or Decimal(0)).quantize(CENT)


def verify_balances() -> list[tuple[int, Decimal, Decimal]]:
    """Accounts whose cached balance differs from their legs: (member id, cached, derived)."""
    derived = Account.objects.annotate(derived=Sum("legs__amount")).values_list(
        "member_id", "balance", "derived"
    )
    return [
        (m, cached, (d or Decimal(0))) for m, cached, d in derived if cached != (d or Decimal(0))
    ]


def money_from_points(points: dict[int, int], stake: Decimal) -> dict[int, Decimal]:
    """Convert net points to money at ``stake`` per point (see the module's rounding rule).

    >>> money_from_points({1: 1, 2: 1, 3: -2}, Decimal("0.005"))  # half-even → 0.00
    {1: Decimal('0.01'), 2: Decimal('0.00'), 3: Decimal('-0.01')}
    """
    if sum(points.values()) != 0:
        raise ClubError(gettext("net points do not sum to zero"))
    unit = money_unit()
    exact = {m: Decimal(p) * stake for m, p in points.items()}
    money = {m: e.quantize(unit, rounding=ROUND_HALF_EVEN) for m, e in exact.items()}
    left = -sum(money.values(), Decimal(0))  # a multiple of one unit
    step = unit if left > 0 else -unit
    residual = {m: exact[m] - money[m] for m in money}  # what rounding took away (or gave)
    if left > 0:  # cents to give: to those rounded down the most
        order = sorted(money, key=lambda m: (-residual[m], m))
    else:  # cents to take: from those rounded up the most
        order = sorted(money, key=lambda m: (residual[m], m))
    i = 0
    while left != 0:
        m = order[i % len(order)]
        money[m] += step
        left -= step
        i += 1
    return money


# --- Balancing a session ------------------------------------------------------------------


@dataclass(frozen=True)
class BalanceResult:
    session_id: int
    posted: bool
    status: str
    note: str = ""


def staked(tables: QuerySet[Table]) -> QuerySet[Table]:
    """Of ``tables``, those that count for money: no practice table, no voided table, and
    no table a bot ever sat at (formed with one, seated now, or in a line; a tableau has
    no entries to show it). The one rule: balancing and the standings both use it."""
    return (
        tables.filter(is_practice=False, had_computer_players=False, voided_at__isnull=True)
        .annotate(
            bots=Count("seats", filter=Q(seats__member__is_bot=True), distinct=True)
            + Count("lines__entries", filter=Q(lines__entries__member__is_bot=True), distinct=True)
        )
        .filter(bots=0)
    )


def staked_tables(session_id: int) -> list[int]:
    """The evening's tables that count for money (see :func:`staked`)."""
    return list(staked(Table.objects.filter(session_id=session_id)).values_list("pk", flat=True))


def proof_failures(table_ids: list[int]) -> list[int]:
    """Lines whose entries do not sum to zero (the database forbids them; checked anyway)."""
    return list(
        WashbookLine.objects.filter(table_id__in=table_ids)
        .annotate(s=Sum("entries__points"))
        .exclude(s=0)
        .exclude(s=None)
        .values_list("pk", flat=True)
    )


def session_points(session_id: int) -> dict[int, int]:
    """Each member's net points over the session's staked tables."""
    rows = (
        WashbookEntry.objects.filter(line__table_id__in=staked_tables(session_id))
        .values("member_id")
        .annotate(p=Sum("points"))
    )
    return {r["member_id"]: int(r["p"]) for r in rows}


def _settle(
    session: ClubSession, money: dict[int, Decimal], *, adjustment: Posting | None = None
) -> settle_algo.Settlement[int]:
    """Write the transfers that clear ``money`` (the balancing's, or an adjustment's)."""
    unit = money_unit()
    result = settle_algo.settle({m: int(a / unit) for m, a in money.items()})
    Transfer.objects.bulk_create(
        [
            Transfer(
                session=session,
                payer_id=t.payer,
                payee_id=t.payee,
                amount=Decimal(t.amount) * unit,
                adjustment=adjustment,
            )
            for t in result.transfers
        ]
    )
    return result


def balance_session(session_id: int) -> BalanceResult:
    """Balance a closed session, exactly once.

    In one transaction: claim the session (closing → balancing, a conditional UPDATE: a
    second worker or a repeated run claims nothing and returns), check every washbook
    proves, convert net points to money, write the balance posting (unique per session),
    the settlement's transfers, and mark the session balanced. Any exception rolls back
    all of it, the claim included, so a crash halfway posts nothing and a later run can
    balance the session.
    """
    with transaction.atomic():
        claimed = ClubSession.objects.filter(pk=session_id, status=ClubSession.CLOSING).update(
            status=ClubSession.BALANCING
        )
        if not claimed:
            status = (
                ClubSession.objects.filter(pk=session_id).values_list("status", flat=True).first()
            )
            return BalanceResult(session_id, False, status or "missing", "not claimed")
        session = ClubSession.objects.get(pk=session_id)
        tables = staked_tables(session_id)
        bad = proof_failures(tables)
        points = session_points(session_id)
        if bad or sum(points.values()) != 0:
            note = f"washbook does not prove (lines {bad})"
            ClubSession.objects.filter(pk=session_id).update(
                status=ClubSession.FAILED, balance_note=note
            )
            logger.error("session %s: %s", session_id, note)
            return BalanceResult(session_id, False, ClubSession.FAILED, note)
        money = money_from_points(points, session.stake)
        post(
            Posting.SESSION_BALANCE,
            money,
            session=session,
            memo=f"{session}: {sum(p for p in points.values() if p > 0)} points won at {session.stake}",
        )
        result = _settle(session, money)
        charge_fees(session)
        note = (
            f"{counted(len(tables), 'staked table')}, {counted(len(money), 'member')}, "
            f"{counted(len(result.transfers), 'transfer')}"
        )
        ClubSession.objects.filter(pk=session_id).update(
            status=ClubSession.BALANCED,
            balanced_at=timezone.now(),
            balance_note=note,
            settlement_method=result.method,
        )
        # the balancing finished, in the log beside "closed and queued its balancing"
        # (issue 81: only the queueing was recorded)
        audit.record(None, AuditEntry.BALANCED, f"Balanced {session}: {note}.", session=session)
    return BalanceResult(session_id, True, ClubSession.BALANCED, note)


def fees_due(session: ClubSession) -> dict[int, Decimal]:
    """Each member's table fee for the evening (issue 42, item 3): everyone checked in who
    is not a computer player, a guest at the guest's fee, a member at the member's; none
    for a member whose fee the secretary waived (:func:`waive_fee`)."""
    arrivals = session.arrivals.filter(member__is_bot=False, fee_waived=False).values_list(
        "member_id", "member__is_guest"
    )
    fees = {m: session.fee_for(guest) for m, guest in arrivals}
    return {m: f for m, f in fees.items() if f}


FEES_OPEN = (ClubSession.OPEN, ClubSession.CLOSING, ClubSession.FAILED)


def waive_fee(
    session_id: int, member_id: int, *, waived: bool = True, why: str = "", by: Actor = None
) -> Arrival:
    """Waive a member's table fee for the evening, saying why (``waived=False`` charges it
    again). Fees are charged when the evening is balanced, so this is refused once it has
    been (or was cancelled or voided): the books are not rewritten; a refund is a payment.
    The evening's row is locked, as the balancing's claim takes it: a waiver and the
    balancing never overlap, and a waiver that came first is charged as such."""
    why = clean_reason(why)
    if waived and not why:
        raise ClubError(
            gettext("say why the fee is waived, e.g. “left before playing”"), field="why"
        )
    if len(why) > 200:
        raise ClubError(gettext("say why in at most 200 characters"), field="why")
    with transaction.atomic():
        session = ClubSession.objects.select_for_update().filter(pk=session_id).first()
        if session is None:
            raise ClubError(gettext("no such evening"))
        if session.status not in FEES_OPEN:
            raise ClubError(
                gettext(
                    "the evening is %(lower)s: its fees are no longer changed (a refund is recorded as a payment)"
                )
                % {"lower": session.get_status_display().lower()}
            )
        if not (session.fee_member or session.fee_guest):
            raise ClubError(gettext("the evening has no table fees"))
        arrival = (
            Arrival.objects.select_for_update()
            .filter(session=session, member_id=member_id, member__is_bot=False)
            .select_related("member")
            .first()
        )
        if arrival is None:
            raise ClubError(gettext("that member did not check in this evening"))
        if arrival.fee_waived == waived:
            raise ClubError(
                gettext("%(member)s's fee is %(already_waived_if_waived_else_charged_already)s")
                % {
                    "member": arrival.member,
                    "already_waived_if_waived_else_charged_already": "already waived"
                    if waived
                    else "charged already",
                }
            )
        arrival.fee_waived = waived
        arrival.fee_waived_why = why if waived else ""
        arrival.save(update_fields=["fee_waived", "fee_waived_why"])
        logger.info(
            "session %s: fee of member %s %s by %s",
            session_id, member_id, "waived" if waived else "charged", recorded_user(by),
        )  # fmt: skip
        fee = club_money.shown(arrival.session.fee_for(arrival.member.is_guest))
        what = f"{arrival.member.display_name}'s table fee ({fee}) " + (
            "waived" if waived else "charged again"
        )
        audit.record(by, AuditEntry.FEE, what, why=why, session=arrival.session)
    return arrival


def charge_fees(session: ClubSession) -> Posting | None:
    """Post the evening's table fees as one posting of its own kind (unique per session:
    the balancing charges them exactly once): each member owes the club his fee."""
    fees = fees_due(session)
    if not fees:
        return None
    total = sum(fees.values(), Decimal(0))
    legs: dict[int, Decimal] = {m: -f for m, f in fees.items()}
    legs[CLUB] = total
    return post(
        Posting.FEE,
        legs,
        session=session,
        memo=f"{session}: table fees, {counted(len(fees), 'player')}",
    )


def adjust(session: ClubSession, points: dict[int, int], *, memo: str, by: Actor = None) -> Posting:
    """Post an adjustment to a balanced session's money: ``points`` is each member's change
    in points (summing to zero, only members it changes), converted at the session's stake
    by the module's rounding rule, so its legs sum to zero and nobody else's balance moves;
    then the transfers that settle it are added to the session's settlement. The caller
    holds the session row (see `correct_line`)."""
    if session.status != ClubSession.BALANCED:
        raise ClubError(gettext("only a balanced evening's money is adjusted"))
    money = money_from_points(points, session.stake)
    posting = post(Posting.ADJUSTMENT, money, session=session, memo=memo, by=by)
    settle_again(session, after=posting)
    logger.info("session %s adjusted: %s", session.pk, memo)
    return posting


def outstanding(session_id: int) -> dict[int, Decimal]:
    """What each member still has to pay (negative) or be paid (positive) for the evening:
    its money (the balancing and every adjustment) less the transfers already paid."""
    rest = defaultdict(Decimal, session_money(session_id))
    for payer, payee, amount in Transfer.objects.filter(
        session_id=session_id, payment__isnull=False
    ).values_list("payer_id", "payee_id", "amount"):
        rest[payer] += amount
        rest[payee] -= amount
    return {m: a for m, a in rest.items() if a}


def settle_again(session: ClubSession, *, after: Posting) -> settle_algo.Settlement[int]:
    """Issue 42, item 5: after an adjustment the evening's unpaid transfers are settled
    again as one set, the fewest that clear what is still owed (:func:`outstanding`), so
    a correction never leaves "Gus pays Dan" beside "Dan pays Carol". Transfers already
    paid stay as they were. The new set names the adjustment it follows. The caller holds
    the session row; the transfers are locked here, so a payment being recorded waits
    and then finds its transfer settled again (`record_payment` says so)."""
    unpaid = Transfer.objects.select_for_update().filter(session=session, payment__isnull=True)
    list(unpaid)  # lock them before reading what is owed
    rest = outstanding(session.pk)
    unpaid.delete()
    result = _settle(session, rest, adjustment=after)
    ClubSession.objects.filter(pk=session.pk).update(settlement_method=result.method)
    session.settlement_method = result.method
    return result


# Kinds dated by the day they were recorded (they belong to no evening, or not only); the
# others (an evening's balancing, its fees, an adjustment to it) by their evening's day,
# so that an evening entered after the fact takes its place in the books (issue 81).
RECORDED_KINDS = (Posting.PAYMENT, Posting.REVERSAL, Posting.REFUND)


def posting_day(prefix: str = "posting__") -> Case:
    """The day a posting belongs to, as a database expression (``prefix``: the path from
    the rows queried to the posting)."""
    return Case(
        When(**{f"{prefix}kind__in": RECORDED_KINDS}, then=TruncDate(f"{prefix}created_at")),
        default=TruncDate(f"{prefix}session__opened_at"),
    )


def member_history(member_id: int) -> list[tuple[Posting, Decimal, Decimal]]:
    """(posting, this member's amount, running balance) in the order of the days the
    postings belong to (:func:`posting_day`, kept on each as ``posting.day``), then as
    recorded, from the legs."""
    legs = (
        Leg.objects.filter(account__member_id=member_id)
        .select_related("posting", "posting__session")
        .annotate(day=posting_day())
        .order_by("day", "posting__created_at", "posting_id")
    )
    running = Decimal(0)
    out = []
    for leg in legs:
        running += leg.amount
        leg.posting.day = leg.day
        out.append((leg.posting, leg.amount, running))
    return out


def session_money(session_id: int) -> dict[int, Decimal]:
    """Each member's money from the session: its balance posting and any adjustments
    posted after it (lines corrected later)."""
    sums: dict[int, Decimal] = defaultdict(Decimal)
    for member_id, amount in Leg.objects.filter(
        posting__session_id=session_id,
        posting__kind__in=(Posting.SESSION_BALANCE, Posting.ADJUSTMENT),
    ).values_list("account__member_id", "amount"):
        sums[member_id] += amount
    return dict(sums)


def carried_words(members: Any) -> dict[int, str]:
    """What each of ``members`` brings from past evenings, in words, where their balance is
    not nil: "owes £0.30" (unpaid: carried until paid), "is owed £1.20" (issue 42, item 2)."""
    balances = Account.objects.filter(member__in=members).exclude(balance=0)
    return {
        m: (
            gettext("owes %(amount)s") % {"amount": club_money.shown_to_reader(-b)}
            if b < 0
            else gettext("is owed %(amount)s") % {"amount": club_money.shown_to_reader(b)}
        )
        for m, b in balances.values_list("member_id", "balance")
    }
