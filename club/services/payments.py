"""Payments: a settlement's transfers paid (in full or in part), payments to the club
(refused above what the member owes it, unless kept as credit), refunds of a credit,
reversals of a payment recorded by mistake, and whom a member owes. Every posting goes
through the ledger (``ledger.post``), summing to zero."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Q, Sum
from django.utils.translation import gettext

from club.models import (
    Account,
    AuditEntry,
    ClubSession,
    Leg,
    Member,
    Posting,
    Transfer,
)
from club.services import audit
from club.services.base import Actor, ClubError, clean_reason
from club.services.ledger import CENT, CLUB, account_for, balance_of, post
from club.services.money import shown
from club.services.money import unit as money_unit


def record_payment(
    transfer_id: int,
    *,
    amount: Decimal | None = None,
    method: str = Posting.CASH,
    note: str = "",
    by: Actor = None,
) -> Transfer:
    """The secretary records that a settlement transfer has been paid (once), in cash or
    by bank. ``amount`` less than the transfer's: a part payment; the transfer is split
    into the part paid and an unpaid rest, which stays on the settlement (and on both
    members' balances) until it is paid in its turn. The audit log says so, with
    ``note``, in the same transaction (issue 80, item 3). Returns the transfer paid."""
    if method not in dict(Posting.METHODS):
        raise ClubError(gettext("a payment is made in cash or by bank transfer"))
    with transaction.atomic():
        # The evening first, then the transfer: the order a correction takes them in
        # (`correct_line` holds the evening, then `settle_again` the transfers), so the
        # two wait for each other instead of deadlocking.
        session_id = Transfer.objects.filter(pk=transfer_id).values_list("session_id", flat=True)
        if session_id:
            ClubSession.objects.select_for_update().filter(pk=session_id[0]).first()
        transfer = (
            Transfer.objects.select_for_update()
            .select_related("payer", "payee")
            .filter(pk=transfer_id)
            .first()
        )
        if transfer is None:
            raise ClubError(
                gettext(
                    "that transfer is no longer in the settlement: the evening was settled again after a correction; pay by the settlement as it is now"
                )
            )
        if transfer.payment_id:
            raise ClubError(gettext("that transfer is already recorded as paid"))
        paid = transfer.amount if amount is None else Decimal(amount)
        unit = money_unit()
        if paid <= 0 or paid > transfer.amount:
            raise ClubError(
                gettext("the amount paid is more than nothing and at most %(amount)s")
                % {"amount": shown(transfer.amount)}
            )
        if paid != paid.quantize(unit):
            raise ClubError(
                gettext("an amount is a whole number of %(shown)s") % {"shown": shown(unit)}
            )
        if paid < transfer.amount:  # a part payment: the rest stays to pay
            Transfer.objects.create(
                session_id=transfer.session_id,
                payer_id=transfer.payer_id,
                payee_id=transfer.payee_id,
                amount=transfer.amount - paid,
                adjustment_id=transfer.adjustment_id,
            )
            transfer.amount = paid
        posting = post(
            Posting.PAYMENT,
            {transfer.payer_id: paid, transfer.payee_id: -paid},
            session=transfer.session,
            memo=f"{transfer.payer} paid {transfer.payee} {shown(paid)} "
            f"{dict(Posting.METHODS)[method]}",
            method=method,
            by=by,
        )
        transfer.payment = posting
        transfer.save(update_fields=["payment", "amount"])
        audit.record(by, AuditEntry.PAYMENT, posting.memo, why=note, session=transfer.session)
    return transfer


def with_club(member_id: int) -> Decimal:
    """What stands between the member and the club: positive when the club owes him (he
    paid it more than his fees), negative when he owes it (fees not yet paid). Every
    posting with a leg on the club's account counts: fees, payments to the club, refunds
    and their reversals."""
    total = (
        Leg.objects.filter(account__member_id=member_id)
        .filter(posting__legs__account__is_club=True)
        .aggregate(s=Sum("amount"))["s"]
    )
    return (total or Decimal(0)).quantize(CENT)


@dataclass(frozen=True)
class FeeStanding:
    """One evening's table fee of a member and how much of it is paid (issue 81, item 4).
    Payments to the club are not made for one evening: they pay the oldest fees first, as
    a club's book of subscriptions does, so a fee is paid once what the member has paid
    the club (less refunds, with reversals) covers it and every fee before it."""

    session_id: int
    fee: Decimal  # charged, more than nothing
    paid: Decimal  # of it, from 0 to ``fee``

    @property
    def owed(self) -> Decimal:
        return self.fee - self.paid

    @property
    def state(self) -> str:
        """ "paid", "part paid" or "unpaid"."""
        if self.paid >= self.fee:
            return "paid"
        return "part paid" if self.paid else "unpaid"


def fee_standings(member_ids: list[int]) -> dict[int, list[FeeStanding]]:
    """Each member's table fees, oldest first, each with what of it is paid: the member's
    payments to the club, less refunds, with their reversals, laid on the fees in the
    order they were charged. A member's credit past his fees is left over, not shown."""
    legs = (
        Leg.objects.filter(account__member_id__in=member_ids)
        .filter(posting__legs__account__is_club=True)
        .order_by("posting__created_at", "posting_id")
        .values_list("account__member_id", "posting__kind", "posting__session_id", "amount")
    )
    fees: dict[int, list[tuple[int, Decimal]]] = {m: [] for m in member_ids}
    paid_in: dict[int, Decimal] = dict.fromkeys(member_ids, Decimal(0))
    for member, kind, session_id, amount in legs:
        if kind == Posting.FEE:
            fees[member].append((session_id, -amount))
        else:
            paid_in[member] += amount
    out: dict[int, list[FeeStanding]] = {}
    for member, charged in fees.items():
        left = max(paid_in[member], Decimal(0))
        rows = []
        for session_id, fee in charged:
            paid = min(fee, left)
            left -= paid
            rows.append(FeeStanding(session_id, fee, paid))
        out[member] = rows
    return out


def _lock_account(member_id: int) -> None:
    """Hold the member's account while a payment to or from the club is checked against
    what stands between them, so that two at once cannot both pass the check."""
    account_for(member_id)
    list(Account.objects.select_for_update().filter(member_id=member_id))


def _with_the_club(
    member_id: int, amount: Decimal, method: str, what: str
) -> tuple[Member, Decimal]:
    """The member and the amount of a payment to or from the club, checked: made in cash
    or by bank, more than nothing, in whole units of the club's money."""
    if method not in dict(Posting.METHODS):
        raise ClubError(
            gettext("%(what)s is made in cash or by bank transfer") % {"what": what}, field="method"
        )
    amount = Decimal(amount)
    unit = money_unit()
    if amount <= 0:
        raise ClubError(gettext("%(what)s is more than nothing") % {"what": what}, field="amount")
    if amount != amount.quantize(unit):
        raise ClubError(
            gettext("%(what)s is a whole number of %(shown)s")
            % {"what": what, "shown": shown(unit)},
            field="amount",
        )
    member = Member.objects.filter(pk=member_id, is_bot=False).first()
    if member is None:
        raise ClubError(gettext("no such member"))
    return member, amount


def record_club_payment(
    member_id: int,
    amount: Decimal,
    *,
    method: str = Posting.CASH,
    note: str = "",
    credit: bool = False,
    by: Actor = None,
) -> Posting:
    """A member paid the club (his table fees, or anything he owes it) in cash or by
    bank: the club's account is paid, his balance rises by ``amount``. More than he owes
    the club is refused, saying what he owes (a typing slip of £100,000 stayed in the
    books for good), unless ``credit`` says the rest is a credit on his account
    (issue 53, item 2)."""
    member, amount = _with_the_club(member_id, amount, method, "the amount paid")
    note = clean_reason(note)
    with transaction.atomic():
        _lock_account(member_id)
        owed = -with_club(member_id)
        if amount > owed and not credit:
            if owed > 0:
                raise ClubError(
                    gettext(
                        '%(member)s owes the club %(shown)s: a payment of %(shown2)s is more. Record what %(member)s owes, or tick "credit on account" to keep the rest as a credit the club owes %(member)s'
                    )
                    % {"member": member, "shown": shown(owed), "shown2": shown(amount)},
                    field="amount",
                )
            raise ClubError(
                gettext(
                    '%(member)s owes the club nothing: what %(member)s owes members is paid to them, by the settlement. Tick "credit on account" to keep this payment as a credit the club owes %(member)s'
                )
                % {"member": member},
                field="amount",
            )
        words = f"{member} paid the club {shown(amount)} {dict(Posting.METHODS)[method]}"
        if amount > owed:
            words += f" ({shown(amount - max(owed, Decimal(0)))} on account)"
        posting = post(
            Posting.PAYMENT,
            {member_id: amount, CLUB: -amount},
            memo=f"{words}: {note}" if note else words,
            method=method,
            by=by,
        )
        audit.record(by, AuditEntry.PAYMENT, posting.memo, why=note, session=posting.session)
        return posting


def record_refund(
    member_id: int,
    amount: Decimal,
    *,
    method: str = Posting.CASH,
    note: str = "",
    by: Actor = None,
) -> Posting:
    """The club pays a member back (issue 53, item 2): at most what it owes him (a credit
    on his account, from paying it more than his fees). His balance falls by ``amount``,
    the club's account rises."""
    member, amount = _with_the_club(member_id, amount, method, "a refund")
    note = clean_reason(note)
    with transaction.atomic():
        _lock_account(member_id)
        credit = with_club(member_id)
        if amount > credit:
            raise ClubError(
                gettext("the club owes %(member)s %(shown)s: a refund is at most that")
                % {"member": member, "shown": shown(max(credit, Decimal(0)))},
                field="amount",
            )
        words = f"The club refunded {member} {shown(amount)} {dict(Posting.METHODS)[method]}"
        posting = post(
            Posting.REFUND,
            {member_id: -amount, CLUB: amount},
            memo=f"{words}: {note}" if note else words,
            method=method,
            by=by,
        )
        audit.record(by, AuditEntry.REFUND, posting.memo, why=note)
        return posting


REVERSIBLE = (Posting.PAYMENT, Posting.REFUND)


def reverse_payment(posting_id: int, *, reason: str, by: Actor = None) -> Posting:
    """A payment (or refund) recorded by mistake is reversed, never edited (issue 53,
    item 2): a posting of the opposite legs, naming it, with the reason; the statement
    shows both. A payment of a settlement's transfer leaves the transfer unpaid again, on
    the settlement and on both balances. Once only."""
    reason = clean_reason(reason)
    if not reason:
        raise ClubError(gettext("say why the payment is reversed"), field="reason")
    with transaction.atomic():
        # The evening, then the transfer, as record_payment takes them.
        head = Posting.objects.filter(pk=posting_id).values_list("kind", "session_id").first()
        if head is None or head[0] not in REVERSIBLE:
            raise ClubError(gettext("only a payment or a refund is reversed"))
        if head[1] is not None:
            ClubSession.objects.select_for_update().filter(pk=head[1]).first()
        transfer = Transfer.objects.select_for_update().filter(payment_id=posting_id).first()
        payment = Posting.objects.select_for_update().get(pk=posting_id)
        if Posting.objects.filter(reverses_id=posting_id).exists():
            raise ClubError(gettext("that payment is already reversed"))
        legs = {
            (CLUB if leg.account.is_club else leg.account.member_id): -leg.amount
            for leg in payment.legs.select_related("account")
        }
        members = [m for m in legs if m != CLUB]
        for m in sorted(members):
            _lock_account(m)
        posting = post(
            Posting.REVERSAL,
            legs,
            session=payment.session,
            memo=f"Reversed: {payment.memo}"[:160] + f" (why: {reason})",
            method=payment.method,
            by=by,
            reverses=payment,
        )
        if transfer is not None:  # the transfer is owed again
            transfer.payment = None
            transfer.save(update_fields=["payment"])
        audit.record(by, AuditEntry.REVERSAL, posting.memo, why=reason, session=posting.session)
    return posting


@dataclass(frozen=True)
class Owing:
    """One line of what a member owes or is owed: ``amount`` positive when he is owed."""

    to: str  # the other member's name, "the club", or "" for the rest of his balance
    member: Member | None  # the other member; None for the club
    amount: Decimal
    session: ClubSession | None

    @property
    def size(self) -> Decimal:
        """The amount without its sign (the line says who pays)."""
        return abs(self.amount)


def owing(member_id: int) -> list[Owing]:
    """Whom the member owes and who owes him (issue 42, item 2): every unpaid transfer of
    a settlement he is in, by evening, and what stands between him and the club (fees
    less what he paid it). Anything of his balance those do not explain (a payment made
    beside the settlement) is the last line, naming nobody (``to`` is ""), so the lines
    always sum to his balance."""
    lines: list[Owing] = []
    unpaid = (
        Transfer.objects.filter(payment__isnull=True)
        .filter(Q(payer_id=member_id) | Q(payee_id=member_id))
        .select_related("payer", "payee", "session")
        .order_by("session__opened_at", "pk")
    )
    for t in unpaid:
        if t.payer_id == member_id:
            lines.append(Owing(t.payee.display_name, t.payee, -t.amount, t.session))
        else:
            lines.append(Owing(t.payer.display_name, t.payer, t.amount, t.session))
    club = with_club(member_id)
    if club:
        lines.append(Owing("the club", None, club, None))
    rest = balance_of(member_id) - sum((o.amount for o in lines), Decimal(0))
    if rest:
        lines.append(Owing("", None, rest, None))
    return lines
