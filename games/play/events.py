"""Live tables: server-sent events from the ASGI (uvicorn) process, fed by Redis pub/sub
(the machinery is the club's, `club.streams`).

The page gets a short-lived signed token (user id + table id) so that the stream needs
no database session lookup. Events carry only ``{"version", "deal"}`` (and ``"club"``
when more than a move changed): each browser then fetches its own fragments, rendered
from its own ``player_view``, unless it shows that version already.
"""

from __future__ import annotations

import json

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from club.streams import (
    MAX_AGE,
    events_base,
    grant,
    open_stream,
    refuse_outside_events_process,
)
from club.streams import (
    check_token as _check,
)

__all__ = ["MAX_AGE", "check_token", "event_token", "events_base", "events_url", "table_events"]

SALT = "games.play.events"


def event_token(user_id: int, table_id: int, grant: str) -> str:
    """A table's stream for this login (``grant``: `club.streams.grant`)."""
    return signing.dumps({"u": user_id, "t": table_id, "g": grant}, salt=SALT, compress=False)


def events_url(request: HttpRequest, table_id: int, user_id: int) -> str:
    path = reverse("games:events", args=[table_id])
    return f"{events_base(request)}{path}?t={event_token(user_id, table_id, grant(request))}"


def check_token(token: str, table_id: int) -> dict[str, object] | None:
    return _check(token, table_id, key="t", salt=SALT)


def _event(data: bytes | str) -> str:
    """``update`` when the deal moved on (the live part refreshes), ``club`` when the club
    panel changed (a deal dealt or ended, or the club's side: seats, substitutes, the
    washbook, the redraw window, the evening; ``club.live``), or both."""
    text = data.decode() if isinstance(data, bytes) else data
    try:
        msg = json.loads(text)
        club = msg.get("club") is True
        if club and "version" not in msg:
            return f"event: club\ndata: {json.dumps({'at': msg.get('at')})}\n\n"
        notice = {"version": int(msg["version"]), "deal": int(msg["deal"]), "at": msg.get("at")}
        # "club" on a move's notice too: a deal dealt or ended, play stopped, the club's
        # side changed. A page that shows the version already skips only a notice without
        # it (static/js/table.js; a stop keeps the deal's version).
        payload = json.dumps(notice | {"club": True} if club else notice)
    except (ValueError, KeyError, TypeError, AttributeError):
        return "event: update\ndata: {}\n\n"
    update = f"event: update\ndata: {payload}\n\n"
    return update + f"event: club\ndata: {payload}\n\n" if club else update


@csrf_exempt
async def table_events(request: HttpRequest, table_id: int) -> HttpResponse:
    refused = refuse_outside_events_process(request)
    if refused is not None:
        return refused
    data = check_token(request.GET.get("t", ""), table_id)
    return await open_stream(request, data, "table", table_id, _event)
