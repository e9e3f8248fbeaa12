"""The live part of a table: the deal as one viewer sees it (``#live`` on the table's
page; ``templates/jinja2/games/live.html``, rendered by :func:`render`), for the table's
page, its refresh, a move's answer and the push on the table's stream
(`games.play.events`).

What a viewer is shown is decided here and only here: a seated player his own hand and
his legal plays, anyone else the spectator's view (no hand). The page's refresh and the
stream's push render through `part_for`, so the two cannot differ.
"""

from __future__ import annotations

import contextlib
import functools
import math
import secrets
from typing import Any, cast

from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import SafeString
from redis.exceptions import RedisError

from games.engine.variant import find_variant
from games.engine.words import speaking

from ..models import Deal
from . import call_round, club_api, kept, live_template, presenters, reading

TEMPLATE = "games/live.html"  # in Jinja2 (games.play.live_template)


@functools.lru_cache(maxsize=4096)
def act_url(table_id: int) -> str:
    """Where the live part's form posts: reversed once a table, not twice a render."""
    return reverse("games:act", args=[table_id])


def render(ctx: dict[str, Any]) -> SafeString:
    """The live part from :func:`live_context`'s context; a whole page's (not a fragment)
    has its form's CSRF field in ``csrf_input``."""
    return live_template.render(TEMPLATE, ctx)


def live_context(
    fragment: bool,
    table: club_api.Table | None,
    table_id: int,
    deal: Deal | None,
    state: Any,
    seating: list[club_api.SeatInfo],
    member_id: int | None,
    **extra: Any,
) -> dict[str, Any]:
    me = reading.seat_of(seating, member_id)
    ctx: dict[str, Any] = {
        "table_id": table_id, "table": table, "deal": deal, "me": me,
        "act_url": act_url(table_id),
    }  # fmt: skip
    if deal is None or state is None:
        return ctx | {"live": None, **extra}
    stopped = reading.stopped_reason(deal)
    if me is not None and me < state.players:
        with speaking(presenters.reader()):  # the view's reasons in the reader's language
            view = state.player_view(me)
        legal = state.legal_actions(me) if view.get("to_move") == me and not stopped else []
    else:
        me = None
        with speaking(presenters.reader()):
            view = state.spectator_view()
        legal = []
    if stopped or (table is not None and table.status == club_api.Table.CLOSED):
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
    ctx["deal_end"] = deal_end(deal, seating, me)
    ctx["closing"] = club_api.evening_notice(table_id) if state.is_over() else None
    ctx["stamp"] = reading.stamp(deal)
    ctx["stopped"] = stopped
    ctx["token"] = secrets.token_urlsafe(12)
    ctx["me"] = me
    # the live part alone (an htmx request, a push): its form posts with the page's CSRF
    # header, not a field of its own
    ctx["fragment"] = fragment
    return ctx | extra


def deal_end(deal: Deal, seating: list[club_api.SeatInfo], me: int | None) -> Any:
    """The end of the previous deal while the next one is young (GAMES_DEAL_END_SECONDS):
    who went out, every hand shown (L23), the points and the washbook line. Part of every
    render of the live region in that time, so a live refresh never wipes it."""
    if deal.number <= 1:
        return None
    age = (timezone.now() - deal.created_at).total_seconds()
    if age > settings.GAMES_DEAL_END_SECONDS:
        return None
    ended = ended_before(deal)
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


# What differs between two spectators' copies of the same live part: the form's one-time
# token (a fragment carries no CSRF token: its form posts with the page's header).
# Rendered once with it in its place, and each copy given its own.
_TOKEN_SLOT = "token-slot-8d3f0c"


# The deal ends this process has read, by their cache key (below): a finished deal does
# not change, so a render need not ask Redis for it again (issue 59: a round trip on
# every render while a deal is young). Shared by every render and thread, read only:
# nothing renders a deal's end by changing it (a deep copy each render was 3.5% of a
# move's request while its deal was young, the first GAMES_DEAL_END_SECONDS of each).
_Ended = tuple[Deal, int | None, tuple[int, ...]]
_ENDED: dict[str, _Ended] = {}
_ENDED_KEPT = 256


def ended_before(deal: Deal) -> tuple[Deal, int | None, tuple[int, ...]] | None:
    """The deal before this one, finished, with its washbook line's number and the seats
    that won the game it ended (none where it ended none): read once and shared through
    the cache by every render of the table while this deal is young, on any web process,
    rather than two queries and a replay each (issue 59), and kept in the process too.
    A finished deal does not change. Keyed by this deal's seed too, as the spectators'
    part is (a restore from a backup)."""
    key = f"games:deal-end:{deal.table_id}:{deal.number}:{deal.seed}"
    kept = _ENDED.get(key)
    if kept is not None:
        return kept
    hit = None
    with contextlib.suppress(RedisError):
        hit = cache.get(key)
    if hit is None:
        hit = _readended_before(deal)
        if hit is None:
            return None  # not kept: a deal stopped in flight may still be ended
        with contextlib.suppress(RedisError):
            cache.set(key, hit, timeout=settings.GAMES_DEAL_END_SECONDS + 60)
    if len(_ENDED) >= _ENDED_KEPT:
        _ENDED.clear()
    _ENDED[key] = cast(_Ended, hit)
    return _ENDED[key]


def _readended_before(deal: Deal) -> tuple[Deal, int | None, tuple[int, ...]] | None:
    prev = reading.previous_deal(deal)
    if prev is None or not prev.finished or not prev.outcome:
        return None
    game_over = deal.game_number > prev.game_number
    rules = find_variant(prev.variant)
    # The winners from the deal's last state, read apart: what the cache keeps of the deal
    # is its row without the snapshot, read by every render from the cache.
    full = Deal.objects.get(pk=prev.pk) if game_over else None
    won = tuple(rules.game_winners(reading.load_state(full))) if full else ()
    return (prev, club_api.line_number(prev.washbook_line_id), won)


def spectators_html(table_id: int, deal: Deal, seating: list[club_api.SeatInfo]) -> str | None:
    """The live part as every spectator sees it (no hand: the spectator's view), rendered
    once a version and shared through the cache by every spectator of the table, on any
    web process (issue 59), its form's one-time token a slot each copy fills (`part_of`).
    None where it is not the same for all of them for long: the call round's countdown,
    or a deal over (the evening's notice may change under it)."""
    if deal.finished or call_round.is_open(deal):
        return None
    # The end of the previous deal is shown while the deal is young: part of the key.
    young = deal.number > 1 and (
        (timezone.now() - deal.created_at).total_seconds() <= settings.GAMES_DEAL_END_SECONDS
    )
    # The deal's seed too: a deal id and version can come again after a restore from a
    # backup, never with the same random seed.
    # in the reader's language: a Spanish spectator's copy is not an English one's (issue 82)
    language = translation.get_language() or ""
    key = (
        f"games:live:spectators:{table_id}:{deal.seed}:{reading.stamp(deal)}:{int(young)}"
        f":{language}"
    )
    try:
        html, cache_up = cache.get(key), True
    except RedisError:  # the cache down: rendered for this one alone, not kept
        html, cache_up = None, False
    if not isinstance(html, str):
        ctx = live_context(True, None, table_id, deal, kept.state_of(deal), seating, None)
        ctx |= {"token": _TOKEN_SLOT, "fragment": True}
        html = render(ctx)
        if cache_up:
            with contextlib.suppress(RedisError):
                cache.set(key, html, timeout=settings.GAMES_DEAL_END_SECONDS + 600)
    return html


def part_for(table_id: int, user_id: int, since: str | None = None) -> str | None:
    """The live part as ``user_id`` sees it now, as a fragment; None when the table has
    no deal, or the deal is still at ``since`` (``deal:version``, what the page shows).
    The deal and the seating in one statement, one instant (no transaction, issue 59);
    a seat is found from the seating, so a user not seated here is a spectator."""
    deal, seating = reading.deal_and_seating(table_id)
    if deal is None or since == reading.stamp(deal):
        return None
    return part_of(table_id, user_id, deal, seating)


def part_of(
    table_id: int,
    user_id: int,
    deal: Deal,
    seating: list[club_api.SeatInfo],
    shared: dict[str, str | None] | None = None,
) -> str:
    """The live part of ``deal`` as ``user_id`` sees it, from a deal and seating read.
    ``shared``: kept across the calls for one read (a table's pushes), so that its
    spectators' part is fetched from the cache once, not once a spectator."""
    member_id = reading.member_of_user(seating, user_id)
    if reading.seat_of(seating, member_id) is None:
        if shared is None:
            shared = {}
        if "spectators" not in shared:
            shared["spectators"] = spectators_html(table_id, deal, seating)
        html = shared["spectators"]
        if html is not None:
            return html.replace(_TOKEN_SLOT, secrets.token_urlsafe(12))
    ctx = live_context(True, None, table_id, deal, kept.state_of(deal), seating, member_id)
    return render(ctx)
