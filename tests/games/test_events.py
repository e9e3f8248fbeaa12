"""The event stream: served by the ASGI process, authenticated by a signed token."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest

from club.live.streams import grant_for
from games.play import reading, services
from games.play.events import event_token
from games.play.moves import Move
from tests.e2e.servers import free_port, uvicorn


@pytest.fixture(scope="module")
def events_port() -> Any:
    port = free_port()
    with uvicorn(port):
        yield port


def test_it_streams_a_versions_only_event_with_cors(events_port: int) -> None:
    table_id = 987654
    url = f"http://127.0.0.1:{events_port}/events/tables/{table_id}/?t={event_token(1, table_id, grant_for(1))}"
    got: list[str] = []
    with httpx.stream("GET", url, headers={"Origin": "http://127.0.0.1:8000"}, timeout=5) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["access-control-allow-origin"] == "http://127.0.0.1:8000"
        assert r.headers["access-control-allow-credentials"] == "true"
        threading.Timer(0.3, services.publish, args=(table_id, 42, 7)).start()
        start = time.monotonic()
        for line in r.iter_lines():
            got.append(line)
            if line.startswith("data:") or time.monotonic() - start > 4:
                break
    assert "event: update" in got
    data = json.loads(got[-1].removeprefix("data: "))
    assert data["version"] == 7 and data["deal"] == 42


def test_it_refuses_a_bad_token(events_port: int) -> None:
    r = httpx.get(
        f"http://127.0.0.1:{events_port}/events/tables/5/?t={event_token(1, 6, grant_for(1))}",
        timeout=5,
    )
    assert r.status_code == 403
    r = httpx.get(f"http://127.0.0.1:{events_port}/events/tables/5/?t=forged", timeout=5)
    assert r.status_code == 403


def _events(events_port: int, table_id: int, publish: list[Any], want: int) -> list[str]:
    url = f"http://127.0.0.1:{events_port}/events/tables/{table_id}/?t={event_token(1, table_id, grant_for(1))}"
    got: list[str] = []
    with httpx.stream("GET", url, timeout=5) as r:
        assert r.status_code == 200
        for i, call in enumerate(publish):
            threading.Timer(0.3 + 0.2 * i, call).start()
        start = time.monotonic()
        for line in r.iter_lines():
            got.append(line)
            if sum(x.startswith("data:") for x in got) == want or time.monotonic() - start > 4:
                break
    return [x for x in got if x.startswith("event:")]


def test_the_club_panel_hears_of_a_deal_dealt_or_ended_and_of_the_club_not_of_a_move(
    events_port: int,
) -> None:
    """Issue 59: a move within a deal is an ``update`` only (the live part); a deal dealt
    or ended is an ``update`` and a ``club`` (the panel too); the club's side alone, a
    ``club``."""
    from club.live.notices import publish_table_club

    table_id = 987655
    got = _events(
        events_port,
        table_id,
        [
            lambda: services.publish(table_id, 42, 7),
            lambda: services.publish(table_id, 43, 0, club=True),
            lambda: publish_table_club(table_id),
        ],
        want=4,
    )
    assert got == ["event: update", "event: update", "event: club", "event: club"]


@pytest.mark.django_db
def test_only_a_deal_dealt_or_ended_and_the_clubs_side_tell_the_panel(
    make_table: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the table's channel carries, by what happened: moves within the deal carry no
    ``club``; the move that ends it (the next deal dealt) does, and so does a line in the
    table's news (club.live.notices)."""
    import random

    from club.infra import redis as club_redis
    from club.models import TableEvent
    from games.bots import choose

    monkeypatch.setattr(services, "schedule_bot", lambda d, v: None)
    table = make_table("conquian")
    seating = services.club_api.table_seating(table.pk)
    pubsub = club_redis.client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(club_redis.key("table", table.pk))
    with django_capture_on_commit_callbacks(execute=True):
        deal = services.ensure_deal(table.pk)
    assert deal is not None
    rng = random.Random(5)
    moves = 0
    while reading.current_deal(table.pk).number == 1 and moves < 400:
        deal = reading.current_deal(table.pk)
        state = reading.load_state(deal)
        seat = state.to_move()
        action = choose("greedy", state.player_view(seat), state.legal_actions(seat), rng)
        with django_capture_on_commit_callbacks(execute=True):
            services.act(Move(table.pk, member_id=seating[seat].member_id, version=deal.version, action=action.to_json()))  # fmt: skip
        moves += 1
    with django_capture_on_commit_callbacks(execute=True):
        TableEvent.objects.create(table=table, text="Seats drawn again (L4)")
    notices = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        m = pubsub.get_message(timeout=0.2)
        if m is None and notices and notices[-1].get("version") is None:
            break  # the table's news came, and nothing since
        if m is not None:
            notices.append(json.loads(m["data"]))
    pubsub.close()
    moved = [n for n in notices if "version" in n]
    assert len(moved) == moves + 1  # the first deal dealt, then each move
    assert moved[0]["club"] is True and moved[0]["version"] == 0  # the first deal dealt
    assert not any(n.get("club") for n in moved[1:-1])  # the moves within it
    assert moved[-1]["club"] is True and moved[-1]["deal"] != moved[0]["deal"]  # the next
    club_only = [n for n in notices if "version" not in n]
    assert all(set(n) == {"club", "at"} for n in club_only)  # a time, never a name
    assert len(club_only) >= 2  # the deal's line in the washbook, then the table's news
    assert notices[-1] in club_only


def test_a_notice_says_when_more_than_a_move_changed() -> None:
    """A page skips the refresh of a move it shows already (issue 59, table.js), never of
    a deal dealt or ended or play stopped (a stop keeps the deal's version): those carry
    "club" on the update too."""
    from games.play.events import _event

    def updates(notice: dict[str, Any]) -> list[dict[str, Any]]:
        lines = _event(json.dumps(notice)).split("\n")
        return [json.loads(lines[i + 1][5:]) for i, x in enumerate(lines) if x == "event: update"]

    (move,) = updates({"version": 7, "deal": 42, "table": 1, "at": 1.5})
    assert move == {"version": 7, "deal": 42, "at": 1.5}
    (ended,) = updates({"version": 9, "deal": 42, "table": 1, "at": 2.0, "club": True})
    assert ended == {"version": 9, "deal": 42, "at": 2.0, "club": True}


@pytest.mark.django_db
def test_a_move_tells_its_table_and_its_evening_in_one_round_trip(
    make_table: Any, make_member: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 59: the table's notice and the evening's (its consoles) were two round trips
    to Redis on every move at a club table; one pipeline now carries both."""
    from decimal import Decimal

    import redis.connection

    from club.infra import redis as club_redis
    from club.live.notices import session_channel
    from club.services.base import create_member
    from club.services.sessions import open_session

    secretary = create_member("sec-one-trip", "Secretary", is_staff=True)
    evening = open_session(stake=Decimal("0.05"), name="Tuesday", by=secretary.user)
    table = make_table("conquian")
    table.session = evening
    table.save(update_fields=["session"])
    listener = club_redis.client().pubsub(ignore_subscribe_messages=True)
    listener.subscribe(club_redis.key("table", table.pk), session_channel(evening.pk))
    sent: list[bytes] = []
    send = redis.connection.AbstractConnection.send_packed_command

    def counting(self: Any, command: Any, check_health: bool = True) -> None:
        sent.append(command)
        send(self, command, check_health)

    try:
        services.publish(table.pk, 42, 7)  # the evening looked up (kept by the process)
        monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)
        services.publish(table.pk, 42, 8)
        monkeypatch.undo()
        assert len(sent) == 1, sent
        heard: list[tuple[str, int]] = []
        deadline = time.monotonic() + 5
        while len(heard) < 4 and time.monotonic() < deadline:
            m = listener.get_message(timeout=0.1)  # None also for the subscribe replies
            if m is not None:
                heard.append((m["channel"].decode(), json.loads(m["data"])["version"]))
    finally:
        listener.close()
    channels = [club_redis.key("table", table.pk), session_channel(evening.pk)]
    assert sorted(heard) == sorted((c, v) for c in channels for v in (7, 8)), heard


def test_one_subscription_a_process_serves_every_stream_of_a_channel(events_port: int) -> None:
    """Issue 59: each open page subscribed to Redis on a connection of its own, and each
    table's message was read and parsed once a phone; the events process now holds one
    subscription a channel for all its streams (club.live.streams._Hub), ended with the last."""
    from club.infra import redis as club_redis

    table_id = 987661
    channel = club_redis.key("table", table_id)
    url = f"http://127.0.0.1:{events_port}/events/tables/{table_id}/?t={event_token(1, table_id, grant_for(1))}"
    connected = threading.Barrier(6)
    got: list[list[str]] = [[] for _ in range(5)]
    stop = threading.Event()

    def listen(i: int) -> None:
        with httpx.stream("GET", url, timeout=5) as r:
            for line in r.iter_lines():
                if line == ": connected":
                    connected.wait(5)
                got[i].append(line)
                if stop.is_set() or line.startswith("data:"):
                    return

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(5)]
    for t in threads:
        t.start()
    connected.wait(5)
    r = club_redis.client()
    assert r.pubsub_numsub(channel) == [(channel.encode(), 1)]  # five streams, one
    services.publish(table_id, 43, 3)
    for t in threads:
        t.join(5)
    assert all("event: update" in lines for lines in got), got
    deadline = time.monotonic() + 5  # the streams closed: the channel left
    while r.pubsub_numsub(channel)[0][1] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert r.pubsub_numsub(channel) == [(channel.encode(), 0)]
