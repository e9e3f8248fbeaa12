"""A Tunk deal played with real cards (issue 41, item 4): the secretary says how it
ended (the Tunk, K7, or the break, K11), names the Tunker and gives every player's
unmatched count (K6, K8); the game scores it (K9: the Tunker doubled when another ends
lower; each pair settles the difference) and the line sums to zero. What cannot have
happened is refused, and nothing is posted."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Table, WashbookLine
from club.services.base import ClubError
from club.services.ledger import balance_session, session_money, verify_balances
from club.services.sessions import close_session
from club.services.washbook import PhysicalResult, enter_physical_result

from .conftest import physical_three, points

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> tuple[Table, list[Member]]:
    return physical_three(session, make_members(3), "tunk")


def test_a_tunk_and_a_break_are_scored_by_the_game(three: tuple[Table, list[Member]]) -> None:
    table, (a, b, c) = three
    enter = enter_physical_result
    # a tunks with 4; c ends lower (2): a's points doubled to 8 (K9)
    line = enter(table.pk, PhysicalResult(winner_id=a.pk, ending="tunk",
                                          losses={a.pk: 4, b.pk: 10, c.pk: 2}))  # fmt: skip
    assert points(line) == {a.pk: -4, b.pk: -10, c.pk: 14}
    assert line.detail["ending"] == "tunk" and line.detail["named"] == a.pk
    broke = enter(table.pk, PhysicalResult(ending="break"))  # K11: drawn, nothing scored
    assert broke.kind == WashbookLine.TABLEAU and points(broke) == {}


@pytest.mark.parametrize(
    ("losses", "says"),
    [
        ({0: 9, 1: 3, 2: 12}, "five or less unmatched"),  # K7: the Tunker over five
        ({0: 3, 1: 71, 2: 12}, "count 0 to 70"),  # K6: seven cards count 70 at most
        ({0: 3, 1: 7}, "give Player"),  # every player's count
    ],
)
def test_impossible_tunk_results_are_refused_and_nothing_is_posted(
    three: tuple[Table, list[Member]], losses: dict[int, int], says: str
) -> None:
    table, members = three
    with pytest.raises(ClubError, match=says):
        enter_physical_result(
            table.pk,
            PhysicalResult(
                winner_id=members[0].pk, ending="tunk",
                losses={members[k].pk: v for k, v in losses.items()},
            ),
        )  # fmt: skip
    assert not WashbookLine.objects.filter(table=table).exists()


def test_the_washbook_says_how_a_game_of_tunk_is_booked(
    staff: Client, three: tuple[Table, list[Member]]
) -> None:
    table, (a, b, c) = three
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, ending="tunk", losses={a.pk: 0, b.pk: 7, c.pk: 12})
    )
    body = staff.get(reverse("club:washbook", args=[table.pk])).content.decode()
    assert "booked deal by deal, not at its end" in body and "A break (K11) is a tableau" in body


def test_a_tunk_table_is_balanced_into_member_money(
    session: ClubSession, three: tuple[Table, list[Member]], no_queue: list[int]
) -> None:
    """Each deal's line at the evening's stake; the settlement says who pays whom."""
    table, (a, b, c) = three
    enter = enter_physical_result
    enter(table.pk, PhysicalResult(winner_id=a.pk, ending="tunk",
                                   losses={a.pk: 3, b.pk: 6, c.pk: 9}))  # fmt: skip
    assert close_session(session.pk)
    assert balance_session(session.pk).posted
    money = session_money(session.pk)
    # total 18: a 18 - 9 = +9, b 18 - 18 = 0, c 18 - 27 = -9; at 0.05 a point
    assert money == {a.pk: Decimal("0.45"), c.pk: Decimal("-0.45")}
    assert not verify_balances()
