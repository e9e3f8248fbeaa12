"""The pages in Spanish with no English left over (issue 82, item 5): each page rendered
for a reader whose language is Spanish, its words and its ``aria-label``s read
(tests/club/spanish.py). ``TRANSLATED`` lists the pages translated so far; every page
joins it as it is translated, and the issue is done when every page is in it."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from club.models import ClubSession, Member
from club.services import setup
from club.services.base import create_member
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from tests.club.spanish import english_left, said

pytestmark = pytest.mark.django_db

SPANISH = {"accept-language": "es-MX,es;q=0.9"}


def test_the_reading_finds_english_and_passes_spanish() -> None:
    page = (
        '<p>Tu mesa: <strong>Mesa 1</strong></p><button aria-label="Your table">x</button>'
        "<p>Rosa · MX$1,50</p><code>make run</code><p>Play the game</p>"
    )
    assert said(page) == [
        "Tu mesa:",
        "Mesa 1",
        "Your table",
        "x",
        "Rosa · MX$1,50",
        "Play the game",
    ]
    assert english_left(page) == ["Your table", "Play the game"]
    # The books' stored words, marked as English, are English by right.
    marked = '<td lang="en-GB">Opened the evening: <b>two</b> tables</td><td>Abrió</td>'
    assert english_left(marked) == [] and said(marked) == ["Abrió"]


@pytest.fixture
def evening() -> tuple[Member, Member, ClubSession]:
    """Rosa (the secretary) opens an evening; Ana and Beto play Conquián at a table in
    the browser, its first deal dealt; Carla waits."""
    rosa = create_member("rosa", "Rosa", is_staff=True)
    ana, beto, carla = (
        create_member(u, u.capitalize(), password="a long pass phrase")
        for u in ("ana", "beto", "carla")
    )
    session = open_session(
        stake=Decimal("0.05"), by=rosa.user, fee_member=Decimal("1.50"), default_variant="conquian"
    )
    for m in (ana, beto, carla):
        check_in(session, m)
    table = form_table(session, variant="conquian", candidates=[ana, beto], by=rosa.user)
    from games.play import services as play

    assert play.ensure_deal(table.pk) is not None
    return rosa, ana, session


def _as(member: Member | None) -> Client:
    c = Client(headers=SPANISH)
    if member is not None:
        c.force_login(member.user)
    return c


Page = Callable[[tuple[Member, Member, ClubSession]], tuple[Member | None, str]]

TRANSLATED: dict[str, Page] = {
    "home, logged out": lambda e: (None, "/"),
    "log in": lambda e: (None, "/login/"),
    "setup, the code asked": lambda e: (None, "/setup/"),
    "home, a member": lambda e: (e[1], "/"),
    "evenings, a member": lambda e: (e[1], "/sessions/"),
    "evenings, the secretary": lambda e: (e[0], "/sessions/"),
    "a member's own page": lambda e: (e[1], f"/members/{e[1].pk}/"),
    "a member's page, the secretary": lambda e: (e[0], f"/members/{e[1].pk}/"),
    "not found": lambda e: (e[1], "/members/999999/"),
    "the evening, a member": lambda e: (e[1], f"/sessions/{e[2].pk}/"),
    "the evening, the secretary": lambda e: (e[0], f"/sessions/{e[2].pk}/"),
    "the console": lambda e: (e[0], f"/sessions/{e[2].pk}/console/"),
    "closing the evening": lambda e: (e[0], f"/sessions/{e[2].pk}/close/confirm/"),
    "the evening's washbook": lambda e: (e[0], f"/sessions/{e[2].pk}/washbook/"),
    "a table's washbook": lambda e: (e[1], f"/club/tables/{e[2].tables.get().pk}/washbook/"),
    "the table in play, a player": lambda e: (e[1], e[2].tables.get().get_absolute_url()),
    "the table, the secretary watching": lambda e: (e[0], e[2].tables.get().get_absolute_url()),
    "the standings": lambda e: (e[1], "/standings/"),
    "the members, the secretary": lambda e: (e[0], "/members/"),
    "a member's full statement": lambda e: (e[1], f"/members/{e[1].pk}/statement/"),
    "a member's statement for a period": lambda e: (
        e[1],
        f"/members/{e[1].pk}/statement/period/?since=2026-01-01&until=2026-12-31",
    ),
    "a member's statement of an evening": lambda e: (
        e[1],
        f"/members/{e[1].pk}/sessions/{e[2].pk}/",
    ),
    "the club's account": lambda e: (e[0], "/club/account/"),
    "who owes what": lambda e: (e[0], "/club/owed/"),
    "the audit log": lambda e: (e[0], "/audit/"),
    "the backups": lambda e: (e[0], "/backups/"),
    "the house rules": lambda e: (e[0], "/house-rules/"),
    "a table's club page": lambda e: (e[0], f"/club/tables/{e[2].tables.get().pk}/"),
    "the evening on paper": lambda e: (e[0], f"/sessions/{e[2].pk}/print/"),
    "changing one's password": lambda e: (e[1], "/password/"),
    "a forgotten password": lambda e: (None, "/password/forgot/"),
    "the rules": lambda e: (None, "/rules/"),
    "the rules of Tonk": lambda e: (None, "/rules/tonk/"),
    "the rules in force at a table": lambda e: (
        e[1],
        f"/rules/conquian/?table={e[2].tables.get().pk}",
    ),
}


@pytest.mark.parametrize("name", list(TRANSLATED))
def test_the_page_says_nothing_in_english(
    name: str, evening: tuple[Member, Member, ClubSession]
) -> None:
    who, url = TRANSLATED[name](evening)
    page = _as(who).get(url)
    assert page.status_code in (200, 404), page.status_code
    assert '<html lang="es">' in page.text
    left = english_left(page.text)
    assert not left, "English left on the page:\n" + "\n".join(left)


def test_the_setup_page_says_nothing_in_english(settings: Any) -> None:
    page = Client(headers=SPANISH).get("/setup/", {"code": setup.setup_code()})
    assert page.status_code == 200
    # The time zones' names are the zones' own (America/Mexico_City), not sentences.
    left = english_left(page.text)
    assert not left, "English left on the page:\n" + "\n".join(left)


def test_money_on_a_page_has_the_readers_digits(
    evening: tuple[Member, Member, ClubSession],
) -> None:
    _rosa, ana, _session = evening
    spanish = _as(ana).get("/sessions/").text
    english = Client(headers={"accept-language": "en-GB"})
    english.force_login(ana.user)
    assert "apuesta de £0,05 el punto" in spanish and "£0.05" not in spanish
    assert "stake £0.05 a point" in english.get("/sessions/").text


def test_two_players_at_one_table_each_read_their_own_language(
    evening: tuple[Member, Member, ClubSession],
) -> None:
    """Ana's profile says Spanish, Beto's English; both browsers ask for Spanish first:
    each member's own choice wins, at the same table, the log's cards named in each."""
    _rosa, ana, session = evening
    beto = Member.objects.get(display_name="Beto")
    Member.objects.filter(pk=ana.pk).update(language="es")
    Member.objects.filter(pk=beto.pk).update(language="en-gb")
    url = session.tables.get().get_absolute_url()
    pages = {}
    for m in (ana, beto):
        c = Client(headers=SPANISH)
        c.post("/login/", {"username": m.user.username, "password": "a long pass phrase"})
        pages[m.display_name] = c.get(url).text
    assert '<html lang="es">' in pages["Ana"] and "Tu mano" in pages["Ana"]
    assert '<html lang="en-gb">' in pages["Beto"] and "Your hand" in pages["Beto"]
    assert "Mazo" in pages["Ana"] and "<h2>Pack</h2>" in pages["Beto"]
    assert english_left(pages["Ana"]) == []
    assert "Registro" not in pages["Beto"] and "<h2>Log</h2>" in pages["Beto"]


def test_a_refusal_names_what_it_refuses_in_the_readers_language(db: Any) -> None:
    """The words a refusal is built around ("a member's table fee", "the evening's name")
    are the reader's too, not English inside a Spanish sentence."""
    from django.utils import translation

    from club.services.base import ClubError

    with translation.override("es"), pytest.raises(ClubError) as refused:
        open_session(stake=Decimal("0.05"), fee_member="uno")
    assert "la cuota de mesa de un socio" in str(refused.value), refused.value
    with translation.override("es"), pytest.raises(ClubError) as refused:
        open_session(stake=Decimal("0.05"), name="Martes\u202e")
    assert str(refused.value).startswith("el nombre de la velada no puede"), refused.value
    assert not english_left(f"<p>{refused.value}</p>")


def test_a_practice_tables_title_is_the_readers_and_the_books_keep_theirs(
    db: Any, make_members: Callable[..., list[Member]]
) -> None:
    from django.utils import translation

    from club.services.base import books_label
    from club.services.practice import create_practice_table

    (ana,) = make_members(1)
    table = create_practice_table(ana, "conquian", 2)
    c = Client(headers=SPANISH)
    c.force_login(ana.user)
    page = c.get(table.get_absolute_url()).text
    assert "<h1>Mesa de práctica 1 " in page, page[page.find("<h1") :][:200]
    assert "<title>Mesa de práctica 1 " in page
    with translation.override("es"):
        assert books_label(table) == "Practice table 1"


def test_an_amount_is_read_as_its_reader_writes_it(db: Any) -> None:
    """A reader whose language writes a decimal comma ("0,50") may type one; the English
    reader's comma is still no amount. A refusal's amounts are in the reader's digits."""
    from django.utils import translation

    from club.services.base import ClubError
    from club.services.money import check_amount

    with translation.override("es"):
        assert check_amount("1,50", field="f", what="la cantidad") == Decimal("1.50")
        assert check_amount("1.50", field="f", what="la cantidad") == Decimal("1.50")
        with pytest.raises(ClubError) as refused:
            check_amount("0", field="f", what="la cantidad")
        assert "0,01" in str(refused.value) and not english_left(f"<p>{refused.value}</p>")
        with pytest.raises(ClubError):
            check_amount("1,500,00", field="f", what="la cantidad")
    with translation.override("en-gb"), pytest.raises(ClubError):
        check_amount("1,50", field="f", what="the amount")


def test_a_citation_is_read_in_its_readers_words_and_its_number_kept(db: Any) -> None:
    """A law cited with words (Foster's "book p.50", "L12 (two players)", the seed's
    "CL-1 (seed 003)") reads in the reader's language on the rules page and beside a
    move in the log; its number stays as the source gives it (issue 82, item 3)."""
    from django.utils import translation

    from games.play.presenters import log_law

    spanish = Client(headers=SPANISH)
    conquian = spanish.get("/rules/conquian/").text
    assert "libro p. 50" in conquian and "L12 (dos jugadores)" in conquian
    assert "book p." not in conquian and "two players" not in conquian
    assert "CL-1 (fuente 003)" in spanish.get("/rules/colonel/").text
    english = Client(headers={"accept-language": "en-GB"}).get("/rules/conquian/").text
    assert "book p.50" in english and "L12 (two players)" in english
    with translation.override("es"):
        assert log_law("book p.51") == "libro p. 51"
        assert log_law("L19") == "L19"  # a number alone is the source's
        assert log_law("max_turnovers") == "max turnovers"


def test_a_forms_amount_is_given_as_its_reader_types_it(db: Any, settings: Any) -> None:
    """The stake and the fees a form starts from read as the page's other amounts do
    ("0,05" in Spanish), and go back as typed; a refusal's example too (issue 82, item 4)."""
    from django.utils import translation

    from club.evenings.forms import OpenSessionForm
    from club.services import money

    settings.CLUB_TABLE_FEE_MEMBER = "1.50"
    with translation.override("es"):
        form = OpenSessionForm()
        assert 'value="0,05"' in str(form["stake"]) and 'value="1,50"' in str(form["fee_member"])
        assert money.check_stake(form["stake"].initial) == Decimal("0.05")
        assert money.example() == "2,50"
    with translation.override("en-gb"):
        form = OpenSessionForm()
        assert 'value="0.05"' in str(form["stake"]) and 'value="1.50"' in str(form["fee_member"])
        assert money.example() == "2.50"
