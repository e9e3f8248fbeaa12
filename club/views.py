"""Club pages. Views stay thin; services hold the transactions.

Access helpers (`_member`, `_session`, `_table`) answer 404/403; a `ClubError` from a
service becomes a 400 with its message on the page, never a 500 and no state change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.db.models import F, Q, Sum
from django.db.models.functions import TruncDate
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.engine.variant import find_variant

from . import audit, books, services, streams
from .forms import (
    CheckInForm,
    CloseForm,
    CorrectionForm,
    FormTableForm,
    HouseRulesForm,
    OpenSessionForm,
    PaymentForm,
    RefundForm,
    ResultForm,
    ReversalForm,
    StandingsForm,
    SubstituteForm,
    VoidForm,
)
from .inputs import parse_id
from .models import (
    Account,
    Arrival,
    AuditEntry,
    ClubSession,
    CutBatch,
    HouseRules,
    Leg,
    Member,
    Posting,
    RedrawDemand,
    Seat,
    Substitution,
    Table,
    Transfer,
    WashbookEntry,
    WashbookLine,
)
from .services import ClubError, counted, house_rules, ledger

View = Callable[..., HttpResponse]


def staff_required(view: View) -> View:
    @wraps(view)
    @login_required
    def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("the secretary only")
        return view(request, *args, **kwargs)

    return inner


def _member(request: HttpRequest) -> Member:
    member = services.member_for(request.user)
    if member is None:
        raise PermissionDenied("you have no member profile")
    return member


def _session(pk: int) -> ClubSession:
    return get_object_or_404(ClubSession, pk=pk)


def _table(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("session"), pk=pk)


def _refused(request: HttpRequest, error: Exception, back: str) -> HttpResponse:
    return render(request, "club/refused.html", {"error": str(error), "back": back}, status=400)


def _and(names: list[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cat'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# --- Home, sessions ------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    member = services.member_for(request.user)
    current = ClubSession.objects.filter(status=ClubSession.OPEN).first()
    balance = services.balance_of(member) if member else None
    return render(
        request,
        "club/home.html",
        {
            "member": member,
            "current": current,
            "balance": balance,
            "seat": services.current_seat(member),
            "practice": services.practice_tables(member),
        },
    )


@login_required
def sessions(request: HttpRequest) -> HttpResponse:
    form = OpenSessionForm()
    return render(
        request,
        "club/sessions.html",
        {"sessions": ClubSession.objects.all()[:50], "form": form},
    )


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def session_open(request: HttpRequest) -> HttpResponse:
    form = OpenSessionForm(request.POST)
    if form.is_valid():
        try:
            session = services.open_session(
                stake=form.cleaned_data["stake"],
                default_variant=form.cleaned_data["default_variant"],
                name=form.cleaned_data["name"],
                second=form.cleaned_data["second"],
                fee_member=form.cleaned_data["fee_member"],
                fee_guest=form.cleaned_data["fee_guest"],
                house_rules=form.cleaned_data["house_rules"],
                by=request.user,
            )
        except ClubError as e:
            _form_error(form, e)
        else:
            audit.record(
                request.user,
                AuditEntry.OPEN,
                f"Opened {session}: {services.money.shown(session.stake)} a point, "
                f"{session.get_default_variant_display()}",
                session=session,
            )
            if session.fee_member or session.fee_guest:
                audit.record(
                    request.user,
                    AuditEntry.FEE,
                    f"Table fees for {session}: {services.money.shown(session.fee_member)} a "
                    f"member, {services.money.shown(session.fee_guest)} a guest",
                    session=session,
                )
            return redirect(session)
    # The form again with each message beside its field; nothing was created.
    return render(
        request,
        "club/sessions.html",
        {"sessions": ClubSession.objects.all()[:50], "form": form},
        status=400,
    )


def _form_error(form: forms.Form, error: ClubError) -> None:
    """A service's refusal shown on the form: each of its problems beside its field when
    it names one (all at once: three mistakes, one submit)."""
    for problem in error.each():
        message = str(problem)[:1].upper() + str(problem)[1:]
        field = problem.field if problem.field in form.fields else None
        form.add_error(field, message if message.endswith(".") else message + ".")


def _dashboard_context(request: HttpRequest, session: ClubSession) -> dict[str, Any]:
    member = services.member_for(request.user)
    tables = list(session.tables.prefetch_related("seats__member").order_by("number"))
    queues = {t.pk: services.table_queue(t) for t in tables if t.status == Table.PLAYING}
    arrivals = list(session.arrivals.select_related("member", "queue_table").order_by("order"))
    waiting = services.waiting_members(session) if session.is_open else []
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


# --- The secretary's console -----------------------------------------------------------


@dataclass(frozen=True)
class ConsoleTable:
    """A table as the console shows it: seats, the deal in progress, what is pending."""

    table: Table
    seats: list[Seat]
    queue: list[Any]
    demands: list[RedrawDemand]
    substitutions: list[Substitution]
    progress: str
    cancellable: bool
    voidable: bool
    void_form: VoidForm


def _progress(table: Table, seats: list[Seat], deal: services.DealProgress | None) -> str:
    """ "Game 2, deal 3: Ann to play (14 moves)", from the games app's report; no card."""
    if table.voided_at is not None:
        return f"Voided: {table.void_reason}"
    if table.status != Table.PLAYING:
        return table.get_status_display()
    if table.mode == Table.PHYSICAL:
        return f"Game {table.game_number}, deal {table.deal_in_game + 1}, played with real cards"
    if deal is None or deal.finished:
        return f"Game {table.game_number}, deal {table.deal_in_game + 1}: not dealt yet"
    names = {s.position: s.member.display_name for s in seats}
    who = names.get(deal.to_move) if deal.to_move is not None else None
    moves = f"{deal.actions} move{'s' if deal.actions != 1 else ''}"
    turn = f"{who} to play" if who else "in play"
    return f"Game {deal.game_number}, deal {deal.deal_in_game + 1}: {turn} ({moves})"


def _console_context(
    request: HttpRequest,
    session: ClubSession,
    bound: VoidForm | None = None,
    *,
    said: bool = False,
) -> dict[str, Any]:
    """The console's context; ``bound`` is a void form sent back with its errors;
    ``said``: what was just done is read (and spent) for the page to tell it by its
    form (the live part's refreshes leave it for the page)."""

    def void_form(prefix: str) -> VoidForm:
        return bound if bound is not None and bound.prefix == prefix else VoidForm(prefix=prefix)

    tables = list(
        session.tables.order_by("number").prefetch_related(
            "seats__member",
            models.Prefetch(
                "redraw_demands",
                RedrawDemand.objects.filter(applied_at=None).select_related("member"),
                to_attr="pending_demands",
            ),
            models.Prefetch(
                "substitutions",
                Substitution.objects.filter(
                    status__in=[Substitution.PROPOSED, Substitution.ACTIVE]
                ).select_related("leaver", "substitute"),
                to_attr="live_substitutions",
            ),
        )
    )
    progress = services.deal_progress([t.pk for t in tables if t.mode == Table.ONLINE])
    rows = []
    for t in tables:
        seats = list(t.seats.all())
        playing = t.status == Table.PLAYING
        played = playing and services.played_at(table_id=t.pk)
        rows.append(
            ConsoleTable(
                table=t,
                seats=seats,
                queue=services.table_queue(t) if playing else [],
                demands=t.pending_demands,  # type: ignore[attr-defined]
                substitutions=t.live_substitutions,  # type: ignore[attr-defined]
                progress=_progress(t, seats, progress.get(t.pk)),
                cancellable=playing and not played,
                voidable=played and session.is_open,
                void_form=void_form(f"void-{t.pk}"),
            )
        )
    arrivals = list(session.arrivals.select_related("member", "queue_table").order_by("order"))
    here = [a for a in arrivals if a.left_at is None]
    waiting = services.waiting_members(session) if session.is_open else []
    carried = _carried([a.member for a in here])
    for a in waiting:
        a.carried = carried.get(a.member_id, "")  # type: ignore[attr-defined]
    playing = [r for r in rows if r.table.status == Table.PLAYING]
    session_voidable = session.status in services.VOIDABLE and services.played_at(
        session_id=session.pk
    )
    return {
        "session": session,
        "rows": rows,
        "open_tables": len(playing),
        "here": len(here),
        "seated": sum(1 for r in playing for s in r.seats if not s.member.is_bot),
        "waiting": waiting,
        "gone": [a for a in arrivals if a.left_at is not None],
        "carried": [(a.member, carried[a.member_id]) for a in here if a.member_id in carried],
        "table_form": FormTableForm(initial={"variant": session.default_variant}, session=session),
        "checkin_form": CheckInForm(session=session),
        "cancellable": session.is_open and not services.played_at(session_id=session.pk),
        "voidable": session_voidable,
        "void_form": void_form("void-session"),
        "console_error": _unshown_errors(bound, rows, session_voidable),
        "said": _said(request) if said else {},
        "fees": (fees := _fees(session, arrivals)),
        "fees_waived": sum(1 for f in fees if f.arrival.fee_waived),
        "events_url": streams.session_events_url(request, session.pk, request.user.pk)
        if session.is_open
        else "",
    }


@dataclass(frozen=True)
class FeeRow:
    """One player's table fee on the console: what he pays (nothing if waived), and
    whether he has played a deal this evening (a fee is often waived for one who has not)."""

    arrival: Arrival
    fee: Decimal
    played: bool


def _fees(session: ClubSession, arrivals: list[Arrival]) -> list[FeeRow]:
    """Each player's fee, while the fees can still be waived (`services.waive_fee`)."""
    if session.status not in services.FEES_OPEN or not (session.fee_member or session.fee_guest):
        return []
    played = set(
        WashbookEntry.objects.filter(line__table__session=session).values_list(
            "member_id", flat=True
        )
    )
    return [
        FeeRow(
            arrival=a,
            fee=session.fee_for(a.member.is_guest),
            played=a.member_id in played,
        )
        for a in arrivals
        if not a.member.is_bot
    ]


def _carried(members: list[Member]) -> dict[int, str]:
    """What each of ``members`` brings from past evenings, in words, where his balance is
    not nil: "owes £0.30" (unpaid: carried until paid), "is owed £1.20" (issue 42, item 2)."""
    balances = Account.objects.filter(member__in=members).exclude(balance=0)
    return {
        m: f"owes {services.money.shown(-b)}" if b < 0 else f"is owed {services.money.shown(b)}"
        for m, b in balances.values_list("member_id", "balance")
    }


def _said(request: HttpRequest) -> dict[str, str]:
    """The messages for the console, by the section that tells them."""
    said: dict[str, str] = {}
    for m in messages.get_messages(request):
        place = m.extra_tags if m.extra_tags in SAID_PLACES else "top"
        said[place] = f"{said[place]} {m}" if place in said else str(m)
    return said


def _unshown_errors(
    bound: VoidForm | None, rows: list[ConsoleTable], session_voidable: bool
) -> str:
    """A refusal the page would not show beside a field: one that belongs to no field,
    or any, when its form is not on the page (the table or the evening can no longer be
    voided)."""
    if bound is None:
        return ""
    shown = (bound.prefix == "void-session" and session_voidable) or any(
        r.voidable and r.void_form is bound for r in rows
    )
    if shown:
        return " ".join(bound.non_field_errors())
    return " ".join(str(m) for errors in bound.errors.values() for m in errors)


@staff_required
def console(request: HttpRequest, pk: int) -> HttpResponse:
    """The secretary's console: the whole evening on one page, live (`club.live`)."""
    session = _session(pk)
    if request.htmx and request.htmx.target != "console-body":
        # The live part's refresh: that part only; what was done is told by the whole page.
        return render(request, "club/console.html#live", _console_context(request, session))
    return render(request, "club/console.html", _console_context(request, session, said=True))


def _console(session: ClubSession) -> HttpResponse:
    return redirect("club:console", session.pk)


# Where on the console a done thing is told: beside the form that did it, where the eye
# already is (the message's extra tag names the section).
SAID_PLACES = ("top", "waiting", "checkin", "form", "tables", "fees")


def _console_done(
    request: HttpRequest, session: ClubSession, message: str, place: str
) -> HttpResponse:
    """Done from the console: told beside the form that did it. A form sent by htmx gets
    the console back in place (no reload, the scroll kept, the sections as folded); a
    plain form post is redirected to it."""
    assert place in SAID_PLACES
    messages.success(request, message, extra_tags=place)
    if request.htmx:
        session.refresh_from_db()
        return render(request, "club/console.html", _console_context(request, session, said=True))
    return _console(session)


def _console_refused(
    request: HttpRequest, session: ClubSession, error: ClubError, back: str
) -> HttpResponse:
    """Refused from the console: sent by htmx, the console again with the reason at its
    top (nothing changed); a plain post, the refusal page."""
    if request.htmx:
        session.refresh_from_db()
        context = _console_context(request, session) | {"console_error": str(error)}
        return render(request, "club/console.html", context, status=400)
    return _refused(request, error, back)


@transaction.atomic  # the action and its audit entry, or neither
def _void(
    request: HttpRequest,
    session: ClubSession,
    prefix: str,
    void: Callable[[str], object],
    done: tuple[str, str],
    audited: tuple[str, Table | None],
) -> HttpResponse:
    """Void with the reason the form gives; refused: the console again, the message in
    place (or at its top when the form is no longer shown), nothing changed."""
    form = VoidForm(request.POST, prefix=prefix)
    if form.is_valid():
        try:
            void(form.cleaned_data["reason"])
        except ClubError as e:
            _form_error(form, e)
        else:
            action, table = audited
            audit.record(
                request.user,
                action,
                done[0],
                why=form.cleaned_data["reason"],
                session=session,
                table=table,
            )
            return _console_done(request, session, *done)
    session.refresh_from_db()
    context = _console_context(request, session, bound=form)
    return render(request, "club/console.html", context, status=400)


@staff_required
@require_POST
def table_void(request: HttpRequest, pk: int) -> HttpResponse:
    """A table played in error, voided with a reason (its lines kept, left out of money)."""
    table = _table(pk)
    if table.session is None:
        raise Http404
    return _void(
        request,
        table.session,
        f"void-{table.pk}",
        lambda reason: services.void_table(table.pk, reason, by=request.user),
        (f"Table {table.number} voided: its lines stay in the washbook, struck through.", "tables"),
        (AuditEntry.TABLE_VOID, table),
    )


@staff_required
@require_POST
def session_void(request: HttpRequest, pk: int) -> HttpResponse:
    """An evening played in error, voided with a reason before it is balanced."""
    session = _session(pk)
    return _void(
        request,
        session,
        "void-session",
        lambda reason: services.void_session(session.pk, reason, by=request.user),
        ("The evening is voided: it will not be balanced.", "top"),
        (AuditEntry.VOID, None),
    )


@login_required
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    context = _dashboard_context(request, session)
    if request.htmx:
        return render(request, "club/session.html#live", context)
    return render(request, "club/session.html", context)


@login_required
@require_POST
def session_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    try:
        services.check_in(session, _member(request))
    except ClubError as e:
        return _refused(request, e, session.get_absolute_url())
    return redirect(session)


@login_required
@require_POST
def session_check_out(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    try:
        services.check_out(session, _member(request))
    except ClubError as e:
        return _refused(request, e, session.get_absolute_url())
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
    in_progress = services.deals_in_progress(session.pk)
    staked = set(services.staked_tables(session.pk))
    return {
        "session": session,
        "form": form,
        "tables": [
            {
                "table": t,
                "totals": totals[t.pk],
                "deal": in_progress.get(t.pk),
                "staked": t.pk in staked,
                "why": "" if t.pk in staked else _why_unstaked(t),
            }
            for t in tables
        ],
        "in_progress": in_progress,
    }


@staff_required
def session_close_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Before "Close and balance": each table's totals, the deals in progress and what
    will become of them."""
    session = _session(pk)
    return render(request, "club/close.html", _close_context(session, CloseForm()))


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    if not session.is_open:
        return _refused(request, ClubError("the session is not open"), session.get_absolute_url())
    form = CloseForm(request.POST)
    if form.is_valid():
        in_progress = services.deals_in_progress(session.pk)
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
            if services.close_when_deals_end(session.pk, by=request.user, note=note):
                what = f"{session} closes when its deals in progress end"
                audit.record(request.user, AuditEntry.CLOSE, what, why=note, session=session)
                return _console(session)
            form.add_error(
                "deals",
                "The evening already closes when its deals end: to close it now, end them.",
            )
        elif not services.close_session(session.pk, by=request.user, note=note):
            return _refused(
                request, ClubError("the session is not open"), session.get_absolute_url()
            )
        else:
            ended = (
                f" ({counted(len(in_progress), 'deal')} in progress ended)" if in_progress else ""
            )
            what = f"Closed {session} and queued its balancing{ended}"
            audit.record(request.user, AuditEntry.CLOSE, what, why=note, session=session)
            return _console(session)
    return render(request, "club/close.html", _close_context(session, form), status=400)


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def arrival_add(request: HttpRequest, pk: int) -> HttpResponse:
    """The secretary checks a member in for him, or adds a new member and checks him in."""
    session = _session(pk)
    if not session.is_open:
        return _refused(request, ClubError("the evening is not open"), session.get_absolute_url())
    form = CheckInForm(request.POST, session=session)
    if form.is_valid():
        try:
            chosen = sorted(form.cleaned_data["member"], key=lambda m: m.display_name)
            if chosen:
                services.check_in_many(session, chosen)
                owing = _carried(chosen)
                names = [
                    m.display_name
                    + (f" ({owing[m.pk]} from past evenings)" if m.pk in owing else "")
                    for m in chosen
                ]
            else:
                guest = form.cleaned_data["guest"]
                newcomer = services.add_newcomer(
                    session, form.cleaned_data["new_name"], guest=guest
                )
                names = [f"{newcomer.display_name} (new{', a guest' if guest else ''})"]
        except ClubError as e:
            _form_error(form, e)
        else:
            what = f"Checked in: {_and(names)}."
            audit.record(request.user, AuditEntry.CHECK_IN, what, session=session)
            return _console_done(request, session, what, "checkin")
    context = _console_context(request, session) | {"checkin_form": form}
    return render(request, "club/console.html", context, status=400)


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def arrival_leave(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    """The secretary checks a member out for him."""
    session = _session(pk)
    member = get_object_or_404(Member, pk=member_pk)
    try:
        services.check_out(session, member)
    except ClubError as e:
        return _console_refused(request, session, e, reverse("club:console", args=[session.pk]))
    what = f"{member.display_name} checked out."
    audit.record(request.user, AuditEntry.CHECK_OUT, what, session=session)
    return _console_done(request, session, what, "waiting")


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def arrival_fee(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    """The secretary waives a player's table fee for the evening, saying why, or charges
    it again (``waive`` 0)."""
    session = _session(pk)
    member = get_object_or_404(Member, pk=member_pk)
    waive = request.POST.get("waive", "1") != "0"
    why = request.POST.get("why", "")
    fee = session.fee_for(member.is_guest)
    try:
        arrival = services.waive_fee(session.pk, member.pk, waived=waive, why=why, by=request.user)
    except ClubError as e:
        return _console_refused(request, session, e, reverse("club:console", args=[session.pk]))
    what = f"{member.display_name}'s table fee ({services.money.shown(fee)}) " + (
        "waived" if arrival.fee_waived else "charged again"
    )
    audit.record(request.user, AuditEntry.FEE, what, why=why.strip(), session=session)
    return _console_done(request, session, f"{what}.", "fees")


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def session_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """An evening opened by mistake, cancelled while nothing has been played."""
    session = _session(pk)
    try:
        services.cancel_session(session.pk, by=request.user)
    except ClubError as e:
        return _console_refused(request, session, e, reverse("club:console", args=[session.pk]))
    audit.record(request.user, AuditEntry.CANCEL, f"Cancelled {session}.", session=session)
    return _console_done(request, session, "The evening is cancelled.", "top")


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def table_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """A table formed by mistake, cancelled while nothing has been played at it."""
    table = _table(pk)
    try:
        services.cancel_table(table.pk, by=request.user)
    except ClubError as e:
        if table.session:
            return _console_refused(request, table.session, e, table.get_club_url())
        return _refused(request, e, table.get_club_url())
    message = f"{table.label} cancelled: its players wait again."
    audit.record(request.user, AuditEntry.TABLE_CANCEL, message, table=table)
    if table.session is None:
        return redirect(table.get_club_url())
    return _console_done(request, table.session, message, "tables")


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def table_create(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    if not session.is_open:
        return _refused(request, ClubError("the evening is not open"), session.get_absolute_url())
    form = FormTableForm(request.POST, session=session)
    if form.is_valid():
        data = form.cleaned_data
        chosen = list(data["players"]) or None  # none ticked: everyone waiting
        rules = data["house_rules"]
        try:
            # A set of house rules, as it is now; else the options the form gives, each
            # checked beside its field and then together by the engine.
            options = (
                None
                if rules is not None
                else house_rules.checked_options(
                    data["variant"], form.chosen_options(data["variant"])
                )
            )
            table = services.form_table(
                session,
                variant=data["variant"],
                size=data["size"],
                mode=data["mode"],
                options=options,
                auto_redraw=data["auto_redraw"],
                computer_players=data["computers"] or 0,
                candidates=chosen,
                house_rules=rules,
            )
        except ClubError as e:
            _form_error(form, e)
        else:
            seats = table.seats.select_related("member").order_by("position")
            message = f"Table {table.number} formed: {_and([str(s.member) for s in seats])}."
            rules_said = f", {table.house_rules_name}" if table.house_rules_name else ""
            what = (
                f"{message[:-1]} ({table.get_variant_display()}, {table.get_mode_display()}"
                f"{rules_said})."
            )
            audit.record(request.user, AuditEntry.TABLE, what, table=table)
            return _console_done(request, table.session or session, message, "form")
    # The console again, the form with each message beside its field; no table made.
    context = _console_context(request, session) | {"table_form": form}
    return render(request, "club/console.html", context, status=400)


# --- Tables ---------------------------------------------------------------------------


@login_required
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    context = _table_context(request, _table(pk))
    if request.htmx:
        return render(request, "club/table.html#live", context)
    return render(request, "club/table.html", context)


def _table_context(
    request: HttpRequest, table: Table, result_form: ResultForm | None = None
) -> dict[str, Any]:
    member = services.member_for(request.user)
    seats = list(table.seats.select_related("member"))
    players = [s.member for s in seats]
    subs = list(
        table.substitutions.filter(status__in=[Substitution.PROPOSED, Substitution.ACTIVE])
        .select_related("leaver", "substitute")
        .prefetch_related("consents")
    )
    context = {
        "table": table,
        "member": member,
        "seats": services.table_seating(table.pk),
        "seated": bool(member and member in players),
        "cuts": table.cuts.prefetch_related("draws__member").order_by("-created_at")[:6],
        "events": table.events.all()[:20],
        "queue": services.table_queue(table) if table.session_id else [],
        "subs": [
            (s, {m.pk for m in s.consents.all()}, member and member.pk in s.required) for s in subs
        ],
        "result_form": result_form or ResultForm(players=players, game=find_variant(table.variant)),
        "cancellable": table.status != Table.CLOSED
        and table.session_id is not None
        and not table.is_practice
        and not services.played_at(table_id=table.pk),
        "sub_form": SubstituteForm(),
        "lines": table.lines.order_by("-number")[:5],
    }
    return context


@login_required
@require_POST
def table_demand_redraw(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    try:
        services.demand_redraw(table, _member(request))
    except ClubError as e:
        return _refused(request, e, table.get_club_url())
    return redirect(table.get_club_url())


@login_required
@require_POST
def table_join(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    try:
        services.join_queue(table, _member(request))
    except ClubError as e:
        return _refused(request, e, table.get_club_url())
    return redirect(table.get_club_url())


@login_required
@require_POST
def table_substitute(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    form = SubstituteForm(request.POST)
    if not form.is_valid():
        return _refused(request, ClubError("choose a member"), table.get_club_url())
    try:
        services.propose_substitute(table, _member(request), form.cleaned_data["substitute"])
    except ClubError as e:
        return _refused(request, e, table.get_club_url())
    return redirect(table.get_club_url())


@login_required
@require_POST
def substitute_consent(request: HttpRequest, pk: int) -> HttpResponse:
    sub = get_object_or_404(Substitution.objects.select_related("table"), pk=pk)
    try:
        services.consent_substitute(sub, _member(request), request.POST.get("agree") == "yes")
    except ClubError as e:
        return _refused(request, e, sub.table.get_club_url())
    return redirect(sub.table.get_club_url())


def _result_from_form(form: ResultForm) -> services.PhysicalResult:
    data = form.cleaned_data
    losses, cards, extra = {}, {}, {}
    for m in form.players:  # the winner's too: the service says what cannot be
        if data.get(f"cards_{m.pk}"):
            cards[m.pk] = data[f"cards_{m.pk}"]
        if data.get(f"pips_{m.pk}") is not None:
            losses[m.pk] = data[f"pips_{m.pk}"]
        if data.get(f"extra_{m.pk}"):
            extra[m.pk] = data[f"extra_{m.pk}"]
    return services.PhysicalResult(
        winner_id=data["winner"],
        losses=losses,
        cards=cards,
        extra=extra,
        note=data["note"],
        ending=data.get("ending") or "",
    )


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def table_result(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    if table.mode != Table.PHYSICAL or table.status != Table.PLAYING:
        return _refused(
            request,
            ClubError("results are entered at a physical table in play"),
            table.get_club_url(),
        )
    players = [s.member for s in table.seats.select_related("member")]
    form = ResultForm(request.POST, players=players, game=find_variant(table.variant))
    if form.is_valid():
        try:
            line = services.enter_physical_result(
                table.pk, _result_from_form(form), by=request.user
            )
        except ClubError as e:
            _form_error(form, e)
        else:  # confirmed with its line: who won what
            won = ", ".join(
                f"{e.member} {e.points:+d}"
                for e in line.entries.select_related("member").order_by("-points")
            )
            said = f"Line {line.number} posted to the washbook: {won or 'a drawn deal, no points'}."
            messages.success(request, said)
            audit.record(request.user, AuditEntry.RESULT, f"{table.label}: {said}", table=table)
            return redirect(table.get_club_url())
    # The table page again, each message beside its field; no line was posted.
    return render(request, "club/table.html", _table_context(request, table, form), status=400)


def _line_as_entered(
    line: WashbookLine, players: list[Member], scoring: str = "pips"
) -> dict[str, Any]:
    """The correction form's first values: the line as it was booked (a loser's points as
    his pips, what the game's hand cannot hold as extra points; in game points, all)."""
    points = dict(line.entries.values_list("member_id", "points"))
    initial: dict[str, Any] = {"note": (line.detail or {}).get("note", "")}
    if find_variant(line.table.variant).endings:
        # How it ended and whom it named; the counts are entered again, as at the table.
        initial["ending"] = (line.detail or {}).get("ending", "")
        initial["winner"] = (line.detail or {}).get("named")
        return initial
    ceiling = services.most_pips(line.table, len(players)) if scoring != "game-points" else 10**6
    for m in players:
        p = points.get(m.pk, 0)
        if p > 0:
            initial["winner"] = m.pk
        elif p < 0:
            initial[f"pips_{m.pk}"] = min(-p, ceiling)
            if -p > ceiling:
                initial[f"extra_{m.pk}"] = -p - ceiling
        else:
            initial[f"pips_{m.pk}"] = 0
    return initial


@staff_required
@transaction.atomic  # the action and its audit entry, or neither
def line_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a washbook line (the secretary): the line as booked, the form (a reason;
    the deal as it was, or only the reversal). Append-only: a reversing line and the
    corrected one, the deal count and the dealer left where they are; after balancing,
    an adjustment to the members' money. A refusal is shown in place; nothing changes."""
    line = get_object_or_404(WashbookLine.objects.select_related("table", "table__session"), pk=pk)
    players = services.line_players(line)
    back = reverse("club:washbook", args=[line.table_id])
    refused = services.correction_refused(line)
    scoring = (
        (line.detail or {}).get("scoring", "pips") if line.table.mode == Table.ONLINE else "pips"
    )
    game = find_variant(line.table.variant)
    if request.method == "POST" and not refused:
        form = CorrectionForm(request.POST, players=players, scoring=scoring, game=game)
        if form.is_valid():
            data = form.cleaned_data
            result = None if data["reverse_only"] else _result_from_form(form)
            try:
                done = services.correct_line(
                    line.pk, by=request.user, result=result, reason=data["reason"]
                )
            except ClubError as e:
                _form_error(form, e)
            else:
                what = f"{line.table.label}, line {line.number} " + (
                    f"corrected by line {done.line.number}" if done.line else "reversed"
                )
                if done.adjustment is not None:
                    what += ", with an adjustment to the members' money"
                audit.record(
                    request.user,
                    AuditEntry.CORRECTION,
                    what,
                    why=data["reason"],
                    table=line.table,
                )
                return redirect(f"{back}#line-{line.number}")
        status = 400
    elif request.method == "POST":
        form, status = None, 400
    else:
        form = CorrectionForm(
            initial=_line_as_entered(line, players, scoring),
            players=players,
            scoring=scoring,
            game=game,
        )
        status = 200
    session = line.table.session
    staked = session is None or line.table_id in services.staked_tables(session.pk)
    book = books.build(WashbookLine.objects.filter(table_id=line.table_id).order_by("number"))
    row = next((r for r in book.rows if r.line.pk == line.pk), None)
    points = dict(line.entries.values_list("member_id", "points"))
    return render(
        request,
        "club/correct.html",
        {
            "line": line,
            "table": line.table,
            "session": session,
            "row": row,
            "booked": [(m, points.get(m.pk, 0)) for m in players],
            "form": form,
            "refused": refused,
            "adjusts": session is not None and session.status == ClubSession.BALANCED and staked,
            "back": back,
        },
        status=status,
    )


# --- Washbooks ---------------------------------------------------------------------------


@login_required
def washbook(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(pk)
    book = books.build(WashbookLine.objects.filter(table=table), books.seat_order(table.pk))
    if request.GET.get("format") == "csv":
        response = HttpResponse(
            books.to_csv(book, _unstaked([table])), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="washbook-table-{table.pk}.csv"'
        return response
    unstaked = (
        [(table.number, _why_unstaked(table))]
        if table.session_id is None or table.pk not in services.staked_tables(table.session_id)
        else []
    )
    return render(
        request,
        "club/washbook.html",
        {
            "table": table,
            "book": book,
            "title": str(table),
            "unstaked": unstaked,
            "correctable": _correctable(request, table.session, table),
            "booking": find_variant(table.variant).booking,
        },
    )


def _correctable(
    request: HttpRequest, session: ClubSession | None, table: Table | None = None
) -> bool:
    """Whether the washbook offers "Correct…" on its lines: to the secretary, at an
    evening neither cancelled nor voided, at a table not voided."""
    return bool(
        request.user.is_staff
        and (session is None or session.status in services.CORRECTABLE_SESSIONS)
        and (table is None or table.voided_at is None)
    )


@login_required
def session_washbook(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    lines = WashbookLine.objects.filter(table__session=session).order_by(
        "created_at", "table", "number"
    )
    book = books.build(lines)
    if request.GET.get("format") == "csv":
        response = HttpResponse(
            books.to_csv(book, _unstaked(list(session.tables.all()))),
            content_type="text/csv; charset=utf-8",
        )
        response["Content-Disposition"] = (
            f'attachment; filename="washbook-session-{session.pk}.csv"'
        )
        return response
    return render(
        request,
        "club/washbook.html",
        {
            "session": session,
            "book": book,
            "title": f"{session}: all tables",
            "tables": session.tables.order_by("number"),
            "across": True,
            "unstaked": _unstaked_tables(session),
            "correctable": _correctable(request, session),
        },
    )


@login_required
def session_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The evening on paper (issue 42, item 6): one A4 page per table (print CSS), each
    with its game, players, stake and fees, its washbook, and each player's points and
    what they come to at the stake; a table balancing leaves out says so."""
    session = _session(pk)
    staked = set(services.staked_tables(session.pk))
    pages = []
    for table in session.tables.order_by("number"):
        book = books.build(WashbookLine.objects.filter(table=table), books.seat_order(table.pk))
        if not book.rows:
            continue
        counts = table.pk in staked
        totals = [
            (name, points, services.money.shown(points * session.stake) if counts else "")
            for name, points in zip(book.columns, book.totals, strict=True)
        ]
        pages.append(
            {
                "table": table,
                "book": book,
                "totals": totals,
                "why": "" if counts else _why_unstaked(table),
                "booking": find_variant(table.variant).booking,
            }
        )
    return render(request, "club/print.html", {"session": session, "pages": pages, "printed": True})


def _unstaked_tables(session: ClubSession) -> list[tuple[int, str]]:
    """The session's tables that balancing leaves out of money (`services.staked_tables`),
    each with its number and why."""
    staked = set(services.staked_tables(session.pk))
    return [
        (t.number, _why_unstaked(t))
        for t in session.tables.order_by("number")
        if t.pk not in staked
    ]


def _unstaked(tables: list[Table]) -> dict[int, str]:
    """The tables balancing leaves out, each with why (for the washbook's CSV)."""
    staked = set(
        ledger.staked(Table.objects.filter(pk__in=[t.pk for t in tables])).values_list(
            "pk", flat=True
        )
    )
    return {t.pk: _why_unstaked(t) for t in tables if t.pk not in staked}


def _why_unstaked(table: Table) -> str:
    if table.session_id is None or table.is_practice:
        return "a practice table"
    if table.voided_at is not None:
        return f"voided: {table.void_reason}"
    return "a computer player sat at it"


# --- Money ---------------------------------------------------------------------------------


@login_required
def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    # The balancing's transfers, then each adjustment's in the order they were posted.
    transfers = list(
        session.transfers.select_related("payer", "payee", "payment", "adjustment").order_by(
            F("adjustment_id").asc(nulls_first=True), "-amount", "pk"
        )
    )
    money = services.session_money(session.pk)
    members = Member.objects.in_bulk(list(money))
    rows = sorted(((members[m], a) for m, a in money.items()), key=lambda r: -r[1])
    paid = sum(1 for t in transfers if t.paid)
    # Counted from the transfers as they stand (a correction settles the evening again).
    header = (
        f"{services.counted(len(services.staked_tables(session.pk)), 'staked table')}, "
        f"{services.counted(len(money), 'member')}: "
        f"{services.counted(len(transfers), 'transfer')}" + (f", {paid} paid" if paid else "")
    )
    return render(
        request,
        "club/settlement.html",
        {
            "session": session,
            "header": header,
            "transfers": transfers,
            "money": rows,
            "adjusted": any(t.adjustment_id for t in transfers),
        },
    )


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def transfer_pay(request: HttpRequest, pk: int) -> HttpResponse:
    # The transfer may have gone since the page was shown (settled again after a
    # correction): the form names its evening, so the refusal can lead back to it.
    session_id = Transfer.objects.filter(pk=pk).values_list("session_id", flat=True).first()
    if session_id is None:
        given = request.POST.get("session", "")
        session_id = _session(parse_id(given) or 0).pk
    back = reverse("club:settlement", args=[session_id])
    try:
        amount = request.POST.get("amount", "").strip()
        transfer = services.record_payment(
            pk,
            amount=services.money.check_amount(amount, field="amount", what="the amount paid")
            if amount
            else None,
            method=request.POST.get("method", Posting.CASH),
            by=request.user,
        )
    except ClubError as e:
        return _refused(request, e, back)
    assert transfer.payment is not None
    audit.record(request.user, AuditEntry.PAYMENT, transfer.payment.memo, session=transfer.session)
    return redirect(back)


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
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
                posting = services.record_club_payment(
                    member.pk,
                    amount,
                    method=method,
                    note=note,
                    credit=form.cleaned_data["credit"],
                    by=request.user,
                )
            else:
                transfer = services.record_payment(
                    int(to[1:]), amount=amount, method=method, by=request.user
                )
                assert transfer.payment is not None
                posting = transfer.payment
            audit.record(
                request.user, AuditEntry.PAYMENT, posting.memo, why=note, session=posting.session
            )
        except ClubError as e:
            _form_error(form, e)
        else:
            messages.success(request, f"Recorded: {member} paid {services.money.shown(amount)}.")
            return redirect("club:member", pk=member.pk)
    return member_detail(request, member.pk, payment_form=form)


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def member_refund(request: HttpRequest, pk: int) -> HttpResponse:
    """The club pays the member back what it owes him (issue 53, item 2), at most his
    credit; a refusal is shown beside its field, nothing changes."""
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    form = RefundForm(request.POST)
    if form.is_valid():
        amount = form.cleaned_data["amount"]
        try:
            posting = services.record_refund(
                member.pk,
                amount,
                method=form.cleaned_data["method"],
                note=form.cleaned_data["note"],
                by=request.user,
            )
        except ClubError as e:
            _form_error(form, e)
        else:
            audit.record(
                request.user, AuditEntry.REFUND, posting.memo, why=form.cleaned_data["note"]
            )
            messages.success(
                request, f"Recorded: the club paid {member} {services.money.shown(amount)}."
            )
            return redirect("club:member", pk=member.pk)
    return member_detail(request, member.pk, refund_form=form)


@staff_required
@require_POST
@transaction.atomic  # the action and its audit entry, or neither
def payment_reverse(request: HttpRequest, pk: int) -> HttpResponse:
    """A payment or refund recorded by mistake is reversed with a reason (issue 53, item
    2): the opposite posting, audited; the statement shows both. Back to the member's
    page (the payer's for a payment between members)."""
    posting = get_object_or_404(Posting.objects.filter(kind__in=services.ledger.REVERSIBLE), pk=pk)
    member_id = (
        posting.legs.filter(account__member__isnull=False)
        .order_by("-amount")
        .values_list("account__member_id", flat=True)
        .first()
    )
    back = reverse("club:member", args=[member_id]) if member_id else reverse("club:home")
    form = ReversalForm(request.POST)
    if not form.is_valid():
        return _refused(request, form.errors["reason"][0], back)
    try:
        reversal = services.reverse_payment(
            posting.pk, reason=form.cleaned_data["reason"], by=request.user
        )
    except ClubError as e:
        return _refused(request, e, back)
    audit.record(
        request.user,
        AuditEntry.REVERSAL,
        reversal.memo,
        why=services.clean_reason(form.cleaned_data["reason"]),
        session=reversal.session,
    )
    messages.success(request, f"Reversed: {posting.memo}.")
    return redirect(back)


@staff_required
@transaction.atomic  # the action and its audit entry, or neither
def house_rules_list(request: HttpRequest) -> HttpResponse:
    """The club's house rules (issue 43): each set with the options it changes, whether it
    is the club's default for its game and how many tables were formed with it; a form to
    save a new set, or (``?edit=N``) to change one. A refusal is shown beside its field;
    nothing is saved. A set changed never changes a table already formed."""
    editing = None
    given = request.GET.get("edit") or request.POST.get("edit") or ""
    if given:
        editing = get_object_or_404(HouseRules, pk=parse_id(given) or 0)
    if request.method == "POST":
        form = HouseRulesForm(request.POST, rules=editing)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved = house_rules.save(
                    name=data["name"],
                    variant=data["variant"],
                    options=form.chosen_options(data["variant"]),
                    default=data["is_default"],
                    rules=editing,
                    by=request.user,
                )
            except ClubError as e:
                _form_error(form, e)
            else:
                what = (
                    f"{'Changed' if editing else 'Saved'} house rules {saved.name} for "
                    f"{saved.get_variant_display()}: "
                    f"{house_rules.described(saved.variant, saved.options)}"
                    + (" (the club's default)" if saved.is_default else "")
                )
                audit.record(request.user, AuditEntry.HOUSE_RULES, what)
                messages.success(request, f"{what}.")
                return redirect("club:house_rules")
        status = 400
    else:
        form, status = HouseRulesForm(rules=editing), 200
    sets = [
        (r, house_rules.described(r.variant, r.options))
        for r in HouseRules.objects.annotate(formed=models.Count("tables")).order_by(
            "variant", "name"
        )
    ]
    return render(
        request,
        "club/house_rules.html",
        {"form": form, "sets": sets, "editing": editing},
        status=status,
    )


@staff_required
def audit_log(request: HttpRequest) -> HttpResponse:
    """What the secretary did (issue 42, item 7), newest first: who, when, what and why;
    ``?session=N``: one evening's. Staff only."""
    entries = AuditEntry.objects.select_related("actor", "session", "table")
    session = None
    given = request.GET.get("session", "")
    if given:
        session = _session(parse_id(given) or 0)
        entries = entries.filter(session=session)
    return render(request, "club/audit.html", {"entries": entries[:500], "session": session})


@staff_required
def members(request: HttpRequest) -> HttpResponse:
    """The secretary's list of members: each a link to his page and statements, with his
    balance as it stands (what he owes the club's members, or is owed), guests marked;
    ``?format=csv``: the member-balances CSV for the treasurer's spreadsheet."""
    accounts = dict(Account.objects.values_list("member_id", "balance"))
    rows = [
        (m, accounts.get(m.pk, Decimal("0.00")))
        for m in Member.objects.filter(is_bot=False, user__is_staff=False)
        .select_related("user")
        .order_by("-active", "display_name")
    ]
    if request.GET.get("format") == "csv":
        response = HttpResponse(books.balances_csv(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="member-balances.csv"'
        return response
    return render(request, "club/members.html", {"rows": rows})


@login_required
def member_detail(
    request: HttpRequest,
    pk: int,
    *,
    payment_form: PaymentForm | None = None,
    refund_form: RefundForm | None = None,
) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    me = services.member_for(request.user)
    if not (request.user.is_staff or (me and me.pk == member.pk)):
        raise PermissionDenied("members see only their own page")
    history = services.member_history(member.pk)
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
    own = {s["pk"]: s["balanced"] or 0 for s in sessions_played}
    money = [
        (posting, _money_label(posting, own.get(posting.session_id), evening=True), amount, running)
        for posting, amount, running in history
    ]
    staff = request.user.is_staff
    reversed_ids = set(
        Posting.objects.filter(
            reverses__in=[p.pk for p, _, _ in history if p.kind in services.ledger.REVERSIBLE]
        ).values_list("reverses_id", flat=True)
    )
    credit = services.with_club(member.pk)
    return render(
        request,
        "club/member.html",
        {
            "member": member,
            "balance": services.balance_of(member),
            "history": history,
            "money": money,
            "chart": books.chart([r for _, _, r in history]),
            "sessions_played": sessions_played,
            "owing": services.owing(member.pk),
            "payment_form": payment_form or (PaymentForm(member=member) if staff else None),
            # The club pays him back what it owes him (his credit on account).
            "credit": credit,
            "refund_form": refund_form
            or (RefundForm(initial={"amount": credit}) if staff and credit > 0 else None),
            "reversed": reversed_ids,
            # Payments and refunds staff may reverse (each once).
            "reversible": {
                p.pk
                for p, _, _ in history
                if staff and p.kind in services.ledger.REVERSIBLE and p.pk not in reversed_ids
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
    me = services.member_for(request.user)
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
            staked[session_id] = set(services.staked_tables(session_id))
        return e.line.table_id in staked[session_id]

    deals = [e for e in entries if counts(e)]
    shown: set[int] = set()
    lines: list[books.StatementLine] = []
    for posting, amount, running in services.member_history(member.pk):
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
                when=posting.created_at,
                evening=str(session) if session else "",
                table="",
                text=_money_label(posting, own),
                amount=amount,
                running=running,
            )
        )
    pending = [e for e in deals if e.pk not in shown]
    return render(
        request,
        "club/member_statement.html",
        {
            "member": member,
            "lines": lines,
            "pending": [_statement_deal(e) for e in pending],
            "pending_points": sum(e.points for e in pending),
            "balance": services.balance_of(member),
        },
    )


def _statement_deal(entry: WashbookEntry) -> books.StatementLine:
    line = entry.line
    return books.StatementLine(
        when=line.created_at,
        evening=str(line.table.session),
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
        stake = services.money.shown(posting.session.stake)
        return f"{posting.session}: your {points:+d} points at {stake} a point"
    if posting.kind == Posting.FEE and posting.session is not None:
        return f"{posting.session}: table fee"
    if posting.kind == Posting.ADJUSTMENT and evening and posting.session is not None:
        return f"{posting.session}: {posting.memo}"
    return posting.memo


@login_required
def statement(request: HttpRequest, pk: int, session_pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk, is_bot=False)
    me = services.member_for(request.user)
    if not (request.user.is_staff or (me and me.pk == member.pk)):
        raise PermissionDenied("members see only their own statements")
    session = _session(session_pk)
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
    staked = set(services.staked_tables(session.pk))
    rows = [(e, "" if e.line.table_id in staked else _why_unstaked(e.line.table)) for e in entries]
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
        "club/statement.html",
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


# Money paid between a member and anyone, as against money won or charged: what the
# standings' "Payments" column sums, on the day it was paid.
PAYMENT_KINDS = (Posting.PAYMENT, Posting.REFUND, Posting.REVERSAL)


@login_required
def standings(request: HttpRequest) -> HttpResponse:
    """Members' points from closed sessions at the tables balancing counts (never an
    open, cancelled or voided evening; never a voided table, a practice table or one a
    computer player sat at: `ledger.staked`), between two dates if asked; the secretary
    and other staff, and guests, are left out. A bad date is shown beside its field and
    the standings stay unfiltered."""
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
    accounts = {a.member_id: a.balance for a in Account.objects.filter(is_club=False)}
    points = dict(
        entries.values_list("member").annotate(p=Sum("points")).values_list("member", "p")
    )
    # Money beside points (issue 42, item 4): what play brought (the evenings' balancing
    # and adjustments, over the same dates), the fees, the payments made and received.
    # A payment counts on the day it was made (a payment to the club has no evening at
    # all, and dropped out of a dated view); play and fees on their evening's day.
    legs = _between(
        Leg.objects.filter(account__member__isnull=False).annotate(
            day=models.Case(
                models.When(posting__kind__in=PAYMENT_KINDS, then=TruncDate("posting__created_at")),
                default=TruncDate("posting__session__opened_at"),
            )
        ),
        form,
        "day",
    )
    money: dict[tuple[int, str], Decimal] = {
        (m, kind): total
        for m, kind, total in legs.values_list("account__member_id", "posting__kind")
        .annotate(total=Sum("amount"))
        .values_list("account__member_id", "posting__kind", "total")
    }

    def kinds(member_id: int, *names: str) -> Decimal:
        return sum((money.get((member_id, k), Decimal(0)) for k in names), Decimal("0.00"))

    rows = [
        Standing(
            member=m,
            points=points.get(m.pk, 0),
            play=kinds(m.pk, Posting.SESSION_BALANCE, Posting.ADJUSTMENT),
            fees=kinds(m.pk, Posting.FEE),
            payments=kinds(m.pk, *PAYMENT_KINDS),
            balance=accounts.get(m.pk, Decimal("0.00")),
        )
        for m in Member.objects.filter(
            is_bot=False, is_guest=False, active=True, user__is_staff=False
        )
    ]
    rows.sort(key=lambda r: (-r.points, r.member.display_name))
    # Who sees whose money (issue 53, item 6): the points and the money they came to are
    # the club's, open to members; a member's fees, payments and balance are his own and
    # the staff's.
    me = services.member_for(request.user)
    private = {
        r.member.pk
        for r in rows
        if not request.user.is_staff and (me is None or me.pk != r.member.pk)
    }
    status = 400 if form.is_bound and not form.is_valid() else 200
    dated = form.is_bound and form.is_valid() and any(form.cleaned_data.values())
    return render(
        request,
        "club/standings.html",
        {"rows": rows, "form": form, "dated": dated, "private": private},
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
    balance: Decimal  # now, whatever the dates


@login_required
def cut_detail(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(CutBatch.objects.prefetch_related("draws__member"), pk=pk)
    if batch.table_id is None:
        raise Http404
    return render(request, "club/cut.html", {"batch": batch})
