"""Server-sent events from the ASGI (uvicorn) process, fed by Redis pub/sub.

The machinery every live page shares: where a page finds the stream (`events_base`), the
cross-origin answer (`cors`), and the stream of one channel (`stream`). The tables'
stream is the games app's (`games.play.events`); the evening's, for the secretary's console,
is here (`session_events`; `club.live.notices` publishes on it). A page gets a short-lived
signed token so that a stream needs no database session lookup.

A token is bound to the login it was issued to (issue 37): each login gets a random
**grant**, kept in Redis while it lasts (`grant`), named in its tokens. Logging out ends
the grant, and so do changes to the user's rights (staff, active: `revoke_user`); a
stream checks its grant when it opens and at each keepalive, and ends when it is gone.
A user has at most MAX_STREAMS open at once: the next is refused (429), and the page
falls back to polling, as it does whenever its stream is refused or drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import redis.asyncio as aioredis
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.request import split_domain_port, validate_host
from django.urls import reverse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from club.infra import redis as club_redis

MAX_AGE = 8 * 3600  # a long evening; an expired stream falls back to polling
KEEPALIVE = float(os.environ.get("EVENTS_KEEPALIVE", "15"))  # seconds; tests shorten it
SESSION_SALT = "club.console.events"
MAX_STREAMS = 40  # per user: a club night's tabs and phones, never a flood
GRANT = "stream_grant"  # its key in the Django session

logger = logging.getLogger(__name__)

# What a stream sends for each message of its channel: an event's text, or (a table's
# stream, which renders the viewer's part) an awaitable of it.
Encode = Callable[[bytes | str], str | Awaitable[str]]


# --- Grants: a login's right to streams ---------------------------------------------------


def _grant_key(grant: str) -> str:
    return club_redis.key("stream-grant", grant)


def grant_for(user_id: int, grant: str | None = None) -> str:
    """Keep (or make) a grant for ``user_id`` in Redis for MAX_AGE; return it. With Redis
    down the page still renders: its stream is refused and it polls."""
    grant = grant or secrets.token_urlsafe(18)
    try:
        r = club_redis.client()
        pipe = r.pipeline()
        pipe.set(_grant_key(grant), str(user_id), ex=MAX_AGE)
        pipe.sadd(club_redis.key("stream-grants", user_id), grant)
        pipe.expire(club_redis.key("stream-grants", user_id), MAX_AGE)
        pipe.execute()
    except Exception:
        logger.warning("could not record a stream grant", exc_info=True)
    return grant


def grant(request: HttpRequest) -> str:
    """This login's grant (made on its first live page, refreshed on each)."""
    existing = request.session.get(GRANT)
    made = grant_for(int(request.user.pk), existing)
    if existing != made:
        request.session[GRANT] = made
    return made


def end_grant(request: HttpRequest) -> None:
    """At logout: this login's streams end (at their next keepalive) and its tokens die."""
    grant = request.session.get(GRANT) if hasattr(request, "session") else None
    if grant:
        try:
            club_redis.client().delete(_grant_key(grant))
        except Exception:
            logger.warning("could not end a stream grant", exc_info=True)


def revoke_user(user_id: int) -> None:
    """The user's rights changed (staff, active): every grant of his ends."""
    try:
        r = club_redis.client()
        grants = r.smembers(club_redis.key("stream-grants", user_id))
        keys = [_grant_key(g.decode() if isinstance(g, bytes) else g) for g in grants]
        r.delete(*keys, club_redis.key("stream-grants", user_id))
    except Exception:
        logger.warning("could not revoke the stream grants of user %s", user_id, exc_info=True)


async def _granted(data: dict[str, object]) -> bool:
    grant = data.get("g")
    if not isinstance(grant, str):
        return False
    held = await _client().get(_grant_key(grant))
    return held is not None and held.decode() == str(data.get("u"))


_clients: dict[int, aioredis.Redis] = {}


def events_base(request: HttpRequest) -> str:
    """Where the page finds the stream: EVENTS_URL if set (a deployment's own address);
    else, with EVENTS_PORT (`make run`), that port on the host the page was loaded from,
    so a phone that opened the club by the laptop's address streams from that address;
    else "" (the same origin)."""
    if settings.EVENTS_URL:
        return str(settings.EVENTS_URL).rstrip("/")
    if settings.EVENTS_PORT:
        domain, _port = split_domain_port(request.get_host())  # IPv6 keeps its brackets
        return f"{request.scheme}://{domain}:{settings.EVENTS_PORT}"
    return ""


def check_token(token: str, pk: int, *, key: str, salt: str) -> dict[str, object] | None:
    """The token's data when it is signed, fresh and for ``pk``; else None."""
    try:
        data = signing.loads(token, salt=salt, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    return data if isinstance(data, dict) and data.get(key) == pk else None


async def open_stream(
    request: HttpRequest,
    data: dict[str, object] | None,
    kind: str,
    pk: int,
    encode: Encode,
) -> HttpResponse:
    """The stream a token opens: refused (403) without a live grant, (429) past the
    user's MAX_STREAMS."""
    if data is None:
        return cors(request, HttpResponse("bad or expired token", status=403))
    try:
        granted, ticket = await _admit(data)
    except Exception:  # Redis down, or no connection free in time: the page polls
        logger.warning("could not admit a stream", exc_info=True)
        return cors(request, HttpResponse("live updates are unavailable", status=503))
    if not granted:
        return cors(request, HttpResponse("logged out, or rights changed", status=403))
    if ticket is None:
        return cors(
            request,
            HttpResponse(f"at most {MAX_STREAMS} live pages at once: this one polls", status=429),
        )
    return streaming(request, stream(kind, pk, encode, data=data, ticket=ticket))


def _open_key(user_id: int) -> str:
    return club_redis.key("streams-open", user_id)


async def _admit(data: dict[str, object]) -> tuple[bool, str | None]:
    """Whether the token's grant is live, and a ticket for one more open stream of its
    user (None past MAX_STREAMS), in one round trip to Redis (five before, issue 59).
    Streams are a sorted set by their last keepalive: one whose process died drops out."""
    grant = data.get("g")
    if not isinstance(grant, str):
        return False, None
    r, ticket, now = _client(), secrets.token_hex(8), time.time()
    key = _open_key(int(str(data["u"])))
    async with r.pipeline(transaction=False) as pipe:
        pipe.get(_grant_key(grant))
        pipe.zremrangebyscore(key, 0, now - 3 * KEEPALIVE)
        pipe.zadd(key, {ticket: now})
        pipe.expire(key, int(4 * KEEPALIVE))
        pipe.zcard(key)
        held, _, _, _, count = await pipe.execute()
    granted = held is not None and held.decode() == str(data.get("u"))
    if not granted or count > MAX_STREAMS:
        await r.zrem(key, ticket)
        return granted, None
    return True, ticket


def _client() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    c = _clients.get(id(loop))
    if c is None:
        # A bounded pool that queues: a burst of streams opening at once (a room's phones
        # reconnecting after the Wi-Fi came back) waits for a connection rather than
        # opening one each (750 at once timed out connecting on a busy machine, and a
        # pool's ceiling refused the rest: 503s, issue 59). The streams hold none.
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, health_check_interval=30,
            max_connections=settings.EVENTS_REDIS_CONNECTIONS, timeout=10,
        )  # fmt: skip
        c = _clients[id(loop)] = aioredis.Redis(connection_pool=pool)
    return c


def cors(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """EVENTS_URL may be another origin (port): allow the page's own origin, with cookies."""
    origin = request.headers.get("Origin")
    if origin:
        host = origin.split("://", 1)[-1]
        domain, _port = split_domain_port(host)
        allowed = settings.ALLOWED_HOSTS or ["localhost", "127.0.0.1", "[::1]"]
        if domain and validate_host(domain, allowed):
            response["Access-Control-Allow-Origin"] = origin
            response["Access-Control-Allow-Credentials"] = "true"
    response["Vary"] = "Origin"
    return response


class _Hub:
    """One Redis subscription a process (an event loop) for every channel its streams
    follow, each message handed to every stream of its channel (issue 59). A stream per
    subscription read and parsed each table's message five times, once a phone, on as many
    Redis connections; and a table's streams now take a message in the same turn of the
    loop, so its parts are rendered together (`games.play.events`). Redis lost: every
    stream is ended (its page reconnects, or polls) and the next one makes a new hub."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.pubsub = client.pubsub(ignore_subscribe_messages=True)
        self.queues: dict[str, set[asyncio.Queue[bytes | str | None]]] = {}
        self.lock = asyncio.Lock()
        self.reader: asyncio.Task[None] | None = None
        self.broken = False

    async def join(self, channel: str) -> asyncio.Queue[bytes | str | None]:
        queue: asyncio.Queue[bytes | str | None] = asyncio.Queue()
        async with self.lock:
            if channel not in self.queues:
                await self.pubsub.subscribe(channel)
            self.queues.setdefault(channel, set()).add(queue)
            if self.reader is None:
                self.reader = asyncio.get_running_loop().create_task(self._read())
        return queue

    async def leave(self, channel: str, queue: asyncio.Queue[bytes | str | None]) -> None:
        async with self.lock:
            queues = self.queues.get(channel)
            if queues is None:
                return
            queues.discard(queue)
            if not queues:
                del self.queues[channel]
                if not self.broken:
                    with contextlib.suppress(Exception):  # the hub may be going down
                        await self.pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        try:
            while True:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if msg is None or msg.get("type") != "message":
                    continue
                channel = msg["channel"]
                channel = channel.decode() if isinstance(channel, bytes) else channel
                for queue in list(self.queues.get(channel, ())):
                    queue.put_nowait(msg["data"])
        except Exception:  # Redis gone: every stream ends
            logger.warning("the events process lost its Redis subscription", exc_info=True)
            self.broken = True
            _hubs.pop(id(asyncio.get_running_loop()), None)
            for queues in self.queues.values():
                for queue in queues:
                    queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()


_hubs: dict[int, _Hub] = {}


def _hub() -> _Hub:
    loop_id = id(asyncio.get_running_loop())
    hub = _hubs.get(loop_id)
    if hub is None:
        hub = _hubs[loop_id] = _Hub(_client())
    return hub


_DUE = object()  # the keepalive's time came before a message


async def stream(
    kind: str,
    pk: int,
    encode: Encode,
    *,
    data: dict[str, object] | None = None,
    ticket: str | None = None,
) -> AsyncIterator[str]:
    """The events of one channel (``kind``:``pk``), starting with its last one; with a
    token's ``data``, ending when its grant does (checked at each keepalive), its
    ``ticket`` among the user's open streams kept fresh meanwhile and dropped at the end.
    The channel's messages come through the process's one subscription (`_Hub`)."""
    r = _client()
    open_key = _open_key(int(str(data["u"]))) if data is not None and ticket else None
    channel = club_redis.key(kind, pk)
    hub = _hub()
    queue = await hub.join(channel)
    try:
        yield "retry: 2000\n: connected\n\n"
        last = await r.get(club_redis.key(kind, pk, "last"))
        if last:
            yield await _encoded(encode, last)
        # The grant is checked every KEEPALIVE seconds, busy or idle: a stream whose
        # messages came faster than that once never checked it, and a phone signed out
        # everywhere kept receiving its table (issue 78).
        due = time.monotonic() + KEEPALIVE
        while True:
            try:
                wait = max(due - time.monotonic(), 0.0)
                message = await asyncio.wait_for(queue.get(), timeout=wait)
            except TimeoutError:
                message = _DUE
            if message is _DUE or time.monotonic() >= due:
                due = time.monotonic() + KEEPALIVE
                if data is not None and not await _granted(data):
                    yield "event: ended\ndata: {}\n\n"
                    return
                if open_key is not None:
                    await r.zadd(open_key, {ticket: time.time()})
                if message is _DUE:
                    yield ": keepalive\n\n"
                    continue
            if message is None:
                return  # Redis lost: the page reconnects, or polls
            yield await _encoded(encode, message)
    finally:
        try:
            if open_key is not None:
                await r.zrem(open_key, ticket)
        except Exception:  # noqa: BLE001 - the connection may already be gone
            pass
        await hub.leave(channel, queue)


async def _encoded(encode: Encode, data: bytes | str) -> str:
    out = encode(data)
    return out if isinstance(out, str) else await out


def refuse_outside_events_process(request: HttpRequest) -> HttpResponse | None:
    """The preflight's answer, or a refusal under WSGI (a stream would tie up a worker)."""
    if request.method == "OPTIONS":
        return cors(request, HttpResponse(status=204))
    if "wsgi.version" in request.META:
        return cors(request, HttpResponse("events are served by the events process", status=503))
    return None


def streaming(request: HttpRequest, events: AsyncIterator[str]) -> HttpResponse:
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"  # never kept by a cache or a proxy
    response["X-Accel-Buffering"] = "no"
    return cors(request, response)


# --- The evening's stream (the secretary's console) ----------------------------------------


def session_token(user_id: int, session_id: int, grant: str, language: str = "") -> str:
    """For the secretary's console (the page that issues it is the secretary's only), in
    ``language``, the page's (the events process reads no session)."""
    return signing.dumps(
        {"u": user_id, "s": session_id, "g": grant, "l": language},
        salt=SESSION_SALT,
        compress=False,
    )


def session_events_url(request: HttpRequest, session_id: int, user_id: int) -> str:
    path = reverse("club:session_events", args=[session_id])
    token = session_token(user_id, session_id, grant(request), translation.get_language() or "")
    return f"{events_base(request)}{path}?t={token}"


def _session_event(data: bytes | str, language: str = "") -> str:
    """A notice for the console: ``line-<table>`` with that table's progress line in the
    console's ``language`` when a move within a deal was made at an online table (swapped
    in as it comes),
    ``move-<table>`` when its deal was dealt, ended or stopped (the console fetches that
    line alone), else ``update`` (the evening changed: its live part is fetched again)."""
    text = data.decode() if isinstance(data, bytes) else data
    try:
        notice = json.loads(text)
        at = float(notice["at"])
    except (ValueError, KeyError, TypeError):
        return "event: update\ndata: {}\n\n"
    table = notice.get("table") if isinstance(notice, dict) else None
    if isinstance(table, int) and not isinstance(table, bool) and table > 0:
        lines = notice.get("lines")
        line = (
            lines.get(language) or lines.get(settings.LANGUAGE_CODE)
            if isinstance(lines, dict)
            else None
        )
        if isinstance(line, str) and line.strip():
            # The line itself, swapped in (sse-swap): no fetch a move (issue 59). One line
            # of escaped text; its id the notice's time.
            text = html.escape(" ".join(line.split()))
            return f"event: line-{table}\nid: {at}\ndata: {text}\n\n"
        return f"event: move-{table}\ndata: {json.dumps({'at': at, 'table': table})}\n\n"
    return f"event: update\ndata: {json.dumps({'at': at})}\n\n"


@csrf_exempt
async def session_events(request: HttpRequest, session_id: int) -> HttpResponse:
    refused = refuse_outside_events_process(request)
    if refused is not None:
        return refused
    data = check_token(request.GET.get("t", ""), session_id, key="s", salt=SESSION_SALT)
    language = str(data.get("l") or "") if data is not None else ""
    return await open_stream(
        request, data, "session", session_id, functools.partial(_session_event, language=language)
    )
