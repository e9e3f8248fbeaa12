"""The secretary's console: the evening live on one page, and the actions taken from it (check members in and out, waive a fee, form, cancel and void tables, void the evening)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from club.evenings.forms import CheckInForm, VoidForm
from club.infra.locale import reader_catalog
from club.infra.rows import fetch
from club.live import streams
from club.models import (
    Arrival,
    ClubSession,
    Member,
    RedrawDemand,
    Seat,
    Substitution,
    Table,
    WashbookEntry,
)
from club.pages.web import (
    form_error,
    refused,
    sentence,
    session_or_404,
    staff_required,
    table_or_404,
)
from club.services import house_rules
from club.services import money as club_money
from club.services.base import ClubError, DealProgress, deal_line, deal_progress
from club.services.ledger import FEES_OPEN, carried_words, waive_fee
from club.services.mistakes import cancel_table, void_table
from club.services.seating import seating_of, with_seating_sql
from club.services.seats import empty_seats, seat_computer_player
from club.services.sessions import VOIDABLE, check_in_at_door, check_out, played_at, void_session
from club.services.tables import form_table, formed_words, table_queue, waiting_members
from club.tables.forms import FormTableForm
from games.engine.words import speaking


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
    empty_seats: int = 0  # seats the game has room for that a computer player may take


def game_and_deal(table: Table) -> str:
    """Where the table's deal stands in its game, in the reader's language."""
    with speaking(reader_catalog()):
        return table.game_and_deal


def _progress(table: Table, names: dict[int, str], deal: DealProgress | None) -> str:
    """ "Game 2, deal 3: Ann to play (14 moves)", from the games app's report; no card.
    ``names``: who plays each seat (a substitute where one is appointed, L6), by position.
    A move's notice carries the same line (deal_line)."""
    if table.voided_at is not None:
        return gettext("Voided: %(reason)s") % {"reason": table.void_reason}
    if table.status != Table.PLAYING:
        return table.get_status_display()
    if table.mode == Table.PHYSICAL:
        return gettext("%(deal)s, played with real cards") % {"deal": game_and_deal(table)}
    if deal is None or deal.finished:
        return gettext("%(deal)s: not dealt yet") % {"deal": game_and_deal(table)}
    return deal_line(names, deal)


def _players(seats: list[Seat], substitutions: list[Substitution]) -> dict[int, str]:
    """Who plays each seat, by position: its member, or the substitute he appointed."""
    playing = {
        x.leaver_id: x.substitute.display_name
        for x in substitutions
        if x.status == Substitution.ACTIVE
    }
    return {s.position: playing.get(s.member_id, s.member.display_name) for s in seats}


def _empty_seats(table: Table, seats: list[Seat]) -> int:
    """Seats of a browser table its game has room for and nobody is coming to (issue 56:
    the secretary may seat a computer player there)."""
    if table.mode != Table.ONLINE or table.is_practice:
        return 0
    return empty_seats(table, len(seats))


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
    progress = deal_progress([t.pk for t in tables if t.mode == Table.ONLINE])
    rows = []
    for t in tables:
        seats = list(t.seats.all())
        playing = t.status == Table.PLAYING
        played = playing and played_at(table_id=t.pk)
        rows.append(
            ConsoleTable(
                table=t,
                seats=seats,
                queue=table_queue(t) if playing else [],
                demands=t.pending_demands,  # type: ignore[attr-defined]
                substitutions=t.live_substitutions,  # type: ignore[attr-defined]
                progress=_progress(
                    t,
                    _players(seats, t.live_substitutions),  # type: ignore[attr-defined]
                    progress.get(t.pk),
                ),
                cancellable=playing and not played,
                voidable=played and session.is_open,
                void_form=void_form(f"void-{t.pk}"),
                empty_seats=_empty_seats(t, seats) if playing and session.is_open else 0,
            )
        )
    arrivals = list(session.arrivals.select_related("member", "queue_table").order_by("order"))
    here = [a for a in arrivals if a.left_at is None]
    waiting = waiting_members(session) if session.is_open else []
    carried = carried_words([a.member for a in here])
    # Who has no password yet (a newcomer, a guest): the console offers a sign-in link
    # (issue 78), in one query for the whole list.
    no_login = set(
        get_user_model()
        .objects.filter(pk__in=[a.member.user_id for a in waiting])
        .filter(password__startswith=UNUSABLE_PASSWORD_PREFIX)
        .values_list("pk", flat=True)
    )
    for a in waiting:
        a.carried = carried.get(a.member_id, "")  # type: ignore[attr-defined]
        a.no_login = a.member.user_id in no_login  # type: ignore[attr-defined]
    playing = [r for r in rows if r.table.status == Table.PLAYING]
    session_voidable = session.status in VOIDABLE and played_at(session_id=session.pk)
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
        "cancellable": session.is_open and not played_at(session_id=session.pk),
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
    """Each player's fee, while the fees can still be waived (`waive_fee`)."""
    if session.status not in FEES_OPEN or not (session.fee_member or session.fee_guest):
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
    """The secretary's console: the whole evening on one page, live (`club.live.notices`)."""
    session = session_or_404(pk)
    if request.htmx and request.htmx.target != "console-body":
        # The live part's refresh: that part only; what was done is told by the whole page.
        return render(
            request, "club/evenings/console.html#live", _console_context(request, session)
        )
    return render(
        request, "club/evenings/console.html", _console_context(request, session, said=True)
    )


@staff_required
def table_progress(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """One table's progress line ("Game 1, deal 2: Ann to play (14 moves)"): what a move
    changes on the console, fetched alone on the table's ``move-<table>`` notice rather
    than the whole evening again (issue 59: 156 ms for a room of 25 tables, a move). The
    table and its seats' names in one statement written once a process (one a move of
    every table of the evening: as much of the web's CPU as the move itself, compiled by
    the ORM in two)."""
    sql, params = with_seating_sql(
        Table._meta.db_table, "id", "WHERE row_.id = %s AND row_.session_id = %s"
    )
    found = fetch(Table, sql, [*params, table_pk, pk])
    if not found:
        raise Http404("no such table this evening")
    table = found[0]
    names = {s.position: s.display_name for s in seating_of(table)}
    deal = deal_progress([table.pk]).get(table.pk) if table.mode == Table.ONLINE else None
    return HttpResponse(escape(_progress(table, names, deal)))


def console_page(session: ClubSession) -> HttpResponse:
    return redirect("club:console", session.pk)


# Where on the console a done thing is told: beside the form that did it, where the eye
# already is (the message's extra tag names the section).
SAID_PLACES = ("top", "waiting", "checkin", "form", "tables", "fees")


def console_done(
    request: HttpRequest, session: ClubSession, message: str, place: str
) -> HttpResponse:
    """Done from the console: told beside the form that did it. A form sent by htmx gets
    the console back in place (no reload, the scroll kept, the sections as folded); a
    plain form post is redirected to it."""
    assert place in SAID_PLACES
    messages.success(request, message, extra_tags=place)
    if request.htmx:
        session.refresh_from_db()
        return render(
            request, "club/evenings/console.html", _console_context(request, session, said=True)
        )
    return console_page(session)


def _table_refused(request: HttpRequest, table: Table, error: ClubError) -> HttpResponse:
    """A table's action refused: in the console of its evening, else the refusal page."""
    if table.session:
        return console_refused(request, table.session, error, table.get_club_url())
    return refused(request, error, table.get_club_url())


def console_refused(
    request: HttpRequest, session: ClubSession, error: ClubError, back: str
) -> HttpResponse:
    """Refused from the console: sent by htmx, the console again with the reason at its
    top (nothing changed); a plain post, the refusal page."""
    if request.htmx:
        session.refresh_from_db()
        context = _console_context(request, session) | {"console_error": sentence(error)}
        return render(request, "club/evenings/console.html", context, status=400)
    return refused(request, error, back)


def _void(
    request: HttpRequest,
    session: ClubSession,
    prefix: str,
    void: Callable[[str], object],
    done: tuple[str, str],
) -> HttpResponse:
    """Void with the reason the form gives; refused: the console again, the message in
    place (or at its top when the form is no longer shown), nothing changed."""
    form = VoidForm(request.POST, prefix=prefix)
    if form.is_valid():
        try:
            void(form.cleaned_data["reason"])
        except ClubError as e:
            form_error(form, e)
        else:
            return console_done(request, session, *done)
    session.refresh_from_db()
    context = _console_context(request, session, bound=form)
    return render(request, "club/evenings/console.html", context, status=400)


@staff_required
@require_POST
def table_void(request: HttpRequest, pk: int) -> HttpResponse:
    """A table played in error, voided with a reason (its lines kept, left out of money)."""
    table = table_or_404(pk)
    if table.session is None:
        raise Http404
    return _void(
        request,
        table.session,
        f"void-{table.pk}",
        lambda reason: void_table(table.pk, reason, by=request.user),
        (
            gettext("Table %(number)s voided: its lines stay in the washbook, struck through.")
            % {"number": table.number},
            "tables",
        ),
    )


@staff_required
@require_POST
def session_void(request: HttpRequest, pk: int) -> HttpResponse:
    """An evening played in error, voided with a reason before it is balanced."""
    session = session_or_404(pk)
    return _void(
        request,
        session,
        "void-session",
        lambda reason: void_session(session.pk, reason, by=request.user),
        (gettext("The evening is voided: it will not be balanced."), "top"),
    )


@staff_required
@require_POST
def arrival_add(request: HttpRequest, pk: int) -> HttpResponse:
    """The secretary checks members in for them, or adds a new member and checks them in."""
    session = session_or_404(pk)
    if not session.is_open:
        return refused(
            request, ClubError(gettext("the evening is not open")), session.get_absolute_url()
        )
    form = CheckInForm(request.POST, session=session)
    if form.is_valid():
        try:
            # The members ticked, then a newcomer named (a guest, say) in the same submit
            # (issue 56: "not both" sent the secretary round twice at the door); both or
            # neither: a newcomer refused leaves the ticked members out too.
            what = check_in_at_door(
                session,
                list(form.cleaned_data["member"]),
                new_name=form.cleaned_data["new_name"],
                guest=form.cleaned_data["guest"],
                by=request.user,
            )
        except ClubError as e:
            form_error(form, e)
        else:
            return console_done(request, session, what, "checkin")
    context = _console_context(request, session) | {"checkin_form": form}
    return render(request, "club/evenings/console.html", context, status=400)


@staff_required
@require_POST
def arrival_leave(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    """The secretary checks a member out for them."""
    session = session_or_404(pk)
    member = get_object_or_404(Member, pk=member_pk)
    try:
        what = check_out(session, member, by=request.user)
    except ClubError as e:
        return console_refused(request, session, e, reverse("club:console", args=[session.pk]))
    return console_done(request, session, what, "waiting")


@staff_required
@require_POST
def arrival_fee(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    """The secretary waives a player's table fee for the evening, saying why, or charges
    it again (``waive`` 0)."""
    session = session_or_404(pk)
    member = get_object_or_404(Member, pk=member_pk)
    waive = request.POST.get("waive", "1") != "0"
    why = request.POST.get("why", "")
    fee = session.fee_for(member.is_guest)
    try:
        arrival = waive_fee(session.pk, member.pk, waived=waive, why=why, by=request.user)
    except ClubError as e:
        return console_refused(request, session, e, reverse("club:console", args=[session.pk]))
    what = f"{member.display_name}'s table fee ({club_money.shown(fee)}) " + (
        "waived" if arrival.fee_waived else "charged again"
    )
    return console_done(request, session, f"{what}.", "fees")


@staff_required
@require_POST
def table_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """A table formed by mistake, cancelled while nothing has been played at it."""
    table = table_or_404(pk)
    try:
        cancel_table(table.pk, by=request.user)
    except ClubError as e:
        return _table_refused(request, table, e)
    message = gettext("%(table)s cancelled: its players wait again.") % {"table": table.label}
    if table.session is None:
        return redirect(table.get_club_url())
    return console_done(request, table.session, message, "tables")


@staff_required
@require_POST
def table_computer(request: HttpRequest, pk: int) -> HttpResponse:
    """A computer player in an empty seat of a browser table (issue 56): now, the cards
    dealt again, if nothing has been played in the game; else when the game ends."""
    table = table_or_404(pk)
    try:
        said = seat_computer_player(table.pk, by=request.user)
    except ClubError as e:
        return _table_refused(request, table, e)
    message = f"{table.label}: {said}"
    assert table.session is not None  # seat_computer_player refuses tables of no evening
    return console_done(request, table.session, message, "tables")


@staff_required
@require_POST
def table_create(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
    if not session.is_open:
        return refused(
            request, ClubError(gettext("the evening is not open")), session.get_absolute_url()
        )
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
            table = form_table(
                session,
                variant=data["variant"],
                size=data["size"],
                mode=data["mode"],
                options=options,
                auto_redraw=data["auto_redraw"],
                computer_players=data["computers"] or 0,
                fill=data["fill"],
                candidates=chosen,
                house_rules=rules,
                by=request.user,
            )
        except ClubError as e:
            form_error(form, e)
        else:
            message = formed_words(table)
            return console_done(request, table.session or session, message, "form")
    # The console again, the form with each message beside its field; no table made.
    context = _console_context(request, session) | {"table_form": form}
    return render(request, "club/evenings/console.html", context, status=400)
