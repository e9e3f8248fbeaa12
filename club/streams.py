"""Server-sent events from the ASGI (uvicorn) process, fed by Redis pub/sub.

The machinery every live page shares: where a page finds the stream (`events_base`), the
cross-origin answer (`cors`), and the stream of one channel (`stream`). The tables'
stream is the games app's (`games.events`); the evening's, for the secretary's console,
is here (`session_events`; `club.live` publishes on it). A page gets a short-lived
signed token so that a stream needs no database session lookup.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

import redis.asyncio as aioredis
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.request import split_domain_port, validate_host
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from . import redis as club_redis

MAX_AGE = 8 * 3600  # a long evening; an expired stream falls back to polling
KEEPALIVE = 15.0
SESSION_SALT = "club.console.events"

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


def check_token(token: str, pk: int, *, key: str, salt: str) -> bool:
    try:
        data = signing.loads(token, salt=salt, max_age=MAX_AGE)
    except signing.BadSignature:
        return False
    return isinstance(data, dict) and data.get(key) == pk


def _client() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    c = _clients.get(id(loop))
    if c is None:
        c = _clients[id(loop)] = aioredis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, health_check_interval=30
        )
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


async def stream(kind: str, pk: int, encode: Callable[[bytes | str], str]) -> AsyncIterator[str]:
    """The events of one channel (``kind``:``pk``), starting with its last one."""
    r = _client()
    pubsub = r.pubsub(ignore_subscribe_messages=True)
    channel = club_redis.key(kind, pk)
    await pubsub.subscribe(channel)
    try:
        yield "retry: 2000\n: connected\n\n"
        last = await r.get(club_redis.key(kind, pk, "last"))
        if last:
            yield encode(last)
        while True:
            msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=KEEPALIVE)
            if msg is None:
                yield ": keepalive\n\n"
            elif msg.get("type") == "message":
                yield encode(msg["data"])
    finally:
        try:
            await pubsub.unsubscribe(channel)
            await pubsub.aclose()
        except Exception:  # noqa: BLE001 - the connection may already be gone
            pass


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


def session_token(user_id: int, session_id: int) -> str:
    """For the secretary's console (the page that issues it is the secretary's only)."""
    return signing.dumps({"u": user_id, "s": session_id}, salt=SESSION_SALT, compress=False)


def session_events_url(request: HttpRequest, session_id: int, user_id: int) -> str:
    path = reverse("club:session_events", args=[session_id])
    return f"{events_base(request)}{path}?t={session_token(user_id, session_id)}"


def _session_event(data: bytes | str) -> str:
    text = data.decode() if isinstance(data, bytes) else data
    try:
        payload = json.dumps({"at": float(json.loads(text)["at"])})
    except (ValueError, KeyError, TypeError):
        payload = "{}"
    return f"event: update\ndata: {payload}\n\n"


@csrf_exempt
async def session_events(request: HttpRequest, session_id: int) -> HttpResponse:
    refused = refuse_outside_events_process(request)
    if refused is not None:
        return refused
    if not check_token(request.GET.get("t", ""), session_id, key="s", salt=SESSION_SALT):
        return cors(request, HttpResponse("bad or expired token", status=403))
    return streaming(request, stream("session", session_id, _session_event))
