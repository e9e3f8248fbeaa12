"""The secretary's forms can't go wrong quietly (issue 27, item 3): bad input gets a clear
message beside its field on the same page, and nothing is created."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Table
from club.services.base import ClubError, create_member
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from tests.club.conftest import field_error

pytestmark = pytest.mark.django_db


def _open(client: Client, **data: str) -> tuple[int, str]:
    post = {"name": "Tuesday", "stake": "0.05", "default_variant": "foster"} | data
    r = client.post(reverse("club:session_open"), post)
    return r.status_code, r.content.decode()


def test_an_evening_needs_a_name_told_beside_the_field(staff: Client) -> None:
    for name in ("", "   "):
        status, body = _open(staff, name=name)
        assert status == 400
        assert "Give the evening a name." in field_error(body, "name")
        assert 'role="alert">The evening was not opened' in body
    assert not ClubSession.objects.exists()


@pytest.mark.parametrize(
    ("stake", "message"),
    [("", "This field is required."),
     ("abc", "The stake must be written like 0.05: digits and a point only"),
     # issue 53, item 3: amounts Decimal() took and quantize() then raised on (500), or
     # digits that are not ASCII
     ("1e30", "The stake must be written like 0.05"),
     ("NaN", "The stake must be written like 0.05"),
     ("0.0\u0665", "The stake must be written like 0.05"),
     ("9" * 29, "The stake must be written like 0.05"),
     ("0", "The stake must be at least £0.01 a point"),
     # issue 42: a stake the club's money (two places) could not pay a point's
     # difference in: 0.0049 turned a 30-point win into 0.147
     ("0.00001", "The stake must be a whole number of £0.01"),
     ("0.0049", "a one-point difference at 0.0049 could not be paid in it"),
     ("0.005", "The stake must be a whole number of £0.01"),
     ("1000.01", "The stake must be at most £1,000.00 a point")],
)  # fmt: skip
def test_a_bad_stake_is_told_beside_the_field(staff: Client, stake: str, message: str) -> None:
    status, body = _open(staff, stake=stake)
    assert status == 400 and message in field_error(body, "stake")
    assert not ClubSession.objects.exists()


def test_the_stake_is_shown_in_the_clubs_currency(staff: Client) -> None:
    """Issue 42, item 1: a stake of 0.05 reads "£0.05 a point" on the evenings' list and
    the evening's page (the database keeps four places: 0.0500)."""
    assert _open(staff, stake="0.05")[0] == 302
    session = ClubSession.objects.get()
    listed = staff.get(reverse("club:sessions")).content.decode()
    assert "stake £0.05 a point" in listed and "0.0500" not in listed
    page = staff.get(session.get_absolute_url()).content.decode()
    assert "<strong>£0.05</strong> a point" in page


def test_one_open_evening_unless_a_second_is_opened_on_purpose(staff: Client) -> None:
    assert _open(staff)[0] == 302
    status, body = _open(staff, name="Late table")
    assert status == 400
    assert "Tuesday is still open: close it first" in field_error(body, "second")
    assert ClubSession.objects.count() == 1
    status, body = _open(staff, name="tuesday", second="on")
    assert status == 400 and "already called tuesday." in field_error(body, "name")
    assert _open(staff, name="Late table", second="on")[0] == 302
    assert ClubSession.objects.filter(status=ClubSession.OPEN).count() == 2


def test_the_service_refuses_a_second_open_evening_too(secretary: Member) -> None:
    open_session(stake="0.05", name="Tuesday")
    with pytest.raises(ClubError, match="still open") as e:
        open_session(stake="0.05", name="Other")
    assert e.value.field == "second"


@pytest.fixture
def waiting(session: ClubSession, make_members: Callable[..., list[Member]]) -> ClubSession:
    for m in make_members(3):
        check_in(session, m)
    return session


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"variant": "foster", "size": "3"}, "size", "Cooncan is played by 4–7 players, not 3."),
        ({"variant": "foster"}, "size", "Cooncan needs at least 4 players; 3 waiting."),
        ({"variant": "chess"}, "variant", "Select a valid choice. chess is not one of"),
        ({"variant": "conquian", "size": "9"}, "size", "less than or equal to 7"),
    ],
)
def test_a_table_form_error_is_told_beside_its_field_and_no_table_is_made(
    staff: Client, waiting: ClubSession, data: dict[str, str], field: str, message: str
) -> None:
    r = staff.post(reverse("club:table_create", args=[waiting.pk]), {"mode": Table.PHYSICAL} | data)
    assert r.status_code == 400
    body = r.content.decode()
    assert message in field_error(body, field)
    assert "Form a table" in body  # the session page itself, not a dead end
    assert 'role="alert">No table was formed' in body
    assert not Table.objects.exists()


@pytest.fixture
def physical(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> tuple[Table, list[Member]]:
    ms = make_members(4)
    for m in ms:
        check_in(session, m)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    return table, [s.member for s in table.seats.select_related("member")]


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (lambda a, b: {"winner": a.pk, f"cards_{b.pk}": "KS ZZ"}, "cards_{b}",
         "cards: not a card: 'ZZ' (write e.g. KS, 10H, AD, JK)."),
        (lambda a, b: {"winner": a.pk, f"pips_{a.pk}": "4", f"pips_{b.pk}": "3"}, "pips_{a}",
         "went out: the winner has no cards left to count."),
        (lambda a, b: {"winner": a.pk, f"cards_{a.pk}": "KS", f"pips_{b.pk}": "3"}, "cards_{a}",
         "went out: the winner has no cards left to count."),
        (lambda a, b: {"winner": a.pk, f"pips_{b.pk}": "999"}, "pips_{b}",
         "hand cannot hold 999 pips: at most"),
        (lambda a, b: {"winner": a.pk, f"cards_{b.pk}": " ".join(["JK"] * 12)}, "cards_{b}",
         "hand cannot hold 180 pips: at most"),
        (lambda a, b: {"winner": a.pk, f"pips_{b.pk}": "3", f"cards_{b.pk}": "KS"}, "cards_{b}",
         "pips or cards, not both."),
        (lambda a, b: {"winner": a.pk, f"pips_{b.pk}": "-3"}, "pips_{b}",
         "pips cannot be negative."),
        (lambda a, b: {"winner": "nobody"}, "winner", "Select a valid choice."),
    ],
)  # fmt: skip
def test_a_bad_result_is_told_beside_its_field_and_posts_nothing(
    staff: Client, physical: tuple[Table, list[Member]], data: object, field: str, message: str
) -> None:
    table, (a, b, *_) = physical
    r = staff.post(reverse("club:table_result", args=[table.pk]), data(a, b))  # type: ignore[operator]
    assert r.status_code == 400
    body = r.content.decode().replace("&#x27;", "'")
    assert message in field_error(body, field.format(a=a.pk, b=b.pk))
    assert 'role="alert">No line was posted' in body and "Enter a deal" in body
    assert not table.lines.exists()


def test_five_mistakes_in_one_result_are_all_told_after_one_submit(
    staff: Client, physical: tuple[Table, list[Member]]
) -> None:
    """Issue 79, item 5: "Give Mary's pips or cards, not both" appeared only once her
    pips (refused by the form, so left out) were mended, and "ZZ 99 KH" named only ZZ."""
    table, (a, b, c, d) = physical
    r = staff.post(reverse("club:table_result", args=[table.pk]), {
        f"pips_{a.pk}": "x", f"cards_{a.pk}": "KS",   # pips not a number, and both given
        f"cards_{b.pk}": "ZZ 99 KH",                   # two bad cards
        f"pips_{c.pk}": "-3",                          # negative
        f"extra_{d.pk}": "-1", f"pips_{d.pk}": "4",    # negative extra
    })  # fmt: skip
    assert r.status_code == 400
    body = r.content.decode().replace("&#x27;", "'")
    assert "Say who went out." in field_error(body, "winner")
    assert "whole number" in field_error(body, f"pips_{a.pk}")
    assert "pips or cards, not both." in field_error(body, f"cards_{a.pk}")
    assert "not cards: 'ZZ', '99'" in field_error(body, f"cards_{b.pk}")
    assert "cannot be negative" in field_error(body, f"pips_{c.pk}")
    assert "cannot be negative" in field_error(body, f"extra_{d.pk}")
    assert not table.lines.exists()


def test_a_result_with_nobody_paying_is_told_above_the_form(
    staff: Client, physical: tuple[Table, list[Member]]
) -> None:
    table, (a, *others) = physical
    zeros = {f"pips_{m.pk}": 0 for m in others}
    r = staff.post(reverse("club:table_result", args=[table.pk]), {"winner": a.pk} | zeros)
    assert r.status_code == 400
    assert "The losers paid nothing: enter their pips." in r.content.decode()
    assert not table.lines.exists()


def test_a_loser_left_blank_is_told_beside_his_field(
    staff: Client, physical: tuple[Table, list[Member]]
) -> None:
    """Every player of the deal is accounted for: a blank loser is not taken as 0 pips."""
    table, (a, b, c, d) = physical
    r = staff.post(
        reverse("club:table_result", args=[table.pk]),
        {"winner": a.pk, f"pips_{b.pk}": 5, f"cards_{c.pk}": "KS"},
    )
    assert r.status_code == 400
    message = field_error(r.content.decode(), f"pips_{d.pk}")
    assert f"{d.display_name} played this deal: give the pips or the cards left" in message
    assert not table.lines.exists()


def test_impossible_results_are_refused_by_the_service_whatever_sends_them(
    physical: tuple[Table, list[Member]],
) -> None:
    """Not only the form: the service refuses a result that cannot have happened."""
    from club.services.physical import most_pips
    from club.services.washbook import PhysicalResult, enter_physical_result

    table, (a, b, c, d) = physical
    ceiling = most_pips(table)
    rest = {c.pk: 0, d.pk: 0}
    outsider = create_member("outsider", "Outsider")
    for result, message in [
        (PhysicalResult(winner_id=a.pk, losses={a.pk: 3, b.pk: 4, **rest}), "no cards left"),
        (PhysicalResult(winner_id=a.pk, losses={b.pk: ceiling + 1, **rest}), "cannot hold"),
        (PhysicalResult(winner_id=a.pk, losses={b.pk: 4, c.pk: 1}), "give the pips"),
        (PhysicalResult(winner_id=a.pk, losses={outsider.pk: 5}), "not seated"),
        (PhysicalResult(winner_id=outsider.pk, losses={b.pk: 5}), "not seated"),
    ]:
        with pytest.raises(ClubError, match=message):
            enter_physical_result(table.pk, result)
    assert not table.lines.exists()
    line = enter_physical_result(
        table.pk,
        PhysicalResult(winner_id=a.pk, losses={b.pk: ceiling, **rest}, note="a big hand"),
    )
    assert line.detail["note"] == "a big hand"
