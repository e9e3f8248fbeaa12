"""Work a request starts that its answer need not wait for: run once the answer is sent.

A move's notice to the table's other phones and consoles, and the next computer player's
task, are a round trip to Redis each; the mover's own answer has no use for them. Inside
a request (:class:`AfterResponseMiddleware`) :func:`after_response` keeps the work until
the server has written the answer and closes the response (WSGI's ``close()``, which
gunicorn, wsgiref and Django's test client all call, the test client before its call
returns); outside one (a Celery task, a command, a test calling the services) it runs at
once. A failure is logged, never raised: the answer has gone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponseBase

from club.infra.middleware import HybridMiddleware

log = logging.getLogger(__name__)

_pending: ContextVar[list[Callable[[], None]] | None] = ContextVar(
    "club_after_response", default=None
)


def after_response(work: Callable[[], None]) -> None:
    """Run ``work`` once this request's answer is sent; at once outside a request."""
    pending = _pending.get()
    if pending is None:
        work()
    else:
        pending.append(work)


def _run(pending: list[Callable[[], None]]) -> None:
    for work in pending:
        try:
            work()
        except Exception:  # the answer has gone: nobody to tell but the log
            log.exception("work after the response failed")


def _attach(response: HttpResponseBase, pending: list[Callable[[], None]]) -> HttpResponseBase:
    if pending:
        # Django's own list of what a response's close() runs (FileResponse's file);
        # close() runs it before the request_finished signal, whose handler tidies the
        # database connection this work may still use.
        response._resource_closers.append(lambda: _run(pending))
    return response


class AfterResponseMiddleware(HybridMiddleware):
    """Outermost: the response it holds is the one the server sends."""

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self._acall(request)
        pending: list[Callable[[], None]] = []
        token = _pending.set(pending)
        try:
            response = self.get_response(request)
        except BaseException:
            _pending.reset(token)
            _run(pending)  # nothing will be sent by us: do it now rather than lose it
            raise
        _pending.reset(token)
        return _attach(response, pending)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        pending: list[Callable[[], None]] = []
        token = _pending.set(pending)
        try:
            response: Awaitable[HttpResponseBase] = self.get_response(request)
            answer = await response
        except BaseException:
            _pending.reset(token)
            _run(pending)
            raise
        _pending.reset(token)
        return _attach(answer, pending)
