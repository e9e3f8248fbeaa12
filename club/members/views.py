"""Members: the list with balances (and its CSV), a member's page, his statements."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import F, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext

from club.members.forms import AddMemberForm
from club.models import (
    Account,
    ClubSession,
    Leg,
    Member,
    Posting,
    WashbookEntry,
)
from club.money.forms import PaymentForm, RefundForm
from club.pages.web import session_or_404, staff_required
from club.services import logins
from club.services import money as club_money
from club.services.accounts import member_balances
from club.services.base import member_for
from club.services.ledger import CLUB, balance_of, member_history, staked_tables
from club.services.payments import REVERSIBLE, owing, with_club
from club.washbooks import books
from club.washbooks.views import why_unstaked


@staff_required
def members(request: HttpRequest) -> HttpResponse:
    """The secretary's list of members: each a link to his page and statements, with his
    balance as it stands (what he owes the club's members, or is owed), guests marked,
    and his login's state (issue 78), with a filter by it and the form that adds one;
    ``?format=csv``: the member-balances CSV for the treasurer's spreadsheet."""
    return members_page(request)


LOGIN_FILTERS = [
    "not invited",
    "invited",
    "link expired",
    "signed in",
    "has a password",
    "disabled",
]


def members_page(
    request: HttpRequest,
    *,
    add_form: AddMemberForm | None = None,
    import_problems: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    accounts = dict(Account.objects.values_list("member_id", "balance"))
    listed = list(
        Member.objects.filter(is_bot=False, user__is_staff=False)
        .select_related("user")
        .order_by("-active", "display_name")
    )
    rows = [(m, accounts.get(m.pk, Decimal("0.00"))) for m in listed]
    if request.GET.get("format") == "csv":
        parts = {b.member.pk: b for b in member_balances()}
        zero = Decimal("0.00")
        split = [
            (m, parts[m.pk].with_members, parts[m.pk].with_club)
            if m.pk in parts
            else (m, zero, zero)
            for m in listed
        ]
        others = sum(
            (b.balance for pk, b in parts.items() if pk not in {m.pk for m in listed}), zero
        )
        text = books.balances_csv(split, balance_of(CLUB), others)
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="member-balances.csv"'
        return response
    states = logins.login_states(listed)
    shown = request.GET.get("login", "")
    if shown in LOGIN_FILTERS:
        rows = [(m, b) for m, b in rows if states[m.pk].kind == shown]
    return render(
        request,
        "club/members/members.html",
        {
            "rows": [(m, b, states[m.pk]) for m, b in rows],
            "add_form": add_form or AddMemberForm(),
            "import_problems": import_problems or [],
            "filters": [(f, logins.LoginState(f).said) for f in LOGIN_FILTERS],
            "shown": shown if shown in LOGIN_FILTERS else "",
        },
        status=status,
    )


@login_required
def member_detail(
    request: HttpRequest,
    pk: int,
    *,
    payment_form: PaymentForm | None = None,
    refund_form: RefundForm | None = None,
) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    me = member_for(request.user)
    if not (request.user.is_staff or (me and me.pk == member.pk)):
        raise PermissionDenied("members see only their own page")
    history = member_history(member.pk)
    # The member's own points in each session (never the session's total).
    sessions_played = [
        {"pk": r["line__table__session"], "name": r["line__table__session__name"],
         "opened_at": r["line__table__session__opened_at"], "points": r["points"],
         "balanced": r["balanced"]}
        for r in WashbookEntry.objects.filter(
            member=member, line__table__session__isnull=False, line__table__is_practice=False
        )
        .values(
            "line__table__session", "line__table__session__name", "line__table__session__opened_at"
        )
        .annotate(
            # His points when the evening was balanced (a line corrected later is its
            # own adjustment), then now: first, before "points" names the sum.
            balanced=Sum(
                "points", filter=Q(line__created_at__lte=F("line__table__session__balanced_at"))
            ),
            points=Sum("points"),
        )
        .order_by("-line__table__session__opened_at")
    ]  # fmt: skip
    # Every evening he was at or charged for, not only those with points at a staked
    # table (issue 81: a fee charged at an evening played only at a computer player's
    # table, or not at all, left "No sessions played"): his statement is there too.
    listed = {s["pk"] for s in sessions_played}
    others = (
        ClubSession.objects.filter(
            Q(arrivals__member=member) | Q(postings__legs__account__member=member)
        )
        .exclude(pk__in=listed)
        .distinct()
        .values("pk", "name", "opened_at")
    )
    sessions_played = sorted(
        sessions_played + [s | {"points": None, "balanced": None} for s in others],
        key=lambda s: s["opened_at"],
        reverse=True,
    )
    own = {s["pk"]: s["balanced"] or 0 for s in sessions_played}
    money = [
        (posting, _money_label(posting, own.get(posting.session_id), evening=True), amount, running)
        for posting, amount, running in history
    ]
    staff = request.user.is_staff
    reversed_ids = set(
        Posting.objects.filter(
            reverses__in=[p.pk for p, _, _ in history if p.kind in REVERSIBLE]
        ).values_list("reverses_id", flat=True)
    )
    credit = with_club(member.pk)
    return render(
        request,
        "club/members/member.html",
        {
            "member": member,
            "balance": balance_of(member),
            # the balance in its two parts (issue 81): with other members, with the club
            "with_members": balance_of(member) - credit,
            "history": history,
            "money": money,
            "chart": books.chart([r for _, _, r in history]),
            "sessions_played": sessions_played,
            "owing": owing(member.pk),
            "payment_form": payment_form or (PaymentForm(member=member) if staff else None),
            # The club pays him back what it owes him (his credit on account).
            "credit": credit,
            "refund_form": refund_form
            or (RefundForm(initial={"amount": credit}) if staff and credit > 0 else None),
            "reversed": reversed_ids,
            # His login's state, for the secretary (issue 78)
            "login": logins.login_states([member])[member.pk] if staff else None,
            "link_days": f"{settings.SIGNIN_LINK_DAYS:g}",
            # Payments and refunds staff may reverse (each once).
            "reversible": {
                p.pk
                for p, _, _ in history
                if staff and p.kind in REVERSIBLE and p.pk not in reversed_ids
            },
            "recent": WashbookEntry.objects.filter(member=member)
            .select_related("line__table__session", "line__reverses", "line__corrects")
            .order_by("-line__created_at", "-line__number")[:20],
        },
        status=400 if payment_form is not None or refund_form is not None else 200,
    )


@login_required
def member_statement(request: HttpRequest, pk: int) -> HttpResponse:
    """The member's full statement (issue 42, item 4): every evening, each with his deals
    (points, the line, the table) and the balancing that made them money; every fee,
    payment and adjustment; a running balance after each; every amount with the currency.
    Evenings not balanced yet end it, their points not yet money."""
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    me = member_for(request.user)
    if not (request.user.is_staff or (me and me.pk == member.pk)):
        raise PermissionDenied("members see only their own statements")
    entries = list(
        WashbookEntry.objects.filter(
            member=member, line__table__session__isnull=False, line__table__is_practice=False
        )
        .select_related("line__table__session", "line__reverses", "line__corrects")
        .order_by("line__created_at", "line__pk")
    )
    staked: dict[int, set[int]] = {}

    def counts(e: WashbookEntry) -> bool:
        session_id = e.line.table.session_id
        assert session_id is not None
        if session_id not in staked:
            staked[session_id] = set(staked_tables(session_id))
        return e.line.table_id in staked[session_id]

    deals = [e for e in entries if counts(e)]
    shown: set[int] = set()
    lines: list[books.StatementLine] = []
    for posting, amount, running in member_history(member.pk):
        session = posting.session
        own = None
        # A balancing lists the evening's deals it counted; an adjustment, the lines of
        # the correction it posts (the reversal and the corrected line).
        if posting.kind in (Posting.SESSION_BALANCE, Posting.ADJUSTMENT) and session:
            mine = [
                e
                for e in deals
                if e.line.table.session_id == session.pk
                and e.line.created_at <= posting.created_at
                and e.pk not in shown
            ]
            shown.update(e.pk for e in mine)
            own = sum(e.points for e in mine)
            lines += [_statement_deal(e) for e in mine]
        lines.append(
            books.StatementLine(
                when=posting.day,  # its evening's day, or the day it was recorded
                evening=session.title if session else "",
                table="",
                text=_money_label(posting, own),
                amount=amount,
                running=running,
            )
        )
    pending = [e for e in deals if e.pk not in shown]
    return render(
        request,
        "club/members/member_statement.html",
        {
            "member": member,
            "lines": lines,
            "pending": [_statement_deal(e) for e in pending],
            "pending_points": sum(e.points for e in pending),
            "balance": balance_of(member),
        },
    )


def _statement_deal(entry: WashbookEntry) -> books.StatementLine:
    line = entry.line
    held = line.table.session.opened_at if line.table.session else line.created_at
    return books.StatementLine(
        # an evening entered after the fact: its deals carry the day it was held
        when=held
        if timezone.localdate(line.created_at) > timezone.localdate(held)
        else line.created_at,
        evening=line.table.session.title if line.table.session else "",
        table=line.table.label,
        text=books.deal_text(line),
        points=entry.points,
    )


def _money_label(posting: Posting, own_points: int | None, *, evening: bool = False) -> str:
    """What a posting was, in the member's own terms: a session's balancing says his own
    points at the stake (its memo holds the whole session's); an adjustment, which line
    was corrected and why (and, where postings of many evenings are listed, which)."""
    if posting.kind == Posting.SESSION_BALANCE and posting.session is not None:
        points = own_points if own_points is not None else 0
        stake = club_money.shown_to_reader(posting.session.stake)
        return gettext("%(evening)s: your %(points)s points at %(stake)s a point") % {
            "evening": posting.session.title,
            "points": f"{points:+d}",
            "stake": stake,
        }
    if posting.kind == Posting.FEE and posting.session is not None:
        return gettext("%(evening)s: table fee") % {"evening": posting.session.title}
    if posting.kind == Posting.ADJUSTMENT and evening and posting.session is not None:
        return format_html('{}: <span lang="en-GB">{}</span>', posting.session.title, posting.memo)
    return format_html('<span lang="en-GB">{}</span>', posting.memo)


@login_required
def statement(request: HttpRequest, pk: int, session_pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    me = member_for(request.user)
    if not (request.user.is_staff or (me and me.pk == member.pk)):
        raise PermissionDenied("members see only their own statements")
    session = session_or_404(session_pk)
    entries = (
        WashbookEntry.objects.filter(member=member, line__table__session=session)
        .select_related("line__table")
        .order_by("line__created_at")
    )
    legs = Leg.objects.filter(account__member=member, posting__session=session).select_related(
        "posting__session"
    )
    # Lines at a table balancing leaves out (voided, a computer player's, practice) are
    # listed, marked, and left out of his points, as they are of his money.
    staked = set(staked_tables(session.pk))
    rows = [(e, "" if e.line.table_id in staked else why_unstaked(e.line.table)) for e in entries]
    counted = [e for e, why in rows if not why]
    points = sum(e.points for e in counted)
    # A balancing's label gives his points as they were when it was posted: a line
    # corrected later shows as its own adjustment, with its reason.
    money = [
        (
            leg,
            _money_label(
                leg.posting,
                sum(e.points for e in counted if e.line.created_at <= leg.posting.created_at),
            ),
        )
        for leg in legs
    ]
    return render(
        request,
        "club/members/statement.html",
        {
            "member": member,
            "session": session,
            "entries": rows,
            "uncounted": sum(e.points for e, why in rows if why),
            "legs": legs,
            "money": money,
            "points": points,
            "net": sum((leg.amount for leg in legs), Decimal(0)),
        },
    )
