"""A member's statement for a period (issue 81, item 3), on screen, printed or as CSV:
the member's own and the staff's, as every statement is."""

from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import pgettext

from club.models import Member
from club.money.forms import StandingsForm
from club.services import money as club_money
from club.services.base import member_for
from club.services.statements import PeriodStatement, period_statement
from club.washbooks.books import SafeWriter


@login_required
def member_period_statement(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    me = member_for(request.user)
    if not (request.user.is_staff or (me and me.pk == member.pk)):
        raise PermissionDenied("members see only their own statements")
    form = StandingsForm(request.GET or None)
    statement = period_statement(member, form.period())
    if request.GET.get("format") == "csv":
        response = HttpResponse(statement_csv(statement), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="statement-{member.pk}.csv"'
        return response
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(
        request,
        "club/members/period_statement.html",
        {"member": member, "form": form, "statement": statement},
        status=status,
    )


def statement_csv(statement: PeriodStatement) -> str:
    """The statement as CSV: brought forward, each row (its play, fee and other columns
    and their sum), the totals, carried forward; brought forward and the rows' amounts
    sum to carried forward."""
    out = io.StringIO()
    w = SafeWriter(out)
    sign = club_money.symbol()
    w.writerow(
        [
            pgettext("csv column", "date"),
            pgettext("csv column", "row"),
            pgettext("csv column", "points"),
            pgettext("csv column", "play (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "fee (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "other (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "amount (%(sign)s)") % {"sign": sign},
        ]
    )
    w.writerow(
        [
            "",
            f"brought forward: {statement.member}, {statement.period}",
            "",
            "",
            "",
            "",
            statement.brought_forward,
        ]
    )
    for r in statement.rows:
        w.writerow(
            [r.day.isoformat(), r.text, "" if r.points is None else r.points,
             r.play if r.evening else "", r.fee if r.evening else "",
             "" if r.evening else r.other, r.amount]
        )  # fmt: skip
    play, fee, other = statement.totals
    w.writerow(["", "totals", "", play, fee, other, play + fee + other])
    w.writerow(["", "carried forward", "", "", "", "", statement.carried_forward])
    return out.getvalue()
