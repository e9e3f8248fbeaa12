"""The treasurer's pages (issue 81): the club's account over a period, and who owes what
across evenings, each printable and downloadable as CSV. Staff only; the figures come
from :mod:`club.services.accounts`."""

from __future__ import annotations

import io
from decimal import Decimal

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import pgettext

from club.models import Transfer
from club.money.forms import StandingsForm
from club.pages.web import staff_required
from club.services import money as club_money
from club.services.accounts import (
    ClubAccount,
    ClubDebt,
    club_account,
    club_debts,
    unpaid_transfers,
)
from club.washbooks.books import SafeWriter


def _csv(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@staff_required
def account(request: HttpRequest) -> HttpResponse:
    """The club's account over a chosen period: fees charged, waived, received and
    refunded; what members owe the club and what it owes them; transfers between members
    paid and unpaid; each member's balance in two parts; the club's row; the total."""
    form = StandingsForm(request.GET or None)
    period = form.period()
    books = club_account(period)
    if request.GET.get("format") == "csv":
        return _csv(account_csv(books), f"club-account-{timezone.localdate():%Y-%m-%d}.csv")
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(request, "club/money/account.html", {"form": form, "books": books}, status=status)


@staff_required
def owed(request: HttpRequest) -> HttpResponse:
    """Who owes what, in one place: every unpaid transfer across evenings and every table
    fee not paid in full, oldest first, with "Mark paid" at hand."""
    transfers, debts = unpaid_transfers(), club_debts()
    if request.GET.get("format") == "csv":
        return _csv(owed_csv(transfers, debts), f"owed-{timezone.localdate():%Y-%m-%d}.csv")
    return render(
        request,
        "club/money/owed.html",
        {
            "transfers": transfers,
            "debts": debts,
            "transfers_total": sum((t.amount for t in transfers), Decimal(0)),
            "debts_total": sum((d.standing.owed for d in debts), Decimal(0)),
        },
    )


def account_csv(books: ClubAccount) -> str:
    """The club's account as CSV: each member's balance at the period's end in its two
    parts, the club's account, the total (zero: the proof), then the period's figures."""
    out = io.StringIO()
    w = SafeWriter(out)
    sign = club_money.symbol()
    w.writerow(
        [
            pgettext("csv column", "line"),
            pgettext("csv column", "member"),
            pgettext("csv column", "with members (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "with the club (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "balance (%(sign)s)") % {"sign": sign},
        ]
    )
    for m in books.members:
        w.writerow(["member", m.member.display_name, m.with_members, m.with_club, m.balance])
    w.writerow(["club", "the club's own account", "", "", books.club_balance])
    w.writerow(
        ["total", "members and the club (zero)", books.with_members_total,
         books.with_club_total, books.members_total + books.club_balance]
    )  # fmt: skip
    for label, amount in (
        ("fees charged", books.fees_charged),
        ("fees waived", books.fees_waived),
        ("received by the club", books.received),
        ("refunded by the club", books.refunded),
        ("members owe the club", books.owed_to_club),
        ("the club owes members", books.owed_by_club),
        ("transfers between members paid", books.transfers_paid),
        ("transfers between members unpaid", books.transfers_unpaid),
    ):
        w.writerow([label, str(books.period), "", "", amount])
    return out.getvalue()


def owed_csv(transfers: list[Transfer], debts: list[ClubDebt]) -> str:
    """Who owes what as CSV, oldest first: each unpaid transfer and each fee not paid in
    full (the fee, what of it is paid, what is owed), then the total owed."""
    out = io.StringIO()
    w = SafeWriter(out)
    sign = club_money.symbol()
    w.writerow(
        [
            pgettext("csv column", "kind"),
            pgettext("csv column", "evening"),
            pgettext("csv column", "evening's date"),
            pgettext("csv column", "owes"),
            pgettext("csv column", "to"),
            pgettext("csv column", "owed (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "fee (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "paid of the fee (%(sign)s)") % {"sign": sign},
        ]
    )
    total = Decimal(0)
    for t in transfers:
        w.writerow(
            ["transfer", str(t.session), timezone.localdate(t.session.opened_at).isoformat(),
             t.payer.display_name, t.payee.display_name, t.amount, "", ""]
        )  # fmt: skip
        total += t.amount
    for d in debts:
        w.writerow(
            ["table fee", str(d.evening), timezone.localdate(d.evening.opened_at).isoformat(),
             d.member.display_name, "the club", d.standing.owed, d.standing.fee,
             d.standing.paid]
        )  # fmt: skip
        total += d.standing.owed
    w.writerow(["total", "", "", "", "", total, "", ""])
    return out.getvalue()
