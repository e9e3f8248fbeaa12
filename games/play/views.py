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

from club.infra.db import one_snapshot, snapshot
from club.models import Table
from club.pages.inputs import parse_whole
from games.engine.errors import InvalidActionError
from games.engine.variant import find_variant

from ..models import Deal
from . import club_api, kept, live_template, parts, presenters, services
from .events import events_url


def _club(
    table: Table, deal: Deal | None, seating: list[club_api.SeatInfo], me: int | None
) -> dict[str, Any]:
    from club.models import Substitution, TableEvent, WashbookLine

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
    prev = services.previous_deal(deal) if deal is not None else None
    prev_out = None
    if prev is not None and prev.outcome:
        prev_out = presenters.outcome_context(
            prev.outcome,
            presenters.named_seats(seating, prev.players, me),
            find_variant(prev.variant),
        )
    subs = list(
        Substitution.objects.filter(table=table, status="active").values_list(
            "substitute__display_name", "leaver__display_name"
        )
    )
    events = list(TableEvent.objects.filter(table=table).values_list("text", flat=True)[:5])
    return {
        "club_seats": seats,
        "lines": WashbookLine.objects.filter(table=table).count(),
        "prev": prev,
        "prev_out": prev_out,
        # every hand of the last deal shown (L23): the live part's own summary
        "prev_summary": (
            live_template.render("games/_deal_summary.html", {"end": prev_out}) if prev_out else ""
        ),
        "substitutions": subs,
        "table_events": events,
        "closing": club_api.evening_notice(table.pk),
        "redraw_open": table.redraw_window_open,
        "redraw_until": table.redraw_window_until,
    }


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    get_object_or_404(Table, pk=table_id)
    unplayable = ""
    try:
        services.ensure_deal(table_id)  # deals the first deal if there is none yet
    except InvalidActionError as e:  # a table set up before its options were checked
        unplayable = f"No deal can be dealt here: {e}. The secretary can cancel the table."
    with snapshot():  # the page from one instant of the database (club/infra/db.py)
        table = Table.objects.get(pk=table_id)
        deal = services.current_deal(table_id)
        seating = club_api.table_seating(table_id)
        member_id = services.member_of_user(seating, request.user.pk)
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
@one_snapshot
def club_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    deal = services.current_deal(table_id)
    seating = club_api.table_seating(table_id)
    me = services.seat_of(seating, services.member_of_user(seating, request.user.pk))
    ctx = {"table": table, "table_id": table_id, "deal": deal, "me": me}
    ctx |= _club(table, deal, seating, me)
    return render(request, "games/table.html#club", ctx)


def _int(value: object) -> int | None:
    """A seat, version, combination or deal from the request: ASCII digits only
    (club.pages.inputs; "²" passes isdigit and "٣" passes int), else None."""
    return parse_whole(value)


# An action's JSON is a few hundred characters (a meld of a double pack's cards included);
# anything longer is refused before it is parsed.
MAX_ACTION = 4000


@login_required
@require_POST
def act(request: HttpRequest, table_id: int) -> HttpResponse:
    """Apply one action; a refusal answers 4xx with the current state and the reason."""
    p = request.POST
    # services.act reads the seating with the table's lock and finds the player's member
    # from the user (one query, issue 59); anyone unseated is refused as "no seat".
    seating: list[club_api.SeatInfo] | None = None
    member_id: int | None = None
    status, message, law, choices, question = 200, "", None, [], ""
    raw = p.get("action")
    try:
        if raw and len(raw) > MAX_ACTION:
            raise services.Rejection(400, "malformed", "malformed request: the action is too long")
        try:
            action = json.loads(raw) if raw else None
        except (json.JSONDecodeError, RecursionError):  # 10,000 brackets deep: refused
            raise services.Rejection(
                400, "malformed", "malformed request: the action is not JSON"
            ) from None
        bad_number = any(
            p.get(k) not in (None, "") and _int(p.get(k)) is None
            for k in ("version", "deal", "seat", "combination")
        )
        if bad_number:
            raise services.Rejection(400, "malformed", "malformed request: numbers expected")
        intent, combination = p.get("intent") or None, _int(p.get("combination"))
        if intent and ":" in intent:  # "add:3": the button of combination 3
            intent, _, cid = intent.partition(":")
            combination = _int(cid)
            if combination is None:
                raise services.Rejection(400, "malformed", "malformed request: bad combination")
        if action is None and not intent:
            raise services.Rejection(400, "malformed", "malformed request: no action")
        result = services.act(
            table_id,
            member_id=member_id,
            seat=_int(p.get("seat")),
            version=_int(p.get("version")),
            deal_id=_int(p.get("deal")),
            token=p.get("token") or None,
            action=action,
            intent=intent,
            cards=p.getlist("cards"),
            combination=combination,
            user_id=request.user.pk,
        )
        seating, member_id = result.seating, result.member_id
        deal, state = result.next_deal or result.deal, result.state
        if result.applied and result.next_deal is None:
            # The state this move made is the deal's at its new version: kept for the
            # table's other phones, whose refreshes this process may serve (games.play.kept)
            state = kept.keep(deal, state)
        if result.next_deal is not None:
            # The deal's end can change who sits where (a substitute's appointment lapses,
            # L6; rotation, L5; a redraw, L4): show the next deal to the seating it has.
            seating = club_api.table_seating(table_id)
            state = kept.state_of(result.next_deal)
            message = "The deal is over: the hands are shown below and the washbook line is posted."
        elif result.duplicate:
            message = "Already done (that click was counted once)."
        choices, question = result.choices, result.question
    except services.Rejection as e:
        status, message, law = e.status, e.message, e.law
        seating = club_api.table_seating(table_id)
        member_id = services.member_of_user(seating, request.user.pk)
        deal = services.current_deal(table_id)
        state = services.load_state(deal) if deal else None
    ctx = parts.live_context(
        bool(request.htmx), None, table_id, deal, state, seating, member_id,
        message=message, law=law, status=status, question=question,
        choices=[{"label": presenters.action_label(a, a.to_json()), "json": json.dumps(a.to_json())} for a in choices],
    )  # fmt: skip
    if request.htmx:
        return HttpResponse(parts.render(ctx), status=status)
    table = get_object_or_404(Table, pk=table_id)
    ctx["table"] = table
    ctx["live_html"] = parts.render(ctx | {"csrf_input": csrf_input(request)})
    ctx |= _club(table, deal, seating, ctx["me"])
    ctx["events_url"] = events_url(request, table_id, request.user.pk)
    return render(request, "games/table.html", ctx, status=status)
