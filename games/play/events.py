"""Live tables: server-sent events from the ASGI (uvicorn) process, fed by Redis pub/sub
(the machinery is the club's, `club.live.streams`).

The page gets a short-lived signed token (user id + table id) so that the stream needs
no database session lookup. The notices on the table's channel carry only ``{"version",
"deal"}`` (and ``"club"`` when more than a move changed, ``"by"`` the mover's user).
Each stream turns a move's notice into a ``live`` event: the viewer's live part, rendered
here for the token's user as his refresh would render it (`parts.part_of`: his own hand,
or the spectator's view), so his phone need not ask for it (issue 59). The deal and the
seating are read once a version for all the table's streams in this process. The mover's
own stream, a notice that is not a move's, and a render that fails send ``update``
instead: the page fetches its part, as it does when it polls or reconnects.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from . import club_api, kept, parts, reading
from .club_api import (
    MAX_AGE,
    club_language,
    events_base,
    grant,
    open_stream,
    refuse_outside_events_process,
    supported,
)
from .club_api import (
    check_token as _check,
)

__all__ = ["MAX_AGE", "check_token", "event_token", "events_base", "events_url", "table_events"]

SALT = "games.play.events"

log = logging.getLogger(__name__)


def event_token(user_id: int, table_id: int, grant: str, language: str = "") -> str:
    """A table's stream for this login (``grant``: `club.live.streams.grant`), its pushes
    in ``language``, the page's (issue 82: the events process reads no session)."""
    data = {"u": user_id, "t": table_id, "g": grant, "l": language}
    return signing.dumps(data, salt=SALT, compress=False)


def events_url(request: HttpRequest, table_id: int, user_id: int) -> str:
    path = reverse("games:events", args=[table_id])
    token = event_token(user_id, table_id, grant(request), translation.get_language() or "")
    return f"{events_base(request)}{path}?t={token}"


def check_token(token: str, table_id: int) -> dict[str, object] | None:
    return _check(token, table_id, key="t", salt=SALT)


def _event(data: bytes | str) -> str:
    """``update`` when the deal moved on (the live part refreshes), ``club`` when the club
    panel changed (a deal dealt or ended, or the club's side: seats, substitutes, the
    washbook, the redraw window, the evening; ``club.live.notices``), or both."""
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


def _sse(name: str, text: str) -> str:
    """One event; a multi-line ``text`` as one ``data:`` line each (the browser joins
    them with newlines)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return f"event: {name}\n" + "".join(f"data: {line}\n" for line in lines) + "\n"


# --- The push: each viewer's part, rendered in this process ---------------------------

_Read = tuple[tuple[int, int], Any, list[club_api.SeatInfo]]
_reads: dict[int, _Read] = {}  # table -> ((deal, version), deal, seating): the last read
_locks: dict[int, threading.Lock] = {}
_guard = threading.Lock()
_pool: ThreadPoolExecutor | None = None
READS_KEPT = 4096


def _read(table_id: int, deal_id: int, version: int, fresh: bool) -> tuple[Any, Any]:
    """The table's deal and seating at least as new as the notice's ``deal:version``,
    read once for all its streams (and its engine state loaded once, `kept`); ``fresh``
    (a notice of more than a move: a stop keeps the version) always reads anew."""
    with _guard:
        lock = _locks.setdefault(table_id, threading.Lock())
    with lock:
        hit = _reads.get(table_id)
        if hit is not None and not fresh and hit[0] >= (deal_id, version):
            return hit[1], hit[2]
        deal, seating = reading.deal_and_seating(table_id)
        if deal is not None:
            kept.state_of(deal)  # loaded here, once, not by each stream's render
            with _guard:
                if len(_reads) >= READS_KEPT:  # tables come and go over the evenings
                    _reads.clear()
                    _locks.clear()  # a lock held now still serves its holder
                _reads[table_id] = ((deal.pk, deal.version), deal, seating)
        return deal, seating


Viewer = tuple[int, str]  # a stream's user and the language his page was in


def render_pushes(
    table_id: int, users: frozenset[Viewer], deal_id: int, version: int, fresh: bool
) -> dict[Viewer, str | None]:
    """Each viewer's live part after the notice of ``deal:version``, in his language
    (None: no deal, or his render failed: he is told to fetch it), one job for all."""
    try:
        deal, seating = _read(table_id, deal_id, version, fresh)
        out: dict[Viewer, str | None] = {}
        shared: dict[str, dict[str, str | None]] = {}  # the spectators' part, a language
        for viewer in sorted(users, key=lambda v: v[1]):
            user, language = viewer
            try:
                with translation.override(supported(language) or club_language()):
                    out[viewer] = (
                        None
                        if deal is None
                        else parts.part_of(
                            table_id, user, deal, seating, shared.setdefault(language, {})
                        )
                    )
            except Exception:  # his page fetches its part instead
                log.warning("could not render table %s's part", table_id, exc_info=True)
                out[viewer] = None
        return out
    finally:
        close_old_connections()  # a pooled connection goes back; a broken one is dropped


def _renderer() -> ThreadPoolExecutor:
    global _pool
    with _guard:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=settings.EVENTS_RENDER_THREADS, thread_name_prefix="push"
            )
        return _pool


class _Batch:
    """The parts of one notice for every viewer of the table whose stream takes it in the
    same turn of the event loop (the process's one subscription hands a message to all
    the channel's streams at once, `club.live.streams._Hub`): one job renders them all, after
    one read, rather than a job and a thread's hand-over each."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.users: set[Viewer] = set()
        self.done: asyncio.Future[dict[Viewer, str | None] | None] = loop.create_future()


_batches: dict[tuple[int, str], _Batch] = {}  # (table, notice): a batch not yet started
_running: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references


def _start(key: tuple[int, str], batch: _Batch, deal: int, version: int, fresh: bool) -> None:
    task = asyncio.get_running_loop().create_task(_render_batch(key, batch, deal, version, fresh))
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _render_batch(
    key: tuple[int, str], batch: _Batch, deal: int, version: int, fresh: bool
) -> None:
    _batches.pop(key, None)  # later streams (another turn of the loop) start their own
    loop = asyncio.get_running_loop()
    try:
        out: dict[Viewer, str | None] | None = await loop.run_in_executor(
            _renderer(), render_pushes, key[0], frozenset(batch.users), deal, version, fresh
        )
    except Exception:  # every page fetches its part instead
        log.warning("could not push table %s's parts", key[0], exc_info=True)
        out = None
    batch.done.set_result(out)


class Pusher:
    """A table stream's encoder for one viewer: a move's notice becomes his part."""

    def __init__(self, table_id: int, user_id: int, language: str = "") -> None:
        self.table_id, self.user_id, self.language = table_id, user_id, language

    def __call__(self, data: bytes | str) -> str | Awaitable[str]:
        text = data.decode() if isinstance(data, bytes) else data
        try:
            msg = json.loads(text)
            deal_id, version = int(msg["deal"]), int(msg["version"])
        except (ValueError, KeyError, TypeError):
            return _event(data)
        if msg.get("by") == self.user_id or not settings.GAMES_PUSH_PARTS:
            return _event(data)  # the mover has the move's answer: told, not pushed
        club = msg.get("club") is True
        return self._push(text, deal_id, version, club, msg.get("at"))

    async def _push(self, text: str, deal_id: int, version: int, club: bool, at: object) -> str:
        key = (self.table_id, text)
        batch = _batches.get(key)
        if batch is None:
            loop = asyncio.get_running_loop()
            batch = _batches[key] = _Batch(loop)
            # started after every stream that took the notice in this turn has joined
            loop.call_soon(_start, key, batch, deal_id, version, club)
        batch.users.add((self.user_id, self.language))
        out = await asyncio.shield(batch.done)  # one stream closing leaves the others'
        html = out.get((self.user_id, self.language)) if out is not None else None
        if html is None:
            return _event(text)
        notice = json.dumps({"deal": deal_id, "version": version, "club": club})
        # The notice's time in a comment (a browser ignores it): the benches time a push
        # from the move's commit with it, as they do a notice
        pushed = (f": at {at}\n" if isinstance(at, float | int) else "") + _sse("live", html)
        return pushed + f"event: club\ndata: {notice}\n\n" if club else pushed


@csrf_exempt
async def table_events(request: HttpRequest, table_id: int) -> HttpResponse:
    refused = refuse_outside_events_process(request)
    if refused is not None:
        return refused
    data = check_token(request.GET.get("t", ""), table_id)
    user = int(str(data["u"])) if data is not None else 0
    language = str(data.get("l") or "") if data is not None else ""
    return await open_stream(request, data, "table", table_id, Pusher(table_id, user, language))
