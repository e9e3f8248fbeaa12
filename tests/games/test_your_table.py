"""Finding your table (issue 28, items 4 and 5): the menu on every page and the home page
say where the member is seated, with one tap to play; practice tables are numbered per
member and listed to return to; the practice form brings its own script everywhere."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.urls import reverse

from club.services.base import create_member
from club.services.practice import create_practice_table
from club.services.sessions import check_in, open_session
from club.services.tables import form_table


def _nav(body: str) -> str:
    found = re.search(r'<nav aria-label="Main">(.*?)</nav>', body, re.S)
    assert found
    return found.group(1)


def test_the_menu_and_home_say_where_the_member_is_seated(
    make_member: Any, client_for: Any
) -> None:
    secretary = create_member("sec", "Secretary", is_staff=True)
    session = open_session(stake=Decimal("0.05"), name="Friday", by=secretary.user)
    ann, bob = make_member("Ann"), make_member("Bob")
    for m in (ann, bob):
        check_in(session, m)
    table = form_table(session, variant="conquian")
    seat = table.seats.get(member=ann)
    c = client_for(ann)
    link = f'href="/tables/{table.pk}/" class="your-table"'
    for page in ("/", reverse("club:standings"), reverse("club:sessions")):
        nav = _nav(c.get(page).content.decode())
        assert link in nav, page
        assert f"Table {table.number} · seat {seat.position + 1}" in nav
    home = c.get("/").content.decode()
    assert f"You are seated at <strong>Table {table.number}</strong>" in home
    # Somebody not seated has no such link.
    carl = make_member("Carl")
    assert "your-table" not in _nav(client_for(carl).get("/").content.decode())


def test_practice_tables_are_numbered_per_member_and_listed_to_return_to(
    make_member: Any, client_for: Any
) -> None:
    ann, bob = make_member("Ann"), make_member("Bob")
    first = create_practice_table(ann, "conquian", 2)
    second = create_practice_table(ann, "foster", 5)
    other = create_practice_table(bob, "conquian", 2)
    assert (first.label, second.label, other.label) == (
        "Practice table 1",
        "Practice table 2",
        "Practice table 1",
    )
    home = client_for(ann).get("/").content.decode()
    assert "Your practice tables:" in home
    assert f'<a href="/tables/{second.pk}/">Practice table 2</a>' in home
    assert f'<a href="/tables/{first.pk}/">Practice table 1</a>' in home
    assert f"/tables/{other.pk}/" not in home
    page = client_for(ann).get(f"/tables/{second.pk}/").content.decode()
    assert "<h1>Practice table 2 " in page


def test_the_practice_form_brings_its_script_on_every_page(
    client_for: Any, make_member: Any
) -> None:
    c = client_for(make_member("Ann"))
    for page in ("/", reverse("games:practice")):
        body = c.get(page).content.decode()
        assert body.count("js/games-practice.js") == 1, page
        assert 'class="variant-options"' in body
