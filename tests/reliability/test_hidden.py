"""Hidden information, beyond tests/games/test_leaks.py: logged-out visitors, refusals
(error messages) that name cards, the card trade (a card passed face down) and Colonel's
challenge, and the event stream's token.

The rule checked on every response: each card code in it is one the viewer may see (his
own ``player_view``, the hands shown at the end of finished deals, L23) or one he named
himself in the request.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import AsyncClient, Client
from django.urls import reverse

from club.live.streams import grant_for
from club.models import Seat, Table
from games.models import Deal
from games.play import reading
from games.play import services as game_services
from games.play.events import event_token

pytestmark = pytest.mark.django_db

CODE_RE = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9_\-])|(?<![A-Za-z0-9_\-])JK(?![A-Za-z0-9_\-])"
)
STRIP = [re.compile(r'sse-connect="[^"]*"'), re.compile(r'<input type="hidden"[^>]*>'),
         re.compile(r'name="csrfmiddlewaretoken"[^>]*>')]  # fmt: skip


def visible(table_id: int, view: dict[str, Any]) -> set[str]:
    outcomes = [d.outcome for d in Deal.objects.filter(table_id=table_id, finished=True)]
    return set(CODE_RE.findall(json.dumps(view) + json.dumps(outcomes)))


def assert_no_leak(
    body: str, table_id: int, view: dict[str, Any], who: str, named: set[str] = frozenset()
) -> None:  # type: ignore[assignment]
    for rx in STRIP:
        body = rx.sub("", body)
    extra = set(CODE_RE.findall(body)) - visible(table_id, view) - set(named)
    assert not extra, f"{who} was shown {extra}"


def _table(members: list[Any], variant: str, options: dict[str, Any] | None = None) -> Table:
    table = Table.objects.create(
        variant=variant, size=len(members), mode="online", status="playing", options=options or {}
    )
    for i, m in enumerate(members):
        Seat.objects.create(table=table, position=i, member=m)
    return table


def _client(member: Any) -> Client:
    c = Client()
    c.force_login(member.user)
    return c


@pytest.fixture(autouse=True)
def quiet_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: None)


def test_logged_out_visitors_see_no_cards_and_no_table(
    make_members: Callable[..., list[Any]],
) -> None:
    table = _table(make_members(2), "conquian")
    deal = game_services.ensure_deal(table.pk)
    assert deal is not None
    anon = Client()
    for url in [reverse("games:table", args=[table.pk]), reverse("games:state", args=[table.pk]),
                reverse("games:club_panel", args=[table.pk]), reverse("club:table", args=[table.pk]),
                reverse("club:washbook", args=[table.pk])]:  # fmt: skip
        r = anon.get(url, headers={"HX-Request": "true"})
        assert r.status_code == 302 and r["Location"].startswith("/login/"), url
        assert not CODE_RE.findall(r.content.decode())
    r = anon.post(
        reverse("games:act", args=[table.pk]), {"version": 0, "deal": deal.pk, "action": "{}"}
    )
    assert r.status_code == 302 and not CODE_RE.findall(r.content.decode())


def test_refusals_naming_another_players_cards_reveal_nothing(
    make_members: Callable[..., list[Any]],
) -> None:
    """A player (or a spectator) names the cards in another hand, in every kind of action:
    the refusal says it is not his to play, and shows no card he may not see."""
    members = make_members(3)
    table = _table(members, "foster-three")
    deal = game_services.ensure_deal(table.pk)
    assert deal is not None
    state = reading.load_state(deal)
    watcher = make_members(1, "watcher")[0]
    for seat, c in [*enumerate(_client(m) for m in members), (None, _client(watcher))]:
        view = state.player_view(seat) if seat is not None else state.spectator_view()
        for other in range(3):
            if other == seat:
                continue
            theirs = state.player_view(other)["hand"]
            for intent, cards in [
                ("discard", theirs[:1]),
                ("layout", theirs[:3]),
                ("add:0", theirs[:1]),
            ]:
                payload = {"version": deal.version, "deal": deal.pk, "token": f"x{seat}{other}{intent}",
                           "intent": intent, "cards": cards}  # fmt: skip
                r = c.post(
                    reverse("games:act", args=[table.pk]), payload, headers={"HX-Request": "true"}
                )
                assert 400 <= r.status_code < 500
                assert_no_leak(
                    r.content.decode(), table.pk, view, f"seat {seat} naming {cards}", set(cards)
                )
            for t in ("discard", "layout", "draw"):
                action = {
                    "type": t,
                    "seat": other,
                    "card": theirs[0],
                    "cards": theirs[:3],
                    "source": "pack",
                }
                payload = {
                    "version": deal.version,
                    "deal": deal.pk,
                    "token": f"y{seat}{other}{t}",
                    "action": json.dumps(action),
                }
                r = c.post(
                    reverse("games:act", args=[table.pk]), payload, headers={"HX-Request": "true"}
                )
                assert 400 <= r.status_code < 500
                assert_no_leak(
                    r.content.decode(),
                    table.pk,
                    view,
                    f"seat {seat} acting for {other}",
                    set(theirs[:3]),
                )
    assert Deal.objects.get(pk=deal.pk).version == deal.version


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options"), [("conquian", {"trade": True}), ("colonel", {})])
def test_a_face_down_trade_and_the_colonels_challenge_stay_hidden(
    make_members: Callable[..., list[Any]], variant: str, options: dict[str, Any]
) -> None:
    members = make_members(2)
    watcher = make_members(1, "watcher")[0]
    table = _table(members, variant, options)
    clients = [_client(m) for m in members]
    spectator = _client(watcher)
    rng = random.Random(variant)
    game_services.ensure_deal(table.pk)
    for step in range(120):
        deal = reading.current_deal(table.pk)
        if deal.number > 2:
            break
        state = reading.load_state(deal)
        seat = state.to_move()
        legal = state.legal_actions(seat)
        special = [a for a in legal if a.type in ("trade", "challenge", "accept", "decline")]
        action = rng.choice(special or legal)
        r = clients[seat].post(
            reverse("games:act", args=[table.pk]),
            {
                "version": deal.version,
                "deal": deal.pk,
                "token": f"s{step}",
                "action": json.dumps(action.to_json()),
            },
            headers={"HX-Request": "true"},
        )
        assert r.status_code == 200, r.content[:300]
        now = reading.current_deal(table.pk)
        now_state = reading.load_state(now)
        assert_no_leak(
            r.content.decode(), table.pk, now_state.player_view(seat), f"seat {seat} step {step}"
        )
        other = 1 - seat
        page = clients[other].get(reverse("games:table", args=[table.pk])).content.decode()
        assert_no_leak(page, table.pk, now_state.player_view(other), f"seat {other} step {step}")
        if step % 5 == 0:
            body = spectator.get(reverse("games:table", args=[table.pk])).content.decode()
            assert_no_leak(body, table.pk, now_state.spectator_view(), f"spectator step {step}")


def test_the_event_stream_needs_a_token_for_its_own_table() -> None:
    async def status(params: dict[str, str]) -> int:
        return (await AsyncClient().get("/events/tables/1/", params)).status_code

    assert asyncio.run(status({})) == 403
    assert (
        asyncio.run(status({"t": event_token(5, 2, grant_for(5))})) == 403
    )  # another table's token
    assert asyncio.run(status({"t": event_token(5, 1, grant_for(5)) + "x"})) == 403  # tampered
