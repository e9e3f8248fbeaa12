"""The table page and its fragments. Views stay thin: services hold the transactions.

One template, ``games/table.html``, with two live regions (``#live``: the deal as the
viewer sees it; ``#club``: seats, washbook and notices). HTMX requests get the region
(``games/table.html#live``), others the whole page, so everything works before
JavaScript loads.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import secrets
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from redis.exceptions import RedisError

from club.db import one_snapshot, snapshot
from club.inputs import parse_whole
from club.models import Table
from games.engine.errors import InvalidActionError
from games.engine.variant import find_variant

from ..models import Deal
from . import call_round, club_api, kept, presenters, services
from .events import events_url


def _live(
    request: HttpRequest,
    table: Table | None,
    table_id: int,
    deal: Deal | None,
    state: Any,
    seating: list[club_api.SeatInfo],
    member_id: int | None,
    **extra: Any,
) -> dict[str, Any]:
    me = services.seat_of(seating, member_id)
    ctx: dict[str, Any] = {"table_id": table_id, "table": table, "deal": deal, "me": me}
    if deal is None or state is None:
        return ctx | {"live": None, **extra}
    stopped = services.stopped_reason(deal)
    if me is not None and me < state.players:
        view = state.player_view(me)
        legal = state.legal_actions(me) if view.get("to_move") == me and not stopped else []
    else:
        me = None
        view = state.spectator_view()
        legal = []
    if stopped or (table is not None and table.status == Table.CLOSED):
        # Play has stopped here: nobody is to play (issue 56: a closed table's page still
        # said "Bob Smith to drop, or draw" with a "to play" tag).
        view = {**view, "to_move": None}
    elif call_round.is_open(deal):
        # Tonk's call round (TO5): open to everyone at once, nobody's turn; a hand that
        # may call has its button, every other hand nothing (issue 58)
        view = {**view, "to_move": None}
        called = me is not None and me in deal.called
        legal = call_round.options_for(state, me, called) if me is not None else []
        ctx["call_round"] = {
            "seconds": math.ceil(call_round.seconds_left(deal)),
            "called": called,
        }
    ctx["live"] = presenters.build(view, legal, seating, me=me)
    ctx["deal_end"] = _deal_end(deal, seating, me)
    ctx["closing"] = club_api.evening_notice(table_id) if state.is_over() else None
    ctx["stamp"] = services.stamp(deal)
    ctx["stopped"] = stopped
    ctx["token"] = secrets.token_urlsafe(12)
    ctx["me"] = me
    # the live part alone (an htmx request): its form posts with the page's CSRF header
    ctx["fragment"] = bool(getattr(request, "htmx", False))
    return ctx | extra


def _deal_end(deal: Deal, seating: list[club_api.SeatInfo], me: int | None) -> Any:
    """The end of the previous deal while the next one is young (GAMES_DEAL_END_SECONDS):
    who went out, every hand shown (L23), the points and the washbook line. Part of every
    render of the live region in that time, so a live refresh never wipes it."""
    if deal.number <= 1:
        return None
    age = (timezone.now() - deal.created_at).total_seconds()
    if age > settings.GAMES_DEAL_END_SECONDS:
        return None
    ended = _ended_before(deal)
    if ended is None:
        return None
    prev, line, won = ended
    names = presenters.named_seats(seating, prev.players, me)
    out = presenters.outcome_context(prev.outcome, names, find_variant(prev.variant))
    if out is None:
        return None
    game_over = deal.game_number > prev.game_number
    return {
        "deal": prev,
        "out": out,
        # The deal that ended a game (L5: a round of deals; Tunk's: one player left, K10):
        # say so, once, and who won it where the game says.
        "game_over": game_over,
        "game_winners": [names[s]["name"] + (" (you)" if s == me else "") for s in won],
        "game_law": find_variant(prev.variant).game_law,
        "next_game": deal.game_number,
        "line": line,
        "table_id": deal.table_id,
    }


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
    with snapshot():  # the page from one instant of the database (club/db.py)
        table = Table.objects.get(pk=table_id)
        deal = services.current_deal(table_id)
        seating = club_api.table_seating(table_id)
        member_id = services.member_of_user(seating, request.user.pk)
        state = kept.state_of(deal) if deal is not None else None
        ctx = _live(request, table, table_id, deal, state, seating, member_id)
        if request.htmx:
            return render(request, "games/table.html#live", ctx)
        ctx |= _club(table, deal, seating, ctx["me"])
        ctx["events_url"] = events_url(request, table_id, request.user.pk)
        ctx["unplayable"] = unplayable
        return render(request, "games/table.html", ctx)


@login_required
@require_GET
def state(request: HttpRequest, table_id: int) -> HttpResponse:
    """The viewer's live region; 204 when nothing changed since ``?since=deal:version``.
    The deal and the seating in one statement, one instant (no transaction, issue 59)."""
    deal, seating = services.deal_and_seating(table_id)
    if deal is None:
        return HttpResponse(status=204)
    if request.GET.get("since") == services.stamp(deal):
        return HttpResponse(status=204)
    member_id = services.member_of_user(seating, request.user.pk)
    if services.seat_of(seating, member_id) is None:
        shared = _spectators_live(request, table_id, deal, seating)
        if shared is not None:
            return HttpResponse(shared)
    ctx = _live(request, None, table_id, deal, kept.state_of(deal), seating, member_id)
    return render(request, "games/table.html#live", ctx)


# What differs between two spectators' copies of the same live part: the form's one-time
# token (a fragment carries no CSRF token: its form posts with the page's header).
# Rendered once with it in its place, and each copy given its own.
_TOKEN_SLOT = "token-slot-8d3f0c"


# The deal ends this process has read, by their cache key (below): a finished deal does
# not change, so a render need not ask Redis for it again (issue 59: a round trip on
# every render while a deal is young). Each render gets its own copy: no two requests
# share an object.
_Ended = tuple[Deal, int | None, tuple[int, ...]]
_ENDED: dict[str, _Ended] = {}
_ENDED_KEPT = 256


def _ended_before(deal: Deal) -> tuple[Deal, int | None, tuple[int, ...]] | None:
    """The deal before this one, finished, with its washbook line's number and the seats
    that won the game it ended (none where it ended none): read once and shared through
    the cache by every render of the table while this deal is young, on any web process,
    rather than two queries and a replay each (issue 59), and kept in the process too.
    A finished deal does not change. Keyed by this deal's seed too, as the spectators'
    part is (a restore from a backup)."""
    key = f"games:deal-end:{deal.table_id}:{deal.number}:{deal.seed}"
    kept = _ENDED.get(key)
    if kept is not None:
        return copy.deepcopy(kept)
    hit = None
    with contextlib.suppress(RedisError):
        hit = cache.get(key)
    if hit is None:
        hit = _read_ended_before(deal)
        if hit is None:
            return None  # not kept: a deal stopped in flight may still be ended
        with contextlib.suppress(RedisError):
            cache.set(key, hit, timeout=settings.GAMES_DEAL_END_SECONDS + 60)
    if len(_ENDED) >= _ENDED_KEPT:
        _ENDED.clear()
    _ENDED[key] = copy.deepcopy(hit)
    return cast(_Ended, hit)


def _read_ended_before(deal: Deal) -> tuple[Deal, int | None, tuple[int, ...]] | None:
    prev = services.previous_deal(deal)
    if prev is None or not prev.finished or not prev.outcome:
        return None
    game_over = deal.game_number > prev.game_number
    rules = find_variant(prev.variant)
    # The winners from the deal's last state, read apart: what the cache keeps of the deal
    # is its row without the snapshot, read by every render from the cache.
    full = Deal.objects.get(pk=prev.pk) if game_over else None
    won = tuple(rules.game_winners(services.load_state(full))) if full else ()
    return (prev, club_api.line_number(prev.washbook_line_id), won)


def _spectators_live(
    request: HttpRequest, table_id: int, deal: Deal, seating: list[club_api.SeatInfo]
) -> str | None:
    """The live part as every spectator sees it (no hand: the spectator's view), rendered
    once a version and shared through the cache by every spectator of the table, on any
    web process (issue 59). None where it is not the same for all of them for long: the
    call round's countdown, or a deal over (the evening's notice may change under it)."""
    if deal.finished or call_round.is_open(deal):
        return None
    # The end of the previous deal is shown while the deal is young: part of the key.
    young = deal.number > 1 and (
        (timezone.now() - deal.created_at).total_seconds() <= settings.GAMES_DEAL_END_SECONDS
    )
    # The deal's seed too: a deal id and version can come again after a restore from a
    # backup, never with the same random seed.
    key = f"games:live:spectators:{table_id}:{deal.seed}:{services.stamp(deal)}:{int(young)}"
    try:
        html, cache_up = cache.get(key), True
    except RedisError:  # the cache down: rendered for this one alone, not kept
        html, cache_up = None, False
    if not isinstance(html, str):
        ctx = _live(request, None, table_id, deal, kept.state_of(deal), seating, None)
        ctx |= {"token": _TOKEN_SLOT, "fragment": True}
        html = render_to_string("games/table.html#live", ctx)
        if cache_up:
            with contextlib.suppress(RedisError):
                cache.set(key, html, timeout=settings.GAMES_DEAL_END_SECONDS + 600)
    return html.replace(_TOKEN_SLOT, secrets.token_urlsafe(12))


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
    (club.inputs; "²" passes isdigit and "٣" passes int), else None."""
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
    ctx = _live(
        request, None, table_id, deal, state, seating, member_id,
        message=message, law=law, status=status, question=question,
        choices=[{"label": presenters.action_label(a, a.to_json()), "json": json.dumps(a.to_json())} for a in choices],
    )  # fmt: skip
    if request.htmx:
        return render(request, "games/table.html#live", ctx, status=status)
    table = get_object_or_404(Table, pk=table_id)
    ctx["table"] = table
    ctx |= _club(table, deal, seating, ctx["me"])
    ctx["events_url"] = events_url(request, table_id, request.user.pk)
    return render(request, "games/table.html", ctx, status=status)
