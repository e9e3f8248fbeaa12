"""A move's notice goes once the mover's answer is sent (club.infra.after_response, issue 59):
the answer does not wait for the notice's round trip to Redis, nor the next computer
player's task."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from club.infra import redis as club_redis
from club.infra.after_response import AfterResponseMiddleware, after_response
from games.play import reading, services


def _move_environ(member: Any, table_id: int) -> dict[str, Any]:
    """The WSGI environ of the member's next move, as his phone's htmx posts it."""
    c = Client()
    c.force_login(member.user)
    assert c.get(f"/tables/{table_id}/").status_code == 200  # the page: its CSRF cookie
    deal = reading.current_deal(table_id)
    state = reading.load_state(deal)
    seat = state.to_move()
    action = state.legal_actions(seat)[0]
    token = c.cookies["csrftoken"].value
    cookies = "; ".join(f"{k}={v.value}" for k, v in c.cookies.items())
    request = RequestFactory().post(
        f"/tables/{table_id}/act/",
        {"version": deal.version, "deal": deal.pk, "action": json.dumps(action.to_json())},
        HTTP_COOKIE=cookies, HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true",
    )  # fmt: skip
    return request.environ


def test_a_moves_notice_goes_when_its_answer_is_closed(
    transactional_db: Any, make_table: Any, make_member: Callable[..., Any]
) -> None:
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    deal = services.ensure_deal(table.pk)
    assert deal is not None
    mover = {0: ann, 1: bob}[reading.load_state(deal).to_move()]
    environ = _move_environ(mover, table.pk)
    channel = club_redis.client().pubsub()
    channel.subscribe(club_redis.key("table", table.pk))
    try:
        subscribed = channel.get_message(timeout=2)
        assert subscribed is not None and subscribed["type"] == "subscribe"
        started: list[str] = []
        # the server's part: the answer made and its body written, the response not closed
        response = WSGIHandler()(environ, lambda status, headers: started.append(status))
        body = b"".join(response)
        assert started == ["200 OK"] and b'id="play"' in body
        assert reading.current_deal(table.pk).version == deal.version + 1, "the move is made"
        assert channel.get_message(timeout=0.3) is None, "no notice before the answer is sent"
        response.close()  # what gunicorn does once the answer is written
        notice = channel.get_message(timeout=2)
    finally:
        channel.close()
    assert notice is not None, "the notice went once the answer was sent"
    assert json.loads(notice["data"])["version"] == deal.version + 1


def test_outside_a_request_the_work_runs_at_once() -> None:
    done: list[int] = []
    after_response(lambda: done.append(1))
    assert done == [1]


def test_a_failure_after_the_answer_is_logged_and_the_rest_still_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A request's kept work, one piece failing: the next still runs, the failure logged."""
    done: list[str] = []

    def broken() -> None:
        raise RuntimeError("Redis went away")

    def view(request: HttpRequest) -> HttpResponse:
        after_response(broken)
        after_response(lambda: done.append("next"))
        return HttpResponse("answer")

    response = AfterResponseMiddleware(view)(RequestFactory().get("/"))
    assert done == [], "kept until the answer is sent"
    # closed as Django's test client closes a response: without the handler that tidies
    # the database connections, which a test with no database may not touch (one run in
    # ten of tests/games failed this test; the cause not proven, the messages below say)
    request_finished.disconnect(close_old_connections)
    try:
        with caplog.at_level(logging.ERROR, logger="club.infra.after_response"):
            response.close()
    finally:
        request_finished.connect(close_old_connections)
    assert done == ["next"], done
    assert "work after the response failed" in caplog.text, caplog.records
