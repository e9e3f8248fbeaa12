"""A table's pages: its page, redraw demands, joining its queue, substitutes, a result from real cards, a cut's record."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from club.models import (
    CutBatch,
    Substitution,
    Table,
)
from club.pages.web import (
    form_error,
    member_or_403,
    post_or_back,
    refused,
    staff_required,
    table_or_404,
)
from club.services.base import ClubError, member_for
from club.services.seating import table_seating
from club.services.seats import consent_substitute, demand_redraw, propose_substitute
from club.services.sessions import played_at
from club.services.tables import join_queue, table_queue
from club.services.washbook import (
    PhysicalResult,
    check_physical_result,
    enter_physical_result,
    result_words,
)
from club.tables.forms import ResultForm, SubstituteForm
from games.engine.variant import find_variant


@login_required
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    context = _table_context(request, table_or_404(pk))
    if request.htmx:
        return render(request, "club/tables/table.html#live", context)
    return render(request, "club/tables/table.html", context)


def _table_context(
    request: HttpRequest, table: Table, result_form: ResultForm | None = None
) -> dict[str, Any]:
    member = member_for(request.user)
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
        "seats": table_seating(table.pk),
        "seated": bool(member and member in players),
        "cuts": table.cuts.prefetch_related("draws__member").order_by("-created_at")[:6],
        "events": table.events.all()[:20],
        "queue": table_queue(table) if table.session_id else [],
        "subs": [
            (s, {m.pk for m in s.consents.all()}, member and member.pk in s.required) for s in subs
        ],
        "result_form": result_form or ResultForm(players=players, game=find_variant(table.variant)),
        "cancellable": table.status != Table.CLOSED
        and table.session_id is not None
        and not table.is_practice
        and not played_at(table_id=table.pk),
        "sub_form": SubstituteForm(),
        "lines": table.lines.order_by("-number")[:5],
    }
    return context


@login_required
@require_POST
def table_demand_redraw(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    try:
        demand_redraw(table, member_or_403(request))
    except ClubError as e:
        return refused(request, e, table.get_club_url())
    return redirect(table.get_club_url())


@login_required
@require_POST
def table_join(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    try:
        join_queue(table, member_or_403(request))
    except ClubError as e:
        return refused(request, e, table.get_club_url())
    return redirect(table.get_club_url())


@login_required
@require_POST
def table_substitute(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    form = SubstituteForm(request.POST)
    if not form.is_valid():
        return refused(request, ClubError(gettext("choose a member")), table.get_club_url())
    try:
        propose_substitute(table, member_or_403(request), form.cleaned_data["substitute"])
    except ClubError as e:
        return refused(request, e, table.get_club_url())
    return redirect(table.get_club_url())


@login_required
@require_POST
def substitute_consent(request: HttpRequest, pk: int) -> HttpResponse:
    sub = get_object_or_404(Substitution.objects.select_related("table"), pk=pk)
    try:
        consent_substitute(sub, member_or_403(request), request.POST.get("agree") == "yes")
    except ClubError as e:
        return refused(request, e, sub.table.get_club_url())
    return redirect(sub.table.get_club_url())


def result_from_form(form: ResultForm) -> PhysicalResult:
    """The result as entered: every field that was read (a field the form refused is
    left out, as if blank)."""
    data = form.cleaned_data
    losses, cards, extra = {}, {}, {}
    for m in form.players:  # the winner's too: the service says what cannot be
        if data.get(f"cards_{m.pk}"):
            cards[m.pk] = data[f"cards_{m.pk}"]
        if data.get(f"pips_{m.pk}") is not None:
            losses[m.pk] = data[f"pips_{m.pk}"]
        if data.get(f"extra_{m.pk}"):
            extra[m.pk] = data[f"extra_{m.pk}"]
    return PhysicalResult(
        winner_id=data.get("winner"),
        losses=losses,
        cards=cards,
        extra=extra,
        note=data.get("note") or "",
        ending=data.get("ending") or "",
    )


@staff_required
@post_or_back(lambda pk: reverse("club:table", args=[pk]) + "#result")
def table_result(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_or_404(pk)
    if table.mode != Table.PHYSICAL or table.status != Table.PLAYING:
        return refused(
            request,
            ClubError(gettext("results are entered at a physical table in play")),
            table.get_club_url(),
        )
    players = [s.member for s in table.seats.select_related("member")]
    form = ResultForm(request.POST, players=players, game=find_variant(table.variant))
    if form.is_valid():
        try:
            line = enter_physical_result(table.pk, result_from_form(form), by=request.user)
        except ClubError as e:
            form_error(form, e)
        else:  # confirmed with its line: who won what (the audit log has it too)
            messages.success(request, result_words(line))
            return redirect(table.get_club_url())
    else:  # the fields it read are checked as the service would: every mistake at once
        try:
            check_physical_result(table.pk, result_from_form(form))
        except ClubError as e:
            form_error(form, e, beside_fields_only=True)
        # Pips the form refused were left out above, so "not both" went unsaid until
        # they were mended (issue 79): said now, from what was typed.
        for m in players:
            typed = form.data.get(f"pips_{m.pk}", "").strip()
            cards = f"cards_{m.pk}"
            both = typed and form.data.get(cards, "").strip()
            if both and form.has_error(f"pips_{m.pk}") and not form.has_error(cards):
                form.add_error(cards, f"Give {m}'s pips or cards, not both.")
    # The table page again, each message beside its field; no line was posted.
    return render(
        request, "club/tables/table.html", _table_context(request, table, form), status=400
    )


@login_required
def cut_detail(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(CutBatch.objects.prefetch_related("draws__member"), pk=pk)
    if batch.table_id is None:
        raise Http404
    return render(request, "club/tables/cut.html", {"batch": batch})
