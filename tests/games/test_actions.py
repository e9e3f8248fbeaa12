"""Every action type through the HTTP layer, and every kind of refusal (nothing changes)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import Deal, DealAction
from games.play.intents import base

from .helpers import deal_from_seed, find_script, play_script, snapshot, state_of

ACTION_TYPES = [
    ("conquian", 2, "turn", {}),
    ("conquian", 2, "pass", {}),
    ("conquian", 2, "use", {}),
    ("conquian", 2, "force", {}),
    ("conquian", 2, "meld", {}),
    ("conquian", 2, "throw", {}),
    ("conquian", 2, "trade", {"trade": True}),
    ("foster", 5, "draw", {}),
    ("foster", 5, "layout", {}),
    ("foster", 5, "add", {}),
    ("foster", 5, "move-joker", {}),
    ("foster", 5, "discard", {}),
    ("foster", 5, "take-back", {}),
    ("foster-three", 3, "draw", {"stock": "exposed"}),
    ("colonel", 2, "challenge", {}),
    ("colonel", 2, "accept", {}),
    ("colonel", 2, "decline", {}),
]


def setup(
    make_table: Any,
    make_member: Any,
    variant: str,
    players: int,
    want: str,
    options: dict[str, Any],
) -> tuple[Any, list[Any], Deal]:
    seed, script = find_script(variant, players, want, options=options)
    members = [make_member() for _ in range(players)]
    table = make_table(variant, members, options=options)
    deal = deal_from_seed(table, seed)
    play_script(table, deal, script, members)
    return table, members, Deal.objects.get(pk=deal.pk)


def post(client: Any, table: Any, deal: Deal, **data: Any) -> Any:
    payload = {
        "version": deal.version,
        "deal": deal.pk,
        "token": data.pop("token", f"t-{deal.version}"),
    }
    if "action" in data:
        payload["action"] = json.dumps(data.pop("action"))
    payload |= data
    return client.post(f"/tables/{table.pk}/act/", payload, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize(
    ("variant", "players", "want", "options"), ACTION_TYPES, ids=lambda x: str(x)
)
def test_it_applies_every_action_type(
    make_table: Any,
    make_member: Any,
    client_for: Any,
    variant: str,
    players: int,
    want: str,
    options: dict[str, Any],
) -> None:
    table, members, deal = setup(make_table, make_member, variant, players, want, options)
    state = state_of(deal.pk)
    seat = state.to_move()
    action = next(a for a in state.legal_actions(seat) if a.type == want)
    r = post(client_for(members[seat]), table, deal, action=action.to_json())
    assert r.status_code == 200, r.content.decode()[:500]
    after = Deal.objects.filter(table=table).order_by("-number").first()
    logged = DealAction.objects.filter(deal=deal).order_by("-index").first()
    assert logged is not None and logged.action == action.to_json()
    assert after.pk != deal.pk or after.version == deal.version + 1


def test_it_lays_out_adds_and_discards_selected_cards(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    table, members, deal = setup(make_table, make_member, "foster", 5, "layout", {})
    state = state_of(deal.pk)
    seat = state.to_move()
    layout = next(a for a in state.legal_actions(seat) if a.type == "layout")
    cards = [base(c) for c in layout.to_json()["cards"]]
    c = client_for(members[seat])
    r = post(c, table, deal, intent="layout", cards=cards)
    assert r.status_code == 200, r.content.decode()[:800]
    deal.refresh_from_db()
    last = DealAction.objects.filter(deal=deal).order_by("-index").first()
    if "choose" in r.content.decode() or last.action["type"] != "layout":
        # several ways to name a joker: the page asks, offering each as a button
        assert 'class="choices"' in r.content.decode()
        post(c, table, deal, action=layout.to_json())
        deal.refresh_from_db()
    state = state_of(deal.pk)
    assert len(state.player_view(seat)["combinations"]) >= 1
    discard = next(a for a in state.legal_actions(seat) if a.type == "discard")
    r = post(c, table, deal, intent="discard", cards=[discard.to_json()["card"]])
    assert r.status_code == 200
    last = DealAction.objects.filter(deal=deal).order_by("-index").first()
    assert last.action["type"] == "discard"


def test_it_adds_a_selected_card_to_a_chosen_combination(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    table, members, deal = setup(make_table, make_member, "foster", 5, "add", {})
    state = state_of(deal.pk)
    seat = state.to_move()
    add = next(a for a in state.legal_actions(seat) if a.type == "add")
    j = add.to_json()
    r = post(
        client_for(members[seat]),
        table,
        deal,
        intent=f"add:{j['combination']}",
        cards=[base(j["card"])],
    )
    assert r.status_code == 200
    assert (
        'class="choices"' in r.content.decode()
        or DealAction.objects.filter(deal=deal, action__type="add").exists()
    )


def test_conquian_uses_the_turned_card_with_selected_cards(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    table, members, deal = setup(make_table, make_member, "conquian", 2, "use", {})
    state = state_of(deal.pk)
    seat = state.to_move()
    use = next(a for a in state.legal_actions(seat) if a.type == "use")
    j = use.to_json()
    c = client_for(members[seat])
    if j.get("to") is not None:
        r = post(c, table, deal, intent=f"add:{j['to']}")
    else:
        r = post(c, table, deal, intent="layout", cards=use.hand_codes())
    assert r.status_code == 200
    body = r.content.decode()
    assert (
        "Which do you mean?" in body
        or DealAction.objects.filter(deal=deal, action__type="use").exists()
    )


# --- refusals: the state is unchanged ---------------------------------------------------


@pytest.fixture
def conquian(make_table: Any, make_member: Any) -> tuple[Any, list[Any], Deal]:
    a, b = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [a, b])
    deal = deal_from_seed(table, 11)
    return table, [a, b], deal


def _mover(deal: Deal) -> tuple[int, Any]:
    state = state_of(deal.pk)
    seat = state.to_move()
    return seat, state.legal_actions(seat)


def test_it_refuses_a_player_out_of_turn(conquian: Any, client_for: Any) -> None:
    table, members, deal = conquian
    seat, legal = _mover(deal)
    before = snapshot(deal.pk)
    other = 1 - seat
    action = {**legal[0].to_json(), "seat": other}
    r = post(client_for(members[other]), table, deal, action=action)
    assert r.status_code == 409
    assert "not your turn" in r.content.decode()
    assert snapshot(deal.pk) == before


def test_it_refuses_another_players_seat(conquian: Any, client_for: Any) -> None:
    table, members, deal = conquian
    seat, legal = _mover(deal)
    before = snapshot(deal.pk)
    r = post(client_for(members[1 - seat]), table, deal, action=legal[0].to_json(), seat=seat)
    assert r.status_code == 403
    assert "your own seat" in r.content.decode()
    assert snapshot(deal.pk) == before


def test_it_refuses_a_spectator(conquian: Any, client_for: Any, make_member: Any) -> None:
    table, members, deal = conquian
    seat, legal = _mover(deal)
    before = snapshot(deal.pk)
    r = post(client_for(make_member("Watcher")), table, deal, action=legal[0].to_json())
    assert r.status_code == 403
    assert snapshot(deal.pk) == before


def test_it_refuses_a_stale_version(conquian: Any, client_for: Any) -> None:
    table, members, deal = conquian
    seat, legal = _mover(deal)
    before = snapshot(deal.pk)
    r = client_for(members[seat]).post(
        f"/tables/{table.pk}/act/",
        {
            "version": deal.version + 3,
            "deal": deal.pk,
            "token": "x1",
            "action": json.dumps(legal[0].to_json()),
        },
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 409
    assert "Stale: the table has moved on, here is the current state." in r.content.decode()
    assert snapshot(deal.pk) == before


@pytest.mark.parametrize(
    "payload",
    [
        {"action": "{not json"},
        {"action": json.dumps({"type": "fly", "seat": 0})},
        {"action": json.dumps({"type": "discard", "seat": 0, "card": "ZZ"})},
        {"version": "seven"},
        {"intent": "juggle"},
        {"intent": "discard"},
        {},
    ],
    ids=[
        "not-json",
        "unknown-type",
        "bad-card",
        "bad-version",
        "unknown-intent",
        "no-card",
        "empty",
    ],
)
def test_it_refuses_a_malformed_request(
    conquian: Any, client_for: Any, payload: dict[str, Any]
) -> None:
    table, members, deal = conquian
    seat, _ = _mover(deal)
    before = snapshot(deal.pk)
    data = {"version": deal.version, "deal": deal.pk, "token": "m1"} | payload
    if "action" in data and '"seat": 0' in data["action"]:
        data["action"] = data["action"].replace('"seat": 0', f'"seat": {seat}')
    r = client_for(members[seat]).post(f"/tables/{table.pk}/act/", data, HTTP_HX_REQUEST="true")
    assert r.status_code == 400, r.content.decode()[:300]
    assert snapshot(deal.pk) == before


def test_it_refuses_an_illegal_action_naming_the_law(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    table, members, deal = setup(make_table, make_member, "foster", 5, "discard", {})
    state = state_of(deal.pk)
    seat = state.to_move()
    hand = state.player_view(seat)["hand"]
    before = snapshot(deal.pk)
    # three cards that make no combination
    bad = hand[:3]
    r = post(
        client_for(members[seat]),
        table,
        deal,
        action={"type": "layout", "seat": seat, "cards": bad},
    )
    body = r.content.decode()
    if r.status_code == 200:  # by chance a real combination: try a discard of a card not held
        pytest.skip("random hand made a combination")
    assert r.status_code == 422, body[:500]
    assert "(law L" in body or "(law " in body
    assert snapshot(deal.pk) == before


def test_an_identical_resubmission_applies_once(conquian: Any, client_for: Any) -> None:
    table, members, deal = conquian
    seat, legal = _mover(deal)
    c = client_for(members[seat])
    r1 = post(c, table, deal, action=legal[0].to_json(), token="same-token")
    r2 = post(c, table, deal, action=legal[0].to_json(), token="same-token")
    assert r1.status_code == 200 and r2.status_code == 200
    assert "counted once" in r2.content.decode()
    assert DealAction.objects.filter(deal=deal).count() == 1
    deal.refresh_from_db()
    assert deal.version == 1


def test_a_refusal_is_said_in_the_players_language(
    conquian: Any, client_for: Any, make_member: Any
) -> None:
    """Issue 82: the engine's reasons (through the reader's catalog), the play side's own
    refusals and the selection's, each in the language of the player who asked, the
    laws' numbers as they are; the same refusals in English for an English reader."""
    from club.models import Member
    from tests.club.spanish import english_left

    table, members, deal = conquian
    seat, legal = _mover(deal)
    Member.objects.filter(pk__in=[m.pk for m in members]).update(language="es")
    mover, other = client_for(members[seat]), client_for(members[1 - seat])
    hand = state_of(deal.pk).player_view(seat)["hand"]
    refused = [
        # the engine's: a throw while the card in play waits for his say (L12)
        (
            mover,
            {"action": {"type": "throw", "seat": seat, "card": hand[0]}},
            "Una carta volteada nunca entra en la mano",
        ),  # fmt: skip
        # the play side's: not his turn
        (other, {"action": {**legal[0].to_json(), "seat": 1 - seat}}, "No es tu turno"),
        # the engine's, for a selection: the turned card alone laid out (L15)
        (mover, {"intent": "layout"}, "Una combinación tiene al menos tres cartas"),
        # the selection's own: a discard with no card selected
        (mover, {"intent": "discard"}, "Elige exactamente una carta para descartar"),
    ]
    before = snapshot(deal.pk)
    for client, data, said in refused:
        body = post(client, table, deal, **data).content.decode()
        notice = body[body.index('class="notice reject"') :]
        notice = notice[: notice.index("</p>")]
        assert said in notice, notice
        # the law cited as the sources number it ("L12 (two players)", "book p.50")
        reason = notice.split('<span class="law">')[0]
        assert not english_left(f"<p {reason}</p>"), notice
    assert snapshot(deal.pk) == before
    Member.objects.filter(pk__in=[m.pk for m in members]).update(language="en-gb")
    body = post(client_for(members[seat]), table, deal, intent="discard").content.decode()
    assert "Select exactly one card to discard" in body
