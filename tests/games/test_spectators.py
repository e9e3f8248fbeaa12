"""Spectators share one render of a table's live part a version (issue 59): the part
rendered once and kept in the cache for every spectator of the table, each copy with its
own CSRF and form tokens; a seated player's own view is never shared."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.play import parts, reading, services
from games.play.moves import Move

pytestmark = pytest.mark.django_db

TOKENS = re.compile(r'(name="(?:csrfmiddlewaretoken|token)" value=")[^"]*(")')


def _state(c: Client, table_id: int) -> str:
    r = c.get(f"/tables/{table_id}/state/", headers={"HX-Request": "true"})
    assert r.status_code == 200
    return r.content.decode()


def _value(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found is not None, name
    return found.group(1)


def test_spectators_share_one_render_a_version_each_with_his_own_tokens(
    make_table: Any, make_member: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "schedule_bot", lambda d, v: None)
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    deal = services.ensure_deal(table.pk)
    assert deal is not None
    rendered: list[int | None] = []
    real = parts.live_context

    def counted(*args: Any, **kwargs: Any) -> Any:
        rendered.append(args[6])  # the member it is rendered for (None: a spectator)
        return real(*args, **kwargs)

    monkeypatch.setattr(parts, "live_context", counted)
    carol, dave = make_member("Carol"), make_member("Dave")
    watchers = [client_for(carol), Client(enforce_csrf_checks=True)]
    watchers[1].force_login(dave.user)
    first, second = (_state(c, table.pk) for c in watchers)
    assert rendered == [None]  # once, for both
    assert TOKENS.sub(r"\1\2", first) == TOKENS.sub(r"\1\2", second)
    for html in (first, second):
        assert "slot-8d3f0c" not in html
    assert _value(first, "token") != _value(second, "token")
    # No copy carries a CSRF field: its form posts through htmx with the CSRF header of
    # the viewer's own page, which passes the CSRF check (and is refused for what it is,
    # a spectator's move).
    assert "csrfmiddlewaretoken" not in first + second
    page = watchers[1].get(f"/tables/{table.pk}/").content.decode()
    header = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page)
    assert header is not None
    r = watchers[1].post(
        f"/tables/{table.pk}/act/",
        {"version": deal.version, "deal": deal.pk, "action": "{}"},
        headers={"HX-Request": "true", "X-CSRFToken": header.group(1)},
    )
    assert r.status_code == 403 and b"no seat" in r.content
    # A seated player's view is his own: rendered for him, with his hand.
    rendered.clear()
    mine = _state(client_for(ann), table.pk)
    assert rendered == [ann.pk]
    seat = next(
        s.position for s in services.club_api.table_seating(table.pk) if s.member_id == ann.pk
    )
    hand = reading.load_state(deal).player_view(seat)["hand"]
    assert all(f'data-card="{c}"' in mine for c in hand)
    assert not any(f'data-card="{c}"' in first for c in hand)
    # A move: one render more, shared again.
    state = reading.load_state(deal)
    mover = services.club_api.table_seating(table.pk)[deal.to_move]
    services.act(Move(table.pk, member_id=mover.member_id, version=deal.version, action=state.legal_actions(deal.to_move)[0].to_json()))  # fmt: skip
    after = [_state(c, table.pk) for c in watchers]
    assert rendered == [ann.pk, None]
    assert after[0] != first and TOKENS.sub(r"\1\2", after[0]) == TOKENS.sub(r"\1\2", after[1])
