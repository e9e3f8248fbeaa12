"""The table page and its fragments. Views stay thin: services hold the transactions.

One page, ``games/table.html``, with two live regions (``#live``: the deal as the
viewer sees it, rendered by `parts.render`; ``#club``: seats, washbook and notices,
``games/table.html#club``). HTMX requests get the region, others the whole page, so
everything works before JavaScript loads.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.backends.utils import csrf_input
from django.views.decorators.http import require_GET, require_POST

from games.engine.errors import InvalidActionError
from games.engine.variant import find_variant

from ..models import Deal
from . import answers, club_api, kept, live_template, moves, parts, presenters, reading, services
from .events import events_url


def _club(
    table: club_api.Table, deal: Deal | None, seating: list[club_api.SeatInfo], me: int | None
) -> dict[str, Any]:
    totals = club_api.washbook_totals(table.pk)
    seats = [
        {
            "position": s.position,
            "name": s.display_name,
            "is_bot": s.is_bot,
            "is_me": s.position == me,
            "is_dealer": deal is not None and s.position == deal.dealer,
            "playing_for": s.playing_for_id,
            "total": totals.get(s.playing_for_id or s.member_id, 0),
        }
        for s in seating
    ]
    prev = reading.previous_deal(deal) if deal is not None else None
    prev_out = None
    if prev is not None and prev.outcome:
        prev_out = presenters.outcome_context(
            prev.outcome,
            presenters.named_seats(seating, prev.players, me),
            find_variant(prev.variant),
        )
    return club_api.table_notes(table.pk) | {
        "club_seats": seats,
        "prev": prev,
        "prev_out": prev_out,
        # every hand of the last deal shown (L23): the live part's own summary
        "prev_summary": (
            live_template.render("games/_deal_summary.html", {"end": prev_out}) if prev_out else ""
        ),
        "closing": club_api.evening_notice(table.pk),
        "redraw_open": table.redraw_window_open,
        "redraw_until": table.redraw_window_until,
    }


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    get_object_or_404(club_api.Table, pk=table_id)
    unplayable = ""
    try:
        services.ensure_deal(table_id)  # deals the first deal if there is none yet
    except InvalidActionError as e:  # a table set up before its options were checked
        unplayable = f"No deal can be dealt here: {e}. The secretary can cancel the table."
    with club_api.snapshot():  # the page from one instant of the database (club/infra/db.py)
        table = club_api.Table.objects.get(pk=table_id)
        deal = reading.current_deal(table_id)
        seating = club_api.table_seating(table_id)
        member_id = reading.member_of_user(seating, request.user.pk)
        state = kept.state_of(deal) if deal is not None else None
        ctx = parts.live_context(
            bool(request.htmx), table, table_id, deal, state, seating, member_id
        )
        if request.htmx:
            return HttpResponse(parts.render(ctx))
        ctx["live_html"] = parts.render(ctx | {"csrf_input": csrf_input(request)})
        ctx |= _club(table, deal, seating, ctx["me"])
        ctx["events_url"] = events_url(request, table_id, request.user.pk)
        ctx["unplayable"] = unplayable
        return render(request, "games/table.html", ctx)


@login_required
@require_GET
def state(request: HttpRequest, table_id: int) -> HttpResponse:
    """The viewer's live region; 204 when nothing changed since ``?since=deal:version``
    (`parts.part_for`: the same part the table's stream pushes)."""
    html = parts.part_for(table_id, request.user.pk, request.GET.get("since"))
    return HttpResponse(status=204) if html is None else HttpResponse(html)


@login_required
@require_GET
@club_api.one_snapshot
def club_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(club_api.Table, pk=table_id)
    deal = reading.current_deal(table_id)
    seating = club_api.table_seating(table_id)
    me = reading.seat_of(seating, reading.member_of_user(seating, request.user.pk))
    ctx = {"table": table, "table_id": table_id, "deal": deal, "me": me}
    ctx |= _club(table, deal, seating, me)
    return render(request, "games/table.html#club", ctx)


@login_required
@require_POST
def act(request: HttpRequest, table_id: int) -> HttpResponse:
    """Apply one action; a refusal answers 4xx with the current state and the reason.
    The view reads the form into a move (`moves.parse`) and renders what the move
    answers (`answers.answer`: the action applied in its transaction and the page's
    state after it); the player's member is found with the seating under the table's
    lock (one query, issue 59), and anyone unseated is refused as "no seat"."""
    try:
        move = moves.parse(table_id, request.POST, request.user.pk)
    except moves.Rejection as e:  # a request no page sends: nothing reached the deal
        said = answers.refused(table_id, request.user.pk, e)
    else:
        said = answers.answer(move)
    status = said.status
    ctx = parts.live_context(
        bool(request.htmx), None, table_id, said.deal, said.state, said.seating, said.member_id,
        message=said.message, law=said.law, status=status, question=said.question,
        choices=[{"label": presenters.action_label(a, a.to_json()), "json": json.dumps(a.to_json())} for a in said.choices],
    )  # fmt: skip
    if request.htmx:
        return HttpResponse(parts.render(ctx), status=status)
    table = get_object_or_404(club_api.Table, pk=table_id)
    ctx["table"] = table
    ctx["live_html"] = parts.render(ctx | {"csrf_input": csrf_input(request)})
    ctx |= _club(table, said.deal, said.seating, ctx["me"])
    ctx["events_url"] = events_url(request, table_id, request.user.pk)
    return render(request, "games/table.html", ctx, status=status)
