"""Bad input gets a clear 4xx and changes nothing (issue 37, item 4): each case here
answered 500 before (IntegrityError, RecursionError) or was taken as it came (names with
control, bidi-override or zero-width characters)."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Substitution, Table
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from games.models import DealAction
from games.play import reading
from games.play import services as game_services

from .test_concurrency import _client, _online_table

pytestmark = pytest.mark.django_db

Make = Callable[..., list[Any]]


@pytest.fixture
def quiet_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: None)


def test_a_second_substitute_proposal_by_the_same_leaver_is_refused_or_counted_once(
    make_members: Make,
) -> None:
    (secretary,) = make_members(1, "sec", staff=True)
    session = open_session(stake=Decimal("0.05"), by=secretary.user)
    ann, bob, cat, dan = make_members(4)
    for m in (ann, bob, cat, dan):
        check_in(session, m)
    table = form_table(
        session, variant="conquian", size=2, mode=Table.PHYSICAL, candidates=[ann, bob]
    )
    leaver = _client(ann)
    url = reverse("club:table_substitute", args=[table.pk])
    assert leaver.post(url, {"substitute": cat.pk}).status_code == 302
    assert leaver.post(url, {"substitute": cat.pk}).status_code == 302  # a double submit
    other = leaver.post(url, {"substitute": dan.pk})
    assert other.status_code == 400  # refused, with the message
    assert "already appointed" in other.content.decode()
    assert list(Substitution.objects.values_list("substitute", flat=True)) == [cat.pk]


def test_a_client_token_sent_again_at_the_current_version_applies_nothing(
    make_members: Make, quiet_bots: None
) -> None:
    members = make_members(2)
    table = _online_table(members)
    deal = game_services.ensure_deal(table.pk)
    assert deal is not None
    url = reverse("games:act", args=[table.pk])
    for _ in range(2):  # the second: the same token, the version the first moved on to
        deal.refresh_from_db()
        state = reading.load_state(deal)
        mover = _client(members[deal.to_move])
        action = state.legal_actions(state.to_move())[0].to_json()
        r = mover.post(url, {"version": deal.version, "deal": deal.pk, "token": "tab-1",
                             "action": json.dumps(action)}, headers={"HX-Request": "true"})  # fmt: skip
        assert r.status_code == 200, r.content[:500]
    assert DealAction.objects.filter(deal=deal).count() == 1
    assert "Already done" in r.content.decode()


def test_ten_thousand_deep_json_from_any_member_is_refused(make_members: Make) -> None:
    seated, stranger = make_members(2)[0], make_members(1)[0]
    table = _online_table([seated, make_members(1)[0]])
    deep = "[" * 10_000 + "]" * 10_000
    for who in (seated, stranger):
        r = _client(who).post(
            reverse("games:act", args=[table.pk]),
            {"version": 0, "action": deep}, headers={"HX-Request": "true"},
        )  # fmt: skip
        assert r.status_code == 400
        assert "not JSON" in r.content.decode() or "too long" in r.content.decode()
    long = json.dumps({"type": "discard", "card": "x" * 5000})
    r = _client(seated).post(reverse("games:act", args=[table.pk]), {"version": 0, "action": long})
    assert r.status_code == 400 and "too long" in r.content.decode()


@pytest.mark.parametrize(
    "name", ["Eve\u202eevil", "Zed\u200bZed", "Bell\x07", "Esc\x1b[31m", "Two\nLines", "Tab\tbed"]
)
def test_names_with_hidden_characters_are_refused_beside_their_field(
    client: Client, make_members: Make, name: str
) -> None:
    (secretary,) = make_members(1, "sec", staff=True)
    session = open_session(stake=Decimal("0.05"), by=secretary.user)
    client.force_login(secretary.user)
    members = Member.objects.count()
    r = client.post(reverse("club:arrival_add", args=[session.pk]), {"new_name": name})
    assert r.status_code == 400
    body = r.content.decode()
    assert 'id="id_new_name_error"' in body and "control, direction or invisible" in body
    assert Member.objects.count() == members
    r = client.post(
        reverse("club:session_open"),
        {"name": name, "stake": "0.05", "default_variant": "conquian", "second": "on"},
    )
    assert r.status_code == 400 and 'id="id_name_error"' in r.content.decode()
    assert ClubSession.objects.count() == 1
