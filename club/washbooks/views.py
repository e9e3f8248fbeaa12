"""Washbooks: a table's and an evening's (with their CSV), the evening on paper, correcting a line."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from club.models import (
    ClubSession,
    Member,
    Table,
    WashbookLine,
)
from club.pages.web import form_error, session_or_404, staff_required, table_or_404
from club.services import ledger
from club.services import money as club_money
from club.services.base import ClubError
from club.services.ledger import staked_tables
from club.services.physical import most_pips
from club.services.washbook import (
    CORRECTABLE_SESSIONS,
    correct_line,
    correction_refused,
    line_players,
)
from club.tables.views import result_from_form
from club.washbooks import books
from club.washbooks.forms import CorrectionForm
from games.engine.variant import find_variant


def _line_as_entered(
    line: WashbookLine, players: list[Member], scoring: str = "pips"
) -> dict[str, Any]:
    """The correction form's first values: the line as it was booked (a loser's points as
    his pips, what the game's hand cannot hold as extra points; in game points, all)."""
    detail = line.detail or {}
    points = dict(line.entries.values_list("member_id", "points"))
    initial: dict[str, Any] = {"note": detail.get("note", "")}
    if any(k in detail for k in ("pips", "cards", "extra")):
        # Kept as entered (issue 81): each count back in its own field.
        for key in ("pips", "cards", "extra"):
            for pk, value in (detail.get(key) or {}).items():
                initial[f"{key}_{pk}"] = value
    if find_variant(line.table.variant).endings:
        # How it ended and whom it named; a line kept before its counts were is
        # entered again, as at the table.
        initial["ending"] = detail.get("ending", "")
        initial["winner"] = detail.get("named")
        return initial
    if any(k in detail for k in ("pips", "cards", "extra")):
        initial["winner"] = next((pk for pk, p in points.items() if p > 0), None)
        for m in players:
            if points.get(m.pk, 0) <= 0 and not any(
                f"{k}_{m.pk}" in initial for k in ("pips", "cards", "extra")
            ):
                initial[f"pips_{m.pk}"] = 0
        return initial
    ceiling = most_pips(line.table, len(players)) if scoring != "game-points" else 10**6
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
def line_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a washbook line (the secretary): the line as booked, the form (a reason;
    the deal as it was, or only the reversal). Append-only: a reversing line and the
    corrected one, the deal count and the dealer left where they are; after balancing,
    an adjustment to the members' money. A refusal is shown in place; nothing changes."""
    line = get_object_or_404(WashbookLine.objects.select_related("table", "table__session"), pk=pk)
    players = line_players(line)
    back = reverse("club:washbook", args=[line.table_id])
    refused = correction_refused(line)
    scoring = (
        (line.detail or {}).get("scoring", "pips") if line.table.mode == Table.ONLINE else "pips"
    )
    game = find_variant(line.table.variant)
    if request.method == "POST" and not refused:
        form = CorrectionForm(request.POST, players=players, scoring=scoring, game=game)
        if form.is_valid():
            data = form.cleaned_data
            result = None if data["reverse_only"] else result_from_form(form)
            try:
                correct_line(line.pk, by=request.user, result=result, reason=data["reason"])
            except ClubError as e:
                form_error(form, e)
            else:
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
    staked = session is None or line.table_id in staked_tables(session.pk)
    book = books.build(WashbookLine.objects.filter(table_id=line.table_id).order_by("number"))
    row = next((r for r in book.rows if r.line.pk == line.pk), None)
    points = dict(line.entries.values_list("member_id", "points"))
    return render(
        request,
        "club/washbooks/correct.html",
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


@login_required
def washbook(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    book = books.build(WashbookLine.objects.filter(table=table), books.seat_order(table.pk))
    if request.GET.get("format") == "csv":
        response = HttpResponse(
            books.to_csv(book, _unstaked([table])), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="washbook-table-{table.pk}.csv"'
        return response
    unstaked = (
        [(table.number, why_unstaked(table))]
        if table.session_id is None or table.pk not in staked_tables(table.session_id)
        else []
    )
    return render(
        request,
        "club/washbooks/washbook.html",
        {
            "table": table,
            "book": book,
            "title": table.title,
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
        and (session is None or session.status in CORRECTABLE_SESSIONS)
        and (table is None or table.voided_at is None)
    )


@login_required
def session_washbook(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
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
            f'attachment; filename="washbook-evening-{session.pk}.csv"'
        )
        return response
    return render(
        request,
        "club/washbooks/washbook.html",
        {
            "session": session,
            "book": book,
            "title": gettext("%(evening)s: all tables") % {"evening": session.title},
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
    session = session_or_404(pk)
    staked = set(staked_tables(session.pk))
    pages = []
    for table in session.tables.order_by("number"):
        book = books.build(WashbookLine.objects.filter(table=table), books.seat_order(table.pk))
        if not book.rows:
            continue
        counts = table.pk in staked
        totals = [
            (name, points, club_money.shown(points * session.stake) if counts else "")
            for name, points in zip(book.columns, book.totals, strict=True)
        ]
        pages.append(
            {
                "table": table,
                "book": book,
                "totals": totals,
                "why": "" if counts else why_unstaked(table),
                "booking": find_variant(table.variant).booking,
            }
        )
    return render(
        request, "club/washbooks/print.html", {"session": session, "pages": pages, "printed": True}
    )


def _unstaked_tables(session: ClubSession) -> list[tuple[int, str]]:
    """The session's tables that balancing leaves out of money (`staked_tables`),
    each with its number and why."""
    staked = set(staked_tables(session.pk))
    return [
        (t.number, why_unstaked(t)) for t in session.tables.order_by("number") if t.pk not in staked
    ]


def _unstaked(tables: list[Table]) -> dict[int, str]:
    """The tables balancing leaves out, each with why (for the washbook's CSV)."""
    staked = set(
        ledger.staked(Table.objects.filter(pk__in=[t.pk for t in tables])).values_list(
            "pk", flat=True
        )
    )
    return {t.pk: why_unstaked(t) for t in tables if t.pk not in staked}


def why_unstaked(table: Table) -> str:
    if table.session_id is None or table.is_practice:
        return "a practice table"
    if table.voided_at is not None:
        return f"voided: {table.void_reason}"
    return "a computer player sat at it"
