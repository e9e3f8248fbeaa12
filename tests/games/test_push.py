"""The table's stream pushes each viewer his own live part after a move (issue 59): the
part his refresh would fetch, rendered in the events process for the stream's own user.
A seated player is pushed his hand and no other; a spectator no hand; the mover, whose
page has the move's answer, is told of the move and pushed nothing."""

from __future__ import annotations

import contextlib
import re
import threading
from typing import Any

import httpx
import pytest
from django.test import Client

from club.live.streams import grant_for
from games.play import reading, services
from games.play.events import event_token
from games.play.moves import Move
from tests.e2e.servers import free_port, uvicorn
from tests.reliability.test_hidden import assert_no_leak

pytestmark = pytest.mark.django_db(transaction=True)

TOKENS = re.compile(r'(name="token" value=")[^"]*(")')
HAND = re.compile(r'data-card="([^"]+)"')


@pytest.fixture(scope="module")
def events_port() -> Any:
    port = free_port()
    with uvicorn(port):
        yield port


class Listener(threading.Thread):
    """One phone's stream: its events, (name, data) in order, as they come."""

    def __init__(self, port: int, table_id: int, user_id: int) -> None:
        super().__init__(daemon=True)
        token = event_token(user_id, table_id, grant_for(user_id))
        self.url = f"http://127.0.0.1:{port}/events/tables/{table_id}/?t={token}"
        self.events: list[tuple[str, str]] = []
        self.seen = threading.Condition()
        self.done = False

    def run(self) -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server stopped at the module's end
            self.listen()

    def listen(self) -> None:
        name, data = "message", []
        with httpx.stream("GET", self.url, timeout=10) as r:
            assert r.status_code == 200
            for line in r.iter_lines():
                if self.done:
                    return
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    data.append(line.removeprefix("data: "))
                elif line == "" and data:
                    with self.seen:
                        self.events.append((name, "\n".join(data)))
                        self.seen.notify_all()
                    name, data = "message", []

    def wait_for(self, count: int, timeout: float = 8) -> list[tuple[str, str]]:
        with self.seen:
            self.seen.wait_for(lambda: len(self.events) >= count, timeout=timeout)
            return list(self.events)


def _fetched(member: Any, table_id: int) -> str:
    c = Client()
    c.force_login(member.user)
    r = c.get(f"/tables/{table_id}/state/", headers={"HX-Request": "true"})
    assert r.status_code == 200
    return r.content.decode()


def test_a_move_pushes_each_viewer_his_own_part_and_the_mover_a_notice(
    events_port: int, make_table: Any, make_member: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "schedule_bot", lambda d, v: None)
    ann, bob, carol = make_member("Ann"), make_member("Bob"), make_member("Carol")
    table = make_table("conquian", [ann, bob])
    deal = services.ensure_deal(table.pk)
    assert deal is not None
    by_seat = {0: ann, 1: bob}
    phones = {m.pk: Listener(events_port, table.pk, m.user.pk) for m in (ann, bob, carol)}
    for p in phones.values():
        p.start()
    for p in phones.values():  # the deal's notice, the last on the channel, as they open:
        # the part and (a deal dealt) the club panel's
        assert [n for n, _ in p.wait_for(2)] == ["live", "club"], p.events
    mover = by_seat[deal.to_move]
    state = reading.load_state(deal)
    action = state.legal_actions(deal.to_move)[0]
    services.act(Move(table.pk, version=deal.version, deal_id=deal.pk, token="push-1", action=action.to_json(), user_id=mover.user.pk))  # fmt: skip
    deal.refresh_from_db()
    after = reading.load_state(deal)
    for member in (ann, bob, carol):
        got = phones[member.pk].wait_for(3)
        assert len(got) == 3, (member, got)  # a move within a deal: no club notice
        name, data = got[2]
        if member == mover:  # his page has the move's answer: told, not pushed
            assert name == "update" and f'"version": {deal.version}' in data
            assert '"by"' not in data  # who moved is the notice's, not the page's
            continue
        assert name == "live", (member, got)
        assert f'data-stamp="{deal.pk}:{deal.version}' in data
        # the part his own refresh fetches, to its one-time form token
        assert TOKENS.sub(r"\1\2", data) == TOKENS.sub(r"\1\2", _fetched(member, table.pk))
        seat = next((s for s, m in by_seat.items() if m == member), None)
        view = after.player_view(seat) if seat is not None else after.spectator_view()
        assert_no_leak(data, table.pk, view, member.display_name)
        if seat is None:
            assert 'class="card in-hand' not in data and "in-hand" not in data
        else:
            assert {c for c in HAND.findall(data)} >= {str(c) for c in view["hand"]}
    for p in phones.values():
        p.done = True


def test_a_tables_spectators_are_pushed_one_render_read_once_each_with_his_own_token(
    make_table: Any, make_member: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's pushes for a notice are rendered in one job (games.play.events): its
    spectators' part is read from the cache once for all of them (a hundred watchers
    were a hundred reads), each copy with its own form token; a player's is his own."""
    from games.play import events, parts

    monkeypatch.setattr(services, "schedule_bot", lambda d, v: None)
    ann, bob = make_member("Ann"), make_member("Bob")
    watchers = [make_member(f"Watcher {i}") for i in range(3)]
    table = make_table("conquian", [ann, bob])
    deal = services.ensure_deal(table.pk)
    assert deal is not None
    reads: list[str] = []
    cache = parts.cache

    class Counting:
        def get(self, key: str, *args: Any, **kwargs: Any) -> Any:
            reads.append(key)
            return cache.get(key, *args, **kwargs)

        def set(self, *args: Any, **kwargs: Any) -> Any:
            return cache.set(*args, **kwargs)

    monkeypatch.setattr(parts, "cache", Counting())
    users = frozenset((m.user.pk, "en-gb") for m in [ann, *watchers])
    out = events.render_pushes(table.pk, users, deal.pk, deal.version, False)
    assert len([k for k in reads if k.startswith("games:live:spectators:")]) == 1, reads
    copies = [out[(w.user.pk, "en-gb")] for w in watchers]
    assert all(c is not None for c in copies)
    assert len({TOKENS.sub(r"\1\2", c or "") for c in copies}) == 1  # one render
    assert len({re.search(r'name="token" value="([^"]*)"', c or "").group(1) for c in copies}) == 3  # type: ignore[union-attr]
    assert "in-hand" not in (copies[0] or "") and "in-hand" in (out[(ann.user.pk, "en-gb")] or "")
    # Each viewer in the language his page was in (issue 82): a Spanish spectator's part
    # is its own render, read once for the Spanish, and says no English.
    reads.clear()
    mixed = frozenset({(watchers[0].user.pk, "es"), (watchers[1].user.pk, "en-gb")})
    both = events.render_pushes(table.pk, mixed, deal.pk, deal.version, False)
    spanish, english = (
        both[(watchers[0].user.pk, "es")] or "",
        both[(watchers[1].user.pk, "en-gb")] or "",
    )
    assert "Registro" in spanish and "Log</h2>" not in spanish
    assert "<h2>Log</h2>" in english and "Registro" not in english
