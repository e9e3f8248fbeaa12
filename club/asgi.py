"""ASGI entry point, used only for the live-update event stream (/events/...).

Ordinary pages are served by gunicorn (WSGI): Django under ASGI is several times
slower for synchronous views. So this process answers the stream and its health check
and nothing else (issue 79: it served /login/, /admin/ and the members' payments):
every other path is a 404 before Django sees it.
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
django_application = get_asgi_application()

NOT_HERE = b"Not found: this process serves the live-update stream (/events/) only.\n"


def served(path: str) -> bool:
    """The paths this process answers: the event streams and /healthz."""
    return path.startswith("/events/") or path == "/healthz"


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and not served(str(scope.get("path", ""))):
        await send({
            "type": "http.response.start", "status": 404,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                        (b"cache-control", b"no-store")],
        })  # fmt: skip
        await send({"type": "http.response.body", "body": NOT_HERE})
        return
    await django_application(scope, receive, send)
