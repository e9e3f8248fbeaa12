"""Money: the settlement, payments (on the settlement, from a member's page, to the club), refunds, reversals, the standings."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import models
from django.db.models import F, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from club.members.views import member_detail
from club.models import (
    ClubSession,
    Member,
    Posting,
    Table,
    Transfer,
    WashbookEntry,
)
from club.money.forms import PaymentForm, RefundForm, ReversalForm, StandingsForm
from club.pages.inputs import parse_id
from club.pages.web import form_error, refused, session_or_404, staff_required
from club.services import ledger
from club.services import money as club_money
from club.services.accounts import dated_legs
from club.services.base import ClubError, member_for
from club.services.ledger import CENT, RECORDED_KINDS, session_money, staked_tables
from club.services.payments import (
    REVERSIBLE,
    fee_standings,
    record_club_payment,
    record_payment,
    record_refund,
    reverse_payment,
    with_club,
)


@login_required
def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
    # The balancing's transfers, then each adjustment's in the order they were posted.
    transfers = list(
        session.transfers.select_related("payer", "payee", "payment", "adjustment").order_by(
            F("adjustment_id").asc(nulls_first=True), "-amount", "pk"
        )
    )
    money = session_money(session.pk)
    members = Member.objects.in_bulk(list(money))
    rows = sorted(((members[m], a) for m, a in money.items()), key=lambda r: -r[1])
    paid = sum(1 for t in transfers if t.paid)
    # Counted from the transfers as they stand (a correction settles the evening again),
    # each count saying what it counts (issue 56: "3 staked tables" where one produced
    # money): the staked tables, those whose deals moved money, the members it moved.
    staked = staked_tables(session.pk)
    moved = (
        WashbookEntry.objects.filter(line__table_id__in=staked)
        .exclude(points=0)
        .values("line__table_id")
        .distinct()
        .count()
    )
    winners = sum(1 for a in money.values() if a)
    header = ngettext("%(count)s staked table", "%(count)s staked tables", len(staked)) % {
        "count": len(staked)
    }
    if moved != len(staked):
        header += " " + gettext("(%(count)s with points won and lost)") % {"count": moved}
    header += "; " + ngettext(
        "%(count)s member won or lost money", "%(count)s members won or lost money", winners
    ) % {"count": winners}
    header += ": " + ngettext("%(count)s transfer", "%(count)s transfers", len(transfers)) % {
        "count": len(transfers)
    }
    if paid:
        header += ", " + gettext("%(count)s paid") % {"count": paid}
    # The table fees each member owes the club (issue 56: the settlement did not list
    # them): their own lines, apart from what members pay each other.
    due = ledger.fees_due(session)
    staff = bool(request.user.is_staff)
    if not staff:  # issue 79: a member sees their own fee, never another's
        me = member_for(request.user)
        due = {m: fee for m, fee in due.items() if me is not None and m == me.pk}
    payers = Member.objects.in_bulk(list(due))
    # Each fee as that evening's truth (issue 81, item 4: "Owed now" was today's total
    # across evenings): paid, part paid or unpaid, payments laid on the oldest fees first.
    standings = fee_standings(list(due))
    fees = [
        (
            payers[m],
            fee,
            next((f for f in standings[m] if f.session_id == session.pk), None),
            max(Decimal(0), -with_club(m)),
        )
        for m, fee in sorted(due.items(), key=lambda kv: payers[kv[0]].display_name)
    ]
    return render(
        request,
        "club/money/settlement.html",
        {
            "session": session,
            "header": header,
            "transfers": transfers,
            "money": rows,
            "fees": fees,
            "staff": staff,
            "adjusted": any(t.adjustment_id for t in transfers),
        },
    )


@staff_required
@require_POST
def transfer_pay(request: HttpRequest, pk: int) -> HttpResponse:
    # The transfer may have gone since the page was shown (settled again after a
    # correction): the form names its evening, so the refusal can lead back to it.
    session_id = Transfer.objects.filter(pk=pk).values_list("session_id", flat=True).first()
    if session_id is None:
        given = request.POST.get("session", "")
        session_id = session_or_404(parse_id(given) or 0).pk
    back = reverse("club:settlement", args=[session_id])
    if request.POST.get("back") == "owed":  # marked paid on "Who owes what"
        back = reverse("club:owed")
    try:
        amount = request.POST.get("amount", "").strip()
        transfer = record_payment(
            pk,
            amount=club_money.check_amount(amount, field="amount", what=gettext("the amount paid"))
            if amount
            else None,
            method=request.POST.get("method", Posting.CASH),
            by=request.user,
        )
    except ClubError as e:
        return refused(request, e, back)
    assert transfer.payment is not None
    # Confirmed where it was made (issue 56: a part payment showed nothing), with what is
    # left to pay.
    left = Transfer.objects.filter(
        session_id=transfer.session_id, payer_id=transfer.payer_id,
        payee_id=transfer.payee_id, payment=None,
    ).aggregate(s=Sum("amount"))["s"]  # fmt: skip
    said = gettext("Recorded: %(what)s.") % {"what": transfer.payment.memo}
    if left:
        said += " " + gettext("%(amount)s is still to pay.") % {
            "amount": club_money.shown_to_reader(left)
        }
    messages.success(request, said)
    return redirect(back)


@staff_required
@require_POST
def member_payment(request: HttpRequest, pk: int) -> HttpResponse:
    """The secretary records a payment the member made, in cash or by bank: to a member
    he owes (a settlement's transfer, in full or in part) or to the club. A refusal is
    shown beside its field on the member's page; nothing changes."""
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    form = PaymentForm(request.POST, member=member)
    if form.is_valid():
        to, amount = form.cleaned_data["to"], form.cleaned_data["amount"]
        method, note = form.cleaned_data["method"], form.cleaned_data["note"]
        try:
            if to == "club":
                record_club_payment(
                    member.pk,
                    amount,
                    method=method,
                    note=note,
                    credit=form.cleaned_data["credit"],
                    by=request.user,
                )
            else:
                record_payment(
                    int(to[1:]), amount=amount, method=method, note=note, by=request.user
                )
        except ClubError as e:
            form_error(form, e)
        else:
            messages.success(
                request,
                gettext("Recorded: %(member)s paid %(amount)s.")
                % {"member": member, "amount": club_money.shown_to_reader(amount)},
            )
            if request.POST.get("back") == "owed":  # marked paid on "Who owes what"
                return redirect("club:owed")
            return redirect("club:member", pk=member.pk)
    return member_detail(request, member.pk, payment_form=form)


@staff_required
@require_POST
def member_refund(request: HttpRequest, pk: int) -> HttpResponse:
    """The club pays the member back what it owes him (issue 53, item 2), at most his
    credit; a refusal is shown beside its field, nothing changes."""
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    form = RefundForm(request.POST)
    if form.is_valid():
        amount = form.cleaned_data["amount"]
        try:
            record_refund(
                member.pk,
                amount,
                method=form.cleaned_data["method"],
                note=form.cleaned_data["note"],
                by=request.user,
            )
        except ClubError as e:
            form_error(form, e)
        else:
            messages.success(
                request,
                gettext("Recorded: the club paid %(member)s %(amount)s.")
                % {"member": member, "amount": club_money.shown_to_reader(amount)},
            )
            return redirect("club:member", pk=member.pk)
    return member_detail(request, member.pk, refund_form=form)


@staff_required
@require_POST
def payment_reverse(request: HttpRequest, pk: int) -> HttpResponse:
    """A payment or refund recorded by mistake is reversed with a reason (issue 53, item
    2): the opposite posting, audited; the statement shows both. Back to the member's
    page (the payer's for a payment between members)."""
    posting = get_object_or_404(Posting.objects.filter(kind__in=REVERSIBLE), pk=pk)
    member_id = (
        posting.legs.filter(account__member__isnull=False)
        .order_by("-amount")
        .values_list("account__member_id", flat=True)
        .first()
    )
    back = reverse("club:member", args=[member_id]) if member_id else reverse("club:home")
    form = ReversalForm(request.POST)
    if not form.is_valid():
        return refused(request, form.errors["reason"][0], back)
    try:
        reverse_payment(posting.pk, reason=form.cleaned_data["reason"], by=request.user)
    except ClubError as e:
        return refused(request, e, back)
    messages.success(request, gettext("Reversed: %(what)s.") % {"what": posting.memo})
    return redirect(back)


# Money paid between a member and anyone, as against money won or charged: what the
# standings' "Payments" column sums, on the day it was paid.
PAYMENT_KINDS = RECORDED_KINDS


@login_required
def standings(request: HttpRequest) -> HttpResponse:
    """Members' points from closed sessions at the tables balancing counts (never an
    open, cancelled or voided evening; never a voided table, a practice table or one a
    computer player sat at: `ledger.staked`), between two dates if asked; the secretary
    and other staff are left out, guests are in (with their fees). A bad date is shown
    beside its field and the standings stay unfiltered."""
    form = StandingsForm(request.GET or None)
    counted = ledger.staked(
        Table.objects.filter(session__isnull=False).exclude(
            session__status__in=[ClubSession.OPEN, ClubSession.CANCELLED, ClubSession.VOIDED]
        )
    )
    entries = WashbookEntry.objects.filter(
        line__table__in=counted.values("pk"), member__is_bot=False
    )
    entries = _between(entries, form, "line__table__session__opened_at__date")
    points = dict(
        entries.values_list("member").annotate(p=Sum("points")).values_list("member", "p")
    )
    # Money beside points (issue 42, item 4): what play brought (the evenings' balancing
    # and adjustments, over the same dates), the fees, the payments made and received.
    # A payment counts on the day it was made (a payment to the club has no evening at
    # all, and dropped out of a dated view); play and fees on their evening's day. Over a
    # period, what stood before it is brought forward and each row adds up to the balance
    # at the period's end (issue 81: £1.95 from the month before was outside the range).
    period = form.period()
    upto = dated_legs(period, up_to_end=True).filter(account__member__isnull=False)
    legs = upto.filter(day__gte=period.since) if period.since else upto
    money: dict[tuple[int, str], Decimal] = {
        (m, kind): total
        for m, kind, total in legs.values_list("account__member_id", "posting__kind")
        .annotate(total=Sum("amount"))
        .values_list("account__member_id", "posting__kind", "total")
    }
    before = (
        dict(
            upto.filter(day__lt=period.since)
            .values_list("account__member_id")
            .annotate(s=Sum("amount"))
            .values_list("account__member_id", "s")
        )
        if period.since
        else {}
    )
    ends = dict(
        upto.values_list("account__member_id")
        .annotate(s=Sum("amount"))
        .values_list("account__member_id", "s")
    )

    def kinds(member_id: int, *names: str) -> Decimal:
        return sum((money.get((member_id, k), Decimal(0)) for k in names), Decimal("0.00"))

    rows = [
        Standing(
            member=m,
            points=points.get(m.pk, 0),
            brought_forward=(before.get(m.pk) or Decimal(0)).quantize(CENT),
            play=kinds(m.pk, Posting.SESSION_BALANCE, Posting.ADJUSTMENT),
            fees=kinds(m.pk, Posting.FEE),
            payments=kinds(m.pk, *PAYMENT_KINDS),
            balance=(ends.get(m.pk) or Decimal(0)).quantize(CENT),
        )
        # guests too (issue 81: left out, the fees column came to less than was charged)
        for m in Member.objects.filter(is_bot=False, user__is_staff=False).filter(
            Q(active=True) | Q(pk__in=list(ends))
        )
    ]
    rows.sort(key=lambda r: (-r.points, r.member.display_name))
    # The ranking is the members'; guests are listed apart, unranked, so that the money
    # columns hold everything charged (issue 81: the fees column came to less).
    guests = [r for r in rows if r.member.is_guest]
    rows = [r for r in rows if not r.member.is_guest]
    # Who sees whose money (issue 53, item 6): the points and the money they came to are
    # the club's, open to members; a member's fees, payments and balance are his own and
    # the staff's.
    me = member_for(request.user)
    private = {
        r.member.pk
        for r in rows
        if not request.user.is_staff and (me is None or me.pk != r.member.pk)
    }
    status = 400 if form.is_bound and not form.is_valid() else 200
    dated = form.is_bound and form.is_valid() and any(form.cleaned_data.values())
    return render(
        request,
        "club/money/standings.html",
        {"rows": rows, "guests": guests, "form": form, "dated": dated, "private": private},
        status=status,
    )


def _between[M: models.Model](
    rows: models.QuerySet[M], form: StandingsForm, date: str
) -> models.QuerySet[M]:
    """``rows`` whose evening's ``date`` lies between the form's dates, when it has any."""
    if form.is_bound and form.is_valid():
        since, until = form.cleaned_data["since"], form.cleaned_data["until"]
        if since:
            rows = rows.filter(**{f"{date}__gte": since})
        if until:
            rows = rows.filter(**{f"{date}__lte": until})
    return rows


@dataclass(frozen=True)
class Standing:
    """A row of the standings: points and the money they came to, side by side, so that
    a member on top of the points with a balance below nothing is explained (fees, or
    payments he received)."""

    member: Member
    points: int
    play: Decimal  # money from play: balancing and adjustments
    fees: Decimal  # table fees (negative)
    payments: Decimal  # paid (positive) less received (negative)
    balance: Decimal  # at the period's end (now, when it has none)
    brought_forward: Decimal = Decimal("0.00")  # what stood before the period

    @property
    def adds_up(self) -> bool:
        return self.brought_forward + self.play + self.fees + self.payments == self.balance
