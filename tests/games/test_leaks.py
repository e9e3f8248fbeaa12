"""No page, fragment or event carries another player's hidden cards or the pack order.

Random deals are played through the HTTP layer; every response each member receives is
scanned: every card named in it must be one the member may see (his own ``player_view``,
or the hands shown at a deal's end), and, as the double pack holds two of each card, the
cards drawn as cards may not outnumber those the member may see.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from typing import Any

import pytest

from club.infra import redis as club_redis
from games.engine.records import Record
from games.models import Deal
from games.play import call_round, reading, timers

from .helpers import CARD_RE, state_of

CODE_RE = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9_\-])|(?<![A-Za-z0-9_\-])JK(?![A-Za-z0-9_\-])"
)
# A card written out in words ("the seven of clubs": the log on the table, labels).
RANK_WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king"]  # fmt: skip
NAME_RE = re.compile(rf"\b({'|'.join(RANK_WORDS)}) of (clubs|diamonds|hearts|spades)\b")
RANK_CODES = ["A", *map(str, range(2, 11)), "J", "Q", "K"]


def _named(body: str) -> set[str]:
    """The cards a text names, by code: as codes and written out in words."""
    codes = set(CODE_RE.findall(body))
    for rank, suit in NAME_RE.findall(body):
        codes.add(RANK_CODES[RANK_WORDS.index(rank)] + suit[0].upper())
    return codes


STRIP = [
    re.compile(r'sse-connect="[^"]*"'),
    re.compile(r'<input type="hidden"[^>]*>'),
    re.compile(r"=(?:10|[2-9AJQK])[CDHS]"),  # what a wild card of the viewer's would stand for
    re.compile(r"\(as the [a-z]+ of [a-z]+\)"),  # the same, in words
]


def _visible(
    view: dict[str, Any],
    outcomes: list[dict[str, Any] | None],
    log: list[Record],
    *,
    whole_page: bool = False,
) -> tuple[set[str], Counter[str]]:
    """What the viewer may see: the view's own parts but its log, and the log taken from
    the real state (issue 39): every record's cards but a secret one's of another seat."""
    rest = {k: v for k, v in view.items() if k != "log"}
    text = json.dumps(rest) + json.dumps(outcomes)
    tokens = set(CODE_RE.findall(text))
    for r in log:
        if not r.secret or r.seat == view["seat"]:
            tokens |= {c.split("=")[0] for c in (*r.cards, *r.borrowed)}
    seen: Counter[str] = Counter(view.get("hand", []))
    seen.update(view.get("stock") or [])
    if view.get("turned"):
        seen[view["turned"]] += 1
    for c in view["combinations"]:
        seen.update(x["card"] for x in c["cards"])
    for out in outcomes:
        if out:
            for h in out["hands"]:
                seen.update(h)
    # A whole page shows the last deal's hands (public at its end, L23) twice: at the
    # deal's end in the live region and as "the last deal" in the club panel.
    last = next((o for o in reversed(outcomes) if o), None)
    if whole_page and last:
        for h in last["hands"]:
            seen.update(h)
    return tokens, seen


def check(
    body: str,
    view: dict[str, Any],
    outcomes: list[dict[str, Any] | None],
    who: str,
    log: list[Record],
    *,
    whole_page: bool = False,
) -> None:
    for rx in STRIP:
        body = rx.sub("", body)
    tokens, seen = _visible(view, outcomes, log, whole_page=whole_page)
    named = _named(body)
    extra = named - tokens
    where = [body[max(0, body.find(x) - 200) : body.find(x) + 50] for x in extra]
    assert not extra, f"{who} was shown {extra}: {where}"
    drawn = Counter(CARD_RE.findall(body))
    over = drawn - seen
    assert not over, f"{who} was shown more of {dict(over)} than he may see"


def _outcomes(table_id: int) -> list[dict[str, Any] | None]:
    return [d.outcome for d in Deal.objects.filter(table_id=table_id, finished=True)]


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("conquian", 2, {}),
        ("foster", 5, {}),
        ("foster-three", 3, {"stock": "exposed", "joker": True}),
        ("tonk", 3, {"deuces_wild": True}),
        ("tunk", 3, {}),
    ],
)
def test_no_response_or_event_leaks_another_hand(
    make_table: Any,
    make_member: Any,
    client_for: Any,
    django_capture_on_commit_callbacks: Any,
    variant: str,
    players: int,
    options: dict[str, Any],
) -> None:
    members = [make_member() for _ in range(players)]
    watcher = make_member("Watcher")
    table = make_table(variant, members, options=options)
    clients = [client_for(m) for m in members]
    spectator = client_for(watcher)
    pubsub = club_redis.client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(club_redis.key("table", table.pk))
    rng = random.Random(players)
    clients[0].get(f"/tables/{table.pk}/")
    steps = closes = 0
    while steps < 160:
        deal = reading.current_deal(table.pk)
        if deal.number > 1 and steps > 40:
            break
        state = state_of(deal.pk)
        if call_round.is_open(deal):  # Tonk's call round (TO5): every seat sees it, then
            for s, c in enumerate(clients):  # the clock closes it, with one event
                page = c.get(f"/tables/{table.pk}/state/", HTTP_HX_REQUEST="true")
                check(page.content.decode(), state.player_view(s), _outcomes(table.pk),
                      f"seat {s} (call round)", state.log)  # fmt: skip
            with django_capture_on_commit_callbacks(execute=True):
                assert timers.close_round(deal.pk, early=True)
            closes += 1
            continue
        seat = state.to_move()
        legal = state.legal_actions(seat)
        layouts = [
            a for a in legal if a.type in ("layout", "use", "meld", "add", "spread", "hit", "tunk")
        ]
        action = rng.choice(layouts if layouts and rng.random() < 0.7 else legal)
        with django_capture_on_commit_callbacks(execute=True):
            r = clients[seat].post(
                f"/tables/{table.pk}/act/",
                {
                    "version": deal.version,
                    "deal": deal.pk,
                    "token": f"k{steps}",
                    "action": json.dumps(action.to_json()),
                },
                HTTP_HX_REQUEST="true",
            )
        assert r.status_code == 200
        steps += 1
        now = reading.current_deal(table.pk)
        now_state = state_of(now.pk)
        outs = _outcomes(table.pk)
        log = now_state.log
        check(r.content.decode(), now_state.player_view(seat), outs, f"seat {seat} (action)", log)
        if steps % 4 == 0:
            for s, c in enumerate(clients):
                view = now_state.player_view(s)
                check(
                    c.get(f"/tables/{table.pk}/state/", HTTP_HX_REQUEST="true").content.decode(),
                    view,
                    outs,
                    f"seat {s} (state)",
                    log,
                )
                check(
                    c.get(f"/tables/{table.pk}/club/", HTTP_HX_REQUEST="true").content.decode(),
                    view,
                    outs,
                    f"seat {s} (club)",
                    log,
                )
            check(
                spectator.get(f"/tables/{table.pk}/").content.decode(),
                now_state.spectator_view(),
                outs,
                "spectator",
                log,
                whole_page=True,
            )
        if steps % 25 == 0:
            s = rng.randrange(players)
            check(
                clients[s].get(f"/tables/{table.pk}/").content.decode(),
                now_state.player_view(s),
                outs,
                f"seat {s} (page)",
                log,
                whole_page=True,
            )
    events = []
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and len(events) < steps + closes:
        m = pubsub.get_message(timeout=0.1)
        if m is not None:
            events.append(m["data"].decode())
    pubsub.close()
    assert len(events) == steps + closes, "every action (and round closed) publishes one event"
    for e in events:
        # "by": the mover's user id, for the table's streams (told, not pushed); no page
        # is sent it (tests/games/test_push.py)
        assert set(json.loads(e)) <= {"version", "deal", "table", "club", "at", "by"}
        assert not CODE_RE.findall(e)
