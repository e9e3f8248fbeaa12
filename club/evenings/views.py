"""The evening's pages: home, the evenings' list, opening one, its page, check-in and out by a member, closing (with its confirmation) and cancelling."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from club.evenings.console import console_done, console_page, console_refused
from club.evenings.forms import CloseForm, OpenSessionForm
from club.models import (
    ClubSession,
    Table,
    WashbookEntry,
)
from club.pages.web import (
    form_error,
    member_or_403,
    post_or_back,
    refused,
    session_or_404,
    staff_required,
)
from club.services.base import ClubError, member_for
from club.services.ledger import balance_of, staked_tables
from club.services.practice import practice_tables
from club.services.sessions import (
    cancel_session,
    check_in,
    check_out,
    close_session,
    close_when_deals_end,
    deals_in_progress,
    open_session,
)
from club.services.tables import current_seat, table_queue, waiting_members
from club.washbooks.views import why_unstaked


def home(request: HttpRequest) -> HttpResponse:
    member = member_for(request.user)
    if not request.user.is_authenticated:
        from club.services import setup

        if not setup.started():  # an empty club (issue 78): its setup page asks the code
            return redirect("setup")
    current = ClubSession.objects.filter(status=ClubSession.OPEN).first()
    balance = balance_of(member) if member else None
    return render(
        request,
        "club/evenings/home.html",
        {
            "member": member,
            "current": current,
            "balance": balance,
            "seat": current_seat(member),
            "practice": practice_tables(member),
        },
    )


@login_required
def sessions(request: HttpRequest) -> HttpResponse:
    form = OpenSessionForm()
    return render(
        request,
        "club/evenings/sessions.html",
        {"sessions": ClubSession.objects.all()[:50], "form": form},
    )


@staff_required
@post_or_back(lambda: reverse("club:sessions"))
def session_open(request: HttpRequest) -> HttpResponse:
    form = OpenSessionForm(request.POST)
    if form.is_valid():
        try:
            session = open_session(
                stake=form.cleaned_data["stake"],
                default_variant=form.cleaned_data["default_variant"],
                name=form.cleaned_data["name"],
                second=form.cleaned_data["second"],
                fee_member=form.cleaned_data["fee_member"],
                fee_guest=form.cleaned_data["fee_guest"],
                house_rules=form.cleaned_data["house_rules"],
                held_on=form.cleaned_data["held_on"],
                by=request.user,
            )
        except ClubError as e:
            form_error(form, e)
        else:
            return redirect(session)
    # The form again with each message beside its field; nothing was created.
    return render(
        request,
        "club/evenings/sessions.html",
        {"sessions": ClubSession.objects.all()[:50], "form": form},
        status=400,
    )


def _dashboard_context(request: HttpRequest, session: ClubSession) -> dict[str, Any]:
    member = member_for(request.user)
    tables = list(session.tables.prefetch_related("seats__member").order_by("number"))
    queues = {t.pk: table_queue(t) for t in tables if t.status == Table.PLAYING}
    arrivals = list(session.arrivals.select_related("member", "queue_table").order_by("order"))
    waiting = waiting_members(session) if session.is_open else []
    return {
        "session": session,
        "member": member,
        "tables": [(t, queues.get(t.pk, [])) for t in tables],
        "arrivals": arrivals,
        "waiting": waiting,
        "checked_in": bool(
            member and any(a.member_id == member.pk and not a.left_at for a in arrivals)
        ),
    }


@login_required
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
    context = _dashboard_context(request, session)
    if request.htmx:
        return render(request, "club/evenings/session.html#live", context)
    return render(request, "club/evenings/session.html", context)


@login_required
@require_POST
def session_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
    try:
        check_in(session, member_or_403(request))
    except ClubError as e:
        return refused(request, e, session.get_absolute_url())
    return redirect(session)


@login_required
@require_POST
def session_check_out(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
    try:
        check_out(session, member_or_403(request))
    except ClubError as e:
        return refused(request, e, session.get_absolute_url())
    return redirect(session)


def _close_context(session: ClubSession, form: CloseForm) -> dict[str, Any]:
    """What closing will do: each table's totals, the deals still being played."""
    tables = list(session.tables.order_by("number"))
    totals: dict[int, list[tuple[str, int]]] = {t.pk: [] for t in tables}
    rows = (
        WashbookEntry.objects.filter(line__table__session=session)
        .values("line__table_id", "member__display_name")
        .annotate(points=Sum("points"))
        .order_by("line__table_id", "-points", "member__display_name")
    )
    for r in rows:
        totals[r["line__table_id"]].append((r["member__display_name"], int(r["points"])))
    in_progress = deals_in_progress(session.pk)
    staked = set(staked_tables(session.pk))
    return {
        "session": session,
        "form": form,
        "tables": [
            {
                "table": t,
                "totals": totals[t.pk],
                "deal": in_progress.get(t.pk),
                "staked": t.pk in staked,
                "why": "" if t.pk in staked else why_unstaked(t),
            }
            for t in tables
        ],
        "in_progress": in_progress,
    }


@staff_required
def session_close_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Before "Close and balance": each table's totals, the deals in progress and what
    will become of them."""
    session = session_or_404(pk)
    return render(request, "club/evenings/close.html", _close_context(session, CloseForm()))


@staff_required
@post_or_back(lambda pk: reverse("club:session_close_confirm", args=[pk]))
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
    if not session.is_open:
        return refused(
            request, ClubError(gettext("the evening is not open")), session.get_absolute_url()
        )
    form = CloseForm(request.POST)
    if form.is_valid():
        in_progress = deals_in_progress(session.pk)
        choice, note = form.cleaned_data["deals"], form.cleaned_data["note"]
        if in_progress and not choice:
            numbers = ", ".join(
                str(t.number) for t in session.tables.filter(pk__in=in_progress).order_by("number")
            )
            form.add_error(
                "deals",
                f"{len(in_progress)} deal{'s are' if len(in_progress) != 1 else ' is'} in "
                f"progress (table {numbers}): choose to wait for them, or to end them now, "
                "unscored.",
            )
        elif in_progress and choice == CloseForm.WAIT:
            if close_when_deals_end(session.pk, by=request.user, note=note):
                return console_page(session)
            form.add_error(
                "deals",
                "The evening already closes when its deals end: to close it now, end them.",
            )
        elif not close_session(session.pk, by=request.user, note=note):
            return refused(
                request, ClubError(gettext("the evening is not open")), session.get_absolute_url()
            )
        else:
            return console_page(session)
    return render(request, "club/evenings/close.html", _close_context(session, form), status=400)


@staff_required
@require_POST
def session_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """An evening opened by mistake, cancelled while nothing has been played."""
    session = session_or_404(pk)
    try:
        cancel_session(session.pk, by=request.user)
    except ClubError as e:
        return console_refused(request, session, e, reverse("club:console", args=[session.pk]))
    return console_done(request, session, "The evening is cancelled.", "top")
