"""The club reads its games from the engine's registry (issue 26, step 2): the choices of
its models and forms, how many a table seats and seats by default. A game registered for
a test is offered, seated and formed at once, with no migration."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from club.evenings.forms import OpenSessionForm
from club.models import ClubSession, Table, default_size, variant_choices, variant_seats
from club.services.base import ClubError
from club.services.sessions import check_in
from club.services.tables import form_table
from club.tables.forms import FormTableForm
from games.engine import PlayerRange, registered
from games.engine.tunk import Tunk


class Quartet(Tunk):
    """A made-up game for the test: Tunk's engine, a club table of exactly four."""

    name = "quartet"
    display_name = "Quartet"
    description = "4 players"
    players = PlayerRange(2, 6, 4)
    seats = PlayerRange(4, 4, 4)
    order = 60


@pytest.fixture
def quartet() -> Iterator[Quartet]:
    with registered(Quartet()) as v:
        yield v


def test_todays_choices_seats_and_sizes_come_from_the_registry() -> None:
    assert variant_choices() == [
        ("foster", "Cooncan: four to seven players, double pack"),
        ("foster-three", "Cooncan for three: three players, one pack"),
        ("conquian", "Conquián: two players, forty cards"),
        ("colonel", "Colonel: two players, one pack"),
        ("tonk", "Tonk: two to five players, one pack"),
        ("tunk", "Tunk: two to five players, twos wild, a game to 100"),
    ]
    assert [variant_seats(v) for v, _ in variant_choices()] == [
        (4, 7), (3, 3), (2, 2), (2, 2), (2, 5), (2, 5),
    ]  # fmt: skip
    assert [default_size(v) for v, _ in variant_choices()] == [5, 3, 2, 2, 4, 4]


@pytest.mark.django_db
def test_a_registered_game_is_offered_by_the_models_and_forms_without_a_migration(
    quartet: Quartet,
) -> None:
    assert ("quartet", "Quartet: 4 players") in Table._meta.get_field("variant").choices
    assert ("quartet", "Quartet: 4 players") in ClubSession._meta.get_field(
        "default_variant"
    ).choices
    assert ("quartet", "Quartet: 4 players") in FormTableForm().fields["variant"].choices
    assert OpenSessionForm(
        {"name": "Quartets", "stake": "0.05", "default_variant": "quartet"}
    ).is_valid()
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # SystemExit if not


@pytest.mark.django_db
def test_a_registered_game_forms_a_table_of_its_seats(
    quartet: Quartet, session: ClubSession, make_members: Any
) -> None:
    members = make_members(5)
    for m in members:
        check_in(session, m)
    with pytest.raises(ClubError, match="Quartet is played by 4–4 players, not 5"):
        form_table(session, variant="quartet", size=5)
    table = form_table(session, variant="quartet")
    assert (table.variant, table.size, table.seats.count()) == ("quartet", 4, 4)


@pytest.mark.django_db
def test_a_game_not_registered_is_refused_and_nothing_is_made(
    session: ClubSession, make_members: Any
) -> None:
    for m in make_members(4):
        check_in(session, m)
    with pytest.raises(ClubError, match="unknown game 'quartet'"):
        form_table(session, variant="quartet")
    assert not Table.objects.exists()
    assert not FormTableForm({"variant": "quartet", "mode": "online"}).is_valid()
