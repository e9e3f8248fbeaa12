"""The event stream: served by the ASGI process, authenticated by a signed token."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest

from club.streams import grant_for
from games.play import services
from games.play.events import event_token
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
