"""Pages: they render, they refuse the wrong people, bad input is a 4xx and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import ClubSession, Member, Table, WashbookLine
from club.services.ledger import balance_of, balance_session
from club.services.sessions import check_in
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

from .conftest import field_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(
    session: ClubSession, make_members: Callable[..., list[Member]], no_queue: list[int]
) -> dict[str, object]:
    ms = make_members(5)
    for m in ms:
        check_in(session, m)
    table = form_table(session, variant="foster", size=5, mode=Table.PHYSICAL)
    enter_physical_result(
        table.pk,
        PhysicalResult(winner_id=ms[0].pk, losses={ms[1].pk: 12, **{m.pk: 0 for m in ms[2:]}}),
    )
    return {"session": session, "members": ms, "table": table}


def test_the_pages_render_for_the_secretary(client: Client, secretary: Member, club: dict) -> None:  # type: ignore[type-arg]
    client.force_login(secretary.user)
    s, t, m = club["session"], club["table"], club["members"][0]
    for url in [
        reverse("home"),
        reverse("club:sessions"),
        reverse("club:session", args=[s.pk]),
        reverse("club:table", args=[t.pk]),
        reverse("club:washbook", args=[t.pk]),
        reverse("club:session_washbook", args=[s.pk]),
        reverse("club:settlement", args=[s.pk]),
        reverse("club:member", args=[m.pk]),
        reverse("club:statement", args=[m.pk, s.pk]),
        reverse("club:standings"),
    ]:
        r = client.get(url)
        assert r.status_code == 200, url
    r = client.get(reverse("club:washbook", args=[t.pk]) + "?format=csv")
    assert r["Content-Type"].startswith("text/csv") and b"proof" in r.content
    r = client.get(reverse("club:session", args=[s.pk]), headers={"HX-Request": "true"})
    assert r.status_code == 200 and b"<html" not in r.content and b'id="live"' in r.content


def test_members_see_only_their_own_statements(client: Client, club: dict) -> None:  # type: ignore[type-arg]
    me, other = club["members"][0], club["members"][1]
    client.force_login(me.user)
    assert client.get(reverse("club:member", args=[me.pk])).status_code == 200
    assert client.get(reverse("club:member", args=[other.pk])).status_code == 403
    assert (
        client.get(reverse("club:statement", args=[other.pk, club["session"].pk])).status_code
        == 403
    )


def test_secretary_actions_need_staff(client: Client, club: dict) -> None:  # type: ignore[type-arg]
    client.force_login(club["members"][0].user)
    assert client.post(reverse("club:session_close", args=[club["session"].pk])).status_code == 403
    assert client.post(reverse("club:table_result", args=[club["table"].pk]), {}).status_code == 403
    assert ClubSession.objects.get(pk=club["session"].pk).status == "open"


def test_a_bad_result_is_a_400_and_changes_nothing(
    client: Client, secretary: Member, club: dict
) -> None:  # type: ignore[type-arg]
    client.force_login(secretary.user)
    t, ms = club["table"], club["members"]
    before = WashbookLine.objects.count()
    for data in [
        {"winner": ms[0].pk},
        {"winner": "x"},
        {"winner": ms[0].pk, f"pips_{ms[0].pk}": 4, f"pips_{ms[1].pk}": 3},
    ]:
        r = client.post(reverse("club:table_result", args=[t.pk]), data)
        assert r.status_code == 400
    assert WashbookLine.objects.count() == before
    # A loser left blank: the result does not account for every player (issue 29, item 3).
    blank = {"winner": ms[2].pk, f"cards_{ms[3].pk}": "KS 5H", f"pips_{ms[0].pk}": 3}
    blank |= {f"pips_{ms[1].pk}": 0}
    r = client.post(reverse("club:table_result", args=[t.pk]), blank)
    assert r.status_code == 400
    assert "give the pips or the cards left in the hand" in field_error(
        r.content.decode(), f"pips_{ms[4].pk}"
    )
    assert WashbookLine.objects.count() == before
    r = client.post(reverse("club:table_result", args=[t.pk]), blank | {f"pips_{ms[4].pk}": 0})
    assert r.status_code == 302 and WashbookLine.objects.count() == before + 1


def test_state_changes_need_post_and_csrf(secretary: Member, club: dict) -> None:  # type: ignore[type-arg]
    c = Client(enforce_csrf_checks=True)
    c.force_login(secretary.user)
    url = reverse("club:session_close", args=[club["session"].pk])
    # A GET (a reload of the address a refused close left in the bar) goes back to the
    # close confirmation, changing nothing (issue 79: it answered 405).
    back = c.get(url)
    assert back.status_code == 302 and back["Location"].endswith("/close/confirm/")
    assert c.post(url).status_code == 403
    assert ClubSession.objects.get(pk=club["session"].pk).status == "open"


def test_the_secretary_closes_and_pays(client: Client, secretary: Member, club: dict) -> None:  # type: ignore[type-arg]
    client.force_login(secretary.user)
    s = club["session"]
    assert client.post(reverse("club:session_close", args=[s.pk])).status_code == 302
    balance_session(s.pk)
    transfer = s.transfers.get()
    assert client.post(reverse("club:transfer_pay", args=[transfer.pk])).status_code == 302
    assert client.post(reverse("club:transfer_pay", args=[transfer.pk])).status_code == 400
    assert balance_of(club["members"][0]) == 0


def test_the_washbook_page_queries_do_not_grow_with_lines(
    client: Client, secretary: Member, club: dict
) -> None:  # type: ignore[type-arg]
    client.force_login(secretary.user)
    t, ms = club["table"], club["members"]
    url = reverse("club:washbook", args=[t.pk])

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    few = count()
    for i in range(10):
        enter_physical_result(
            t.pk,
            PhysicalResult(
                winner_id=ms[i % 5].pk,
                losses={m.pk: 7 if m == ms[(i + 1) % 5] else 0 for m in ms if m != ms[i % 5]},
            ),
        )
    assert count() == few


def test_words_one_game_two_games_and_seats_from_one(
    client: Client, secretary: Member, club: dict
) -> None:  # type: ignore[type-arg]
    from club.models import Seat

    client.force_login(secretary.user)
    t = club["table"]
    seats = list(Seat.objects.filter(table=t).order_by("position"))
    Seat.objects.filter(pk=seats[0].pk).update(consecutive_games=1)
    Seat.objects.filter(pk=seats[1].pk).update(consecutive_games=2)
    body = client.get(reverse("club:session", args=[club["session"].pk])).content.decode()
    assert "(1 game)" in body and "(2 games)" in body and "(1 games)" not in body
    assert "1 deal played" in client.get(reverse("club:table", args=[t.pk])).content.decode()
    assert str(seats[0]).split(" seat ")[1].startswith("1:")


def test_the_washbook_page_and_export_number_deals_by_game(
    client: Client, secretary: Member, club: dict
) -> None:  # type: ignore[type-arg]
    client.force_login(secretary.user)
    t, s = club["table"], club["session"]
    for url in (
        reverse("club:washbook", args=[t.pk]),
        reverse("club:session_washbook", args=[s.pk]),
    ):
        assert "<td>Game 1, deal 1</td>" in client.get(url).content.decode()
    export = client.get(reverse("club:washbook", args=[t.pk]) + "?format=csv").content.decode()
    assert export.splitlines()[0].startswith("date,table,line,kind,game,deal,dealer,winner,value")
