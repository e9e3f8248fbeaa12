"""The evening's live notices (issue 27, item 1): whatever changes an evening is
published on its channel after commit, and the events process streams it to the
secretary's console with a token of its own."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from club.infra import redis as club_redis
from club.live import notices as live
from club.live.streams import grant_for, session_token
from club.models import ClubSession, Member
from club.services.sessions import check_in
from club.services.tables import form_table
from games.play.events import event_token
from tests.e2e.servers import free_port, uvicorn


def _last(session_id: int) -> bytes | None:
    value = club_redis.client().get(club_redis.key("session", session_id, "last"))
    return value if value is None else bytes(value)  # type: ignore[arg-type]


@pytest.mark.django_db
def test_a_check_in_and_a_table_publish_on_the_sessions_channel_after_commit(
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    club_redis.client().delete(club_redis.key("session", session.pk, "last"))
    ann, bob = make_members(2)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        check_in(session, ann)
    assert callbacks and _last(session.pk) is None  # nothing before the commit
    for callback in callbacks:
        callback()
    first = _last(session.pk)
    assert first is not None and set(json.loads(first)) == {"at"}  # a time, never a name
    club_redis.client().delete(club_redis.key("session", session.pk, "last"))
    with django_capture_on_commit_callbacks(execute=True):
        check_in(session, bob)
        table = form_table(session, variant="conquian")
    assert _last(session.pk) is not None
    assert live.session_of_table(table.pk) == session.pk


@pytest.fixture(scope="module")
def events_port() -> Any:
    port = free_port()
    with uvicorn(port):
        yield port


def _console_stream(
    port: int, session_id: int, publish: list[tuple[float, Any, tuple[Any, ...]]], want: int
) -> list[str]:
    """The lines a console's stream gives while ``publish`` runs (each call at its time),
    until ``want`` notices came (4 s at most)."""
    url = f"http://127.0.0.1:{port}/events/sessions/{session_id}/"
    got: list[str] = []
    with httpx.stream(
        "GET", f"{url}?t={session_token(1, session_id, grant_for(1))}", timeout=5
    ) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        for at, call, args in publish:
            threading.Timer(at, call, args=args).start()
        start = time.monotonic()
        for line in r.iter_lines():
            got.append(line)
            if sum(x.startswith("data:") for x in got) == want or time.monotonic() - start > 4:
                break
    return got


def test_the_console_stream_carries_the_sessions_notices(events_port: int) -> None:
    session_id = 876543
    got = _console_stream(events_port, session_id, [(0.3, live.publish_session, (session_id,))], 1)
    assert "event: update" in got
    assert set(json.loads(got[-1].removeprefix("data: "))) == {"at"}


def test_the_console_stream_refuses_a_tables_token_or_another_sessions(events_port: int) -> None:
    url = f"http://127.0.0.1:{events_port}/events/sessions/5/"
    for token in (event_token(1, 5, grant_for(1)), session_token(1, 6, grant_for(1)), "forged"):
        assert httpx.get(f"{url}?t={token}", timeout=5).status_code == 403


def test_a_move_reaches_the_console_as_its_tables_notice_only(events_port: int) -> None:
    """A move changes one table's progress line: the console hears ``move-<table>`` and
    fetches that line alone (issue 59); anything else the evening does is ``update``."""
    from games.play import services as game_services

    session_id, table_id = 876544, 4321
    live._session_of_table[table_id] = session_id  # the table's evening, as if looked up
    got = _console_stream(
        events_port,
        session_id,
        [
            (0.3, game_services.publish, (table_id, 77, 5)),
            (0.6, live.publish_session, (session_id,)),
        ],
        2,
    )
    live._session_of_table.pop(table_id, None)
    events = [x for x in got if x.startswith("event:")]
    assert events == [f"event: move-{table_id}", "event: update"]
    data = [json.loads(x.removeprefix("data: ")) for x in got if x.startswith("data:")]
    assert set(data[0]) == {"at", "table"} and data[0]["table"] == table_id  # never a card
    assert set(data[1]) == {"at"}


@pytest.mark.parametrize(
    "notice",
    ['{"at": 1.5, "table": true}', '{"at": 1.5, "table": -3}', '{"at": 1.5, "table": "7"}',
     '{"at": 1.5, "table": null}', "[1, 2]", "not json", '{"table": 7}'],
)  # fmt: skip
def test_a_notice_that_names_no_table_refreshes_the_whole_console(notice: str) -> None:
    from club.live.streams import _session_event

    event = _session_event(notice)
    assert event.startswith("event: update\n")


def test_a_moves_line_reaches_the_console_escaped_on_one_line() -> None:
    from club.live.streams import _session_event

    lines = {"en-gb": "Game 1: <b>Ann</b> & Bob\nto play", "es": "Partida 1: le toca a Ann"}
    event = _session_event(json.dumps({"at": 1.5, "table": 7, "lines": lines}), "en-gb")
    assert event == (
        "event: line-7\nid: 1.5\ndata: Game 1: &lt;b&gt;Ann&lt;/b&gt; &amp; Bob to play\n\n"
    )
    # each console its reader's line (issue 82); a language the notice lacks, the club's
    said = _session_event(json.dumps({"at": 1.5, "table": 7, "lines": lines}), "es")
    assert said.endswith("data: Partida 1: le toca a Ann\n\n")
    assert "data: Game 1" in _session_event(json.dumps({"at": 1.5, "table": 7, "lines": lines}))
    # an empty line is no line: the console fetches it
    assert _session_event(
        json.dumps({"at": 1.5, "table": 7, "lines": {"en-gb": " "}}), "en-gb"
    ).startswith("event: move-7\n")
