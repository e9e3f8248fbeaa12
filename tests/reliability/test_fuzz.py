"""Bad input: random and malformed payloads to every form and action endpoint.

Wrong types, unknown cards, other tables' and objects' ids, huge values, missing and
unknown fields, sent as anonymous visitors, members, seated players and the secretary.
Never a 500; a refusal (4xx) says why, and changes nothing at all (every row of every
club and games model is compared before and after).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import World, state_snapshot
from .test_authorisation import ACTIONS

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

HUGE = [2**31, 2**63, 10**30, -1, -(2**63), 0]
CARDS = ["KS", "10H", "JK", "JK=9H", "1S", "ZZ", "", "11H", "AH ", "kS", "10", "<b>", "' OR 1=1"]


def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.text(max_size=40),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from(HUGE),
        st.sampled_from(CARDS),
        st.decimals(allow_nan=True, allow_infinity=True).map(str),
        st.sampled_from(
            ["", " ", "NaN", "Infinity", "1e400", "0.00001", "null", "[]", "{}", "\x00"]
        ),
    )


def json_values() -> st.SearchStrategy[Any]:
    return st.recursive(
        st.one_of(
            st.none(), st.booleans(), st.integers(), st.text(max_size=10), st.sampled_from(CARDS)
        ),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=8), children, max_size=4)
        ),
        max_leaves=10,
    )


FIELDS = [
    "stake", "default_variant", "name", "variant", "size", "mode", "auto_redraw", "scoring",
    "winner", "note", "reason", "substitute", "agree", "players", "version", "deal", "seat",
    "token", "intent", "combination", "cards", "action",
]  # fmt: skip


@st.composite
def payloads(draw: st.DrawFn, world: World) -> dict[str, Any]:
    ids = [
        world.players[0].pk,
        world.outsider.pk,
        world.online.pk,
        world.table.pk,
        world.deal.pk,
        2**40,
    ]
    out: dict[str, Any] = {}
    for key in draw(
        st.lists(st.sampled_from(FIELDS) | st.text(max_size=12), max_size=8, unique=True)
    ):
        out[key] = draw(scalars() | st.sampled_from(ids) | st.lists(scalars(), max_size=3))
    for m in world.players:  # the result form's per-player fields
        if draw(st.booleans()):
            out[draw(st.sampled_from(["pips_", "cards_", "extra_"])) + str(m.pk)] = draw(scalars())
    if draw(st.booleans()):
        out["action"] = json.dumps(draw(json_values() | st.fixed_dictionaries({
            "type": st.sampled_from(["draw", "discard", "layout", "add", "use", "meld", "throw",
                                     "pass", "turn", "force", "trade", "move-joker", "bogus"]),
            "seat": st.sampled_from([0, 1, 2, -1, 99, "0", None]),
            "card": st.sampled_from(CARDS), "cards": st.lists(st.sampled_from(CARDS), max_size=4),
            "combination": st.sampled_from([0, 1, 99, -1, "x"]), "source": st.sampled_from(["pack", "stock", "x"]),
        })))  # fmt: skip
    return {k: v for k, v in out.items() if "\x00" not in str(k)}


def _flat(data: dict[str, Any]) -> dict[str, Any]:
    """Form-encode: None is dropped, everything else becomes text (lists stay lists)."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        if isinstance(v, list):
            out[k] = [str(x) for x in v if x is not None]
        elif v is not None:
            out[k] = str(v)
    return out


def _clients(world: World) -> dict[str, Client]:
    out = {"anonymous": Client()}
    for name, member in [
        ("secretary", world.secretary), ("player", world.players[1]), ("outsider", world.idle),
        ("east", world.online_players[0]), ("west", world.online_players[1]),
    ]:  # fmt: skip
        c = Client()
        c.force_login(member.user)
        out[name] = c
    return out


def check(response: Any, before: dict[str, Any], what: str) -> None:
    status = response.status_code
    assert status < 500, f"{what}: {status}\n{response.content[:2000]!r}"
    if 400 <= status < 500:
        assert response.content.strip(), f"{what}: a {status} without a message"
        if status in (400, 409, 422):
            said = b'role="alert"' in response.content or b'class="msg-error"' in response.content
            assert said, f"{what}: no message\n{response.content[:800]!r}"
        assert state_snapshot() == before, f"{what}: refused ({status}) but something changed"


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_club_forms_refuse_bad_input_cleanly(world: World, data: st.DataObject) -> None:
    clients = _clients(world)
    action = data.draw(
        st.sampled_from([a for a in ACTIONS if a.name not in ("logout", "games:act")])
    )
    who = data.draw(st.sampled_from(sorted(clients)))
    args = action.args(world)
    if args and data.draw(st.booleans()):
        args = [  # each argument replaced, the URL's arity kept
            data.draw(
                st.sampled_from([world.table.pk, world.online.pk, world.deal.pk, 2**31 - 1, 0])
            )
            for _ in args
        ]
    payload = _flat(data.draw(payloads(world)))
    before = state_snapshot()
    r = clients[who].post(reverse(action.name, args=args), payload)
    check(r, before, f"{who} POST {action.name}{args} {payload}")


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_action_endpoint_refuses_bad_input_cleanly(world: World, data: st.DataObject) -> None:
    clients = _clients(world)
    who = data.draw(st.sampled_from(sorted(clients)))
    table = data.draw(
        st.sampled_from([world.online.pk, world.online.pk, world.table.pk, 2**31 - 1])
    )
    payload = _flat(data.draw(payloads(world)))
    if data.draw(st.booleans()):  # a plausible envelope around a bad action
        deal = world.deal
        deal.refresh_from_db()
        payload.setdefault("version", str(deal.version))
        payload.setdefault("deal", str(deal.pk))
    htmx = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
    before = state_snapshot()
    r = clients[who].post(reverse("games:act", args=[table]), payload, headers=htmx)
    check(r, before, f"{who} act at {table}: {payload}")


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    query=st.dictionaries(
        st.sampled_from(["since", "format", "check", "t", "page"]), scalars().map(str), max_size=3
    ),
    path_id=st.sampled_from([1, 2**31 - 1, 0]),
)
def test_pages_and_fragments_refuse_bad_queries_cleanly(
    world: World, query: dict[str, str], path_id: int
) -> None:
    c = Client()
    c.force_login(world.online_players[0].user)
    for url in [
        reverse("games:state", args=[world.online.pk]), reverse("games:table", args=[path_id]),
        reverse("club:washbook", args=[world.table.pk]), reverse("club:session", args=[path_id]),
        reverse("games:events", args=[world.online.pk]), "/healthz",
    ]:  # fmt: skip
        r = c.get(url, {k: v.replace("\x00", "") for k, v in query.items()})
        assert r.status_code < 500 or url in (
            "/healthz",
            reverse("games:events", args=[world.online.pk]),
        ), (url, query, r.status_code)
