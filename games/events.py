"""Live tables: server-sent events from the ASGI (uvicorn) process, fed by Redis pub/sub.

The page gets a short-lived signed token (user id + table id) so that the stream needs
no database session lookup. Events carry only ``{"version", "deal"}``: each browser then
fetches its own fragments, rendered from its own ``player_view``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.request import split_domain_port, validate_host
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from club import redis as club_redis

SALT = "games.events"
MAX_AGE = 8 * 3600  # a long evening; an expired stream falls back to polling
KEEPALIVE = 15.0

_clients: dict[int, aioredis.Redis] = {}


def event_token(user_id: int, table_id: int) -> str:
    return signing.dumps({"u": user_id, "t": table_id}, salt=SALT, compress=False)


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


def events_url(request: HttpRequest, table_id: int, user_id: int) -> str:
    path = reverse("games:events", args=[table_id])
    return f"{events_base(request)}{path}?t={event_token(user_id, table_id)}"


def check_token(token: str, table_id: int) -> bool:
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return False
    return isinstance(data, dict) and data.get("t") == table_id


def _client() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    c = _clients.get(id(loop))
    if c is None:
        c = _clients[id(loop)] = aioredis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, health_check_interval=30
        )
    return c


def _cors(request: HttpRequest, response: HttpResponse) -> HttpResponse:
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


def _event(data: bytes | str) -> str:
    text = data.decode() if isinstance(data, bytes) else data
    try:
        msg = json.loads(text)
        payload = json.dumps(
            {"version": int(msg["version"]), "deal": int(msg["deal"]), "at": msg.get("at")}
        )
    except (ValueError, KeyError, TypeError):
        payload = "{}"
    return f"event: update\ndata: {payload}\n\n"


async def _stream(table_id: int) -> AsyncIterator[str]:
    r = _client()
    pubsub = r.pubsub(ignore_subscribe_messages=True)
    channel = club_redis.key("table", table_id)
    await pubsub.subscribe(channel)
    try:
        yield "retry: 2000\n: connected\n\n"
        last = await r.get(club_redis.key("table", table_id, "last"))
        if last:
            yield _event(last)
        while True:
            msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=KEEPALIVE)
            if msg is None:
                yield ": keepalive\n\n"
            elif msg.get("type") == "message":
                yield _event(msg["data"])
    finally:
        try:
            await pubsub.unsubscribe(channel)
            await pubsub.aclose()
        except Exception:  # noqa: BLE001 - the connection may already be gone
            pass


@csrf_exempt
async def table_events(request: HttpRequest, table_id: int) -> HttpResponse:
    if request.method == "OPTIONS":
        return _cors(request, HttpResponse(status=204))
    if "wsgi.version" in request.META:
        # Streams belong to the events (uvicorn) process; a WSGI worker would be tied up.
        return _cors(request, HttpResponse("events are served by the events process", status=503))
    if not check_token(request.GET.get("t", ""), table_id):
        return _cors(request, HttpResponse("bad or expired token", status=403))
    response = StreamingHttpResponse(_stream(table_id), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"  # never kept by a cache or a proxy
    response["X-Accel-Buffering"] = "no"
    return _cors(request, response)
