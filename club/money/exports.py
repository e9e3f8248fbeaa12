"""The ledger's records as CSV (issue 81, item 5): payments (with refunds and reversals),
table fees, and the settlements' transfers, over the club account page's period. Each
opens with a header row naming its columns and ends with a total row that proves what
must sum (a posting's legs, a fee posting against its members' fees)."""

from __future__ import annotations

import io
from decimal import Decimal

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import pgettext

from club.models import ClubSession, Leg, Posting, Transfer
from club.money.forms import StandingsForm
from club.pages.web import staff_required
from club.services import money as club_money
from club.services.accounts import ZERO, Period, dated_legs
from club.services.ledger import RECORDED_KINDS
from club.services.payments import fee_standings
from club.washbooks.books import SafeWriter

THE_CLUB = "the club"


@staff_required
def export(request: HttpRequest, what: str) -> HttpResponse:
    """``what``: payments, fees or transfers; over the period the query names."""
    writers = {"payments": payments_csv, "fees": fees_csv, "transfers": transfers_csv}
    if what not in writers:
        raise Http404("no such export")
    text = writers[what](StandingsForm(request.GET or None).period())
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    name = f"{what}-{timezone.localdate():%Y-%m-%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def payments_csv(period: Period) -> str:
    """Every payment, refund and reversal recorded in the period: who paid whom (a member
    or the club), how much, how, for which evening's transfer, and why; the total row
    proves that every posting's legs sum to zero."""
    out = io.StringIO()
    w = SafeWriter(out)
    sign = club_money.symbol()
    w.writerow(
        [
            pgettext("csv column", "recorded"),
            pgettext("csv column", "kind"),
            pgettext("csv column", "from"),
            pgettext("csv column", "to"),
            pgettext("csv column", "amount (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "method"),
            pgettext("csv column", "evening"),
            pgettext("csv column", "reverses"),
            pgettext("csv column", "memo"),
            pgettext("csv column", "posting"),
        ]
    )
    ids = (
        dated_legs(period)
        .filter(posting__kind__in=RECORDED_KINDS)
        .values_list("posting_id", flat=True)
        .distinct()
    )
    postings = (
        Posting.objects.filter(pk__in=ids)
        .select_related("session", "reverses")
        .prefetch_related("legs__account__member")
        .order_by("created_at", "pk")
    )
    total, legs_sum = ZERO, ZERO
    for p in postings:
        legs = list(p.legs.all())
        legs_sum += sum((leg.amount for leg in legs), ZERO)
        payer = next((leg for leg in legs if leg.amount > 0), None)
        payee = next((leg for leg in legs if leg.amount < 0), None)
        if payer is None or payee is None:
            continue

        def who(leg: Leg) -> str:
            return THE_CLUB if leg.account.is_club else leg.account.member.display_name

        transfer = getattr(p, "transfer", None)
        evening = p.session or (transfer.session if transfer else None)
        total += payer.amount
        w.writerow(
            [timezone.localtime(p.created_at).isoformat(timespec="seconds"),
             p.get_kind_display(), who(payer), who(payee), payer.amount,
             p.get_method_display() if p.method else "", str(evening or ""),
             p.reverses_id or "", p.memo, p.pk]
        )  # fmt: skip
    w.writerow(["total", "", "", "", total, "", "", "", f"legs sum to {legs_sum}", ""])
    return out.getvalue()


def fees_csv(period: Period) -> str:
    """Every table fee charged at an evening of the period: the member, whether a guest,
    the fee, what of it is paid (payments laid on the oldest fees first), what is owed;
    the total row proves the members' fees equal what the fee postings credit the club."""
    out = io.StringIO()
    w = SafeWriter(out)
    sign = club_money.symbol()
    w.writerow(
        [
            pgettext("csv column", "evening"),
            pgettext("csv column", "evening's date"),
            pgettext("csv column", "member"),
            pgettext("csv column", "guest"),
            pgettext("csv column", "fee (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "paid (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "owed (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "state"),
        ]
    )
    legs = (
        dated_legs(period)
        .filter(posting__kind=Posting.FEE)
        .select_related("account__member", "posting__session")
        .order_by("posting__session__opened_at", "posting_id", "account__member__display_name")
    )
    mine = [leg for leg in legs if leg.account.member_id is not None]
    club = sum((leg.amount for leg in legs if leg.account.is_club), ZERO)
    standings = fee_standings(list({leg.account.member_id for leg in mine}))
    fees = paid = ZERO
    for leg in mine:
        session: ClubSession = leg.posting.session
        standing = next(
            (f for f in standings[leg.account.member_id] if f.session_id == session.pk), None
        )
        fee = -leg.amount
        fees += fee
        paid += standing.paid if standing else ZERO
        w.writerow(
            [str(session), timezone.localdate(session.opened_at).isoformat(),
             leg.account.member.display_name, "yes" if leg.account.member.is_guest else "no",
             fee, standing.paid if standing else "", standing.owed if standing else "",
             standing.state if standing else ""]
        )  # fmt: skip
    w.writerow(["total", "", "", "", fees, paid, fees - paid,
                f"the club was credited {club}" + (" (equal)" if club == fees else "")])  # fmt: skip
    return out.getvalue()


def transfers_csv(period: Period) -> str:
    """Every transfer of the settlements of the period's evenings: who pays whom, how
    much, whether and when it was paid; totals paid and unpaid."""
    out = io.StringIO()
    w = SafeWriter(out)
    sign = club_money.symbol()
    w.writerow(
        [
            pgettext("csv column", "evening"),
            pgettext("csv column", "evening's date"),
            pgettext("csv column", "pays"),
            pgettext("csv column", "to"),
            pgettext("csv column", "amount (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "paid"),
            pgettext("csv column", "paid on"),
            pgettext("csv column", "method"),
            pgettext("csv column", "after an adjustment"),
        ]
    )
    transfers = Transfer.objects.select_related("session", "payer", "payee", "payment")
    if period.since:
        transfers = transfers.filter(session__opened_at__date__gte=period.since)
    if period.until:
        transfers = transfers.filter(session__opened_at__date__lte=period.until)
    paid = unpaid = Decimal(0)
    for t in transfers.order_by("session__opened_at", "session_id", "pk"):
        p = t.payment
        if p:
            paid += t.amount
        else:
            unpaid += t.amount
        w.writerow(
            [str(t.session), timezone.localdate(t.session.opened_at).isoformat(),
             t.payer.display_name, t.payee.display_name, t.amount, "yes" if p else "no",
             timezone.localtime(p.created_at).isoformat(timespec="seconds") if p else "",
             p.get_method_display() if p and p.method else "",
             "yes" if t.adjustment_id else "no"]
        )  # fmt: skip
    w.writerow(["total", "", "", "", paid + unpaid, f"paid {paid}", f"unpaid {unpaid}", "", ""])
    return out.getvalue()
