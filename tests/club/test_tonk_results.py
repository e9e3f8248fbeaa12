"""A Tonk deal played with real cards (issue 40, item 4 and 5): the secretary says how
it ended (T4, T8, T9, T10), whom it names and, after a drop or an empty pack, every
hand's count (T11); the game scores it (TO3) and the line sums to zero. What cannot
have happened is refused beside its field, and nothing is posted."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Table, WashbookLine
from club.services.base import ClubError
from club.services.ledger import balance_session, session_money, verify_balances
from club.services.physical import count_pips
from club.services.sessions import check_in, close_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

from .conftest import field_error, physical_three, points

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> tuple[Table, list[Member]]:
    return physical_three(session, make_members(3), "tonk")


def test_each_ending_is_scored_by_the_game_and_proves(three: tuple[Table, list[Member]]) -> None:
    table, (a, b, c) = three
    enter = enter_physical_result
    out = enter(table.pk, PhysicalResult(winner_id=b.pk, ending="out"))  # T8: 2 from each
    assert points(out) == {a.pk: -2, b.pk: 4, c.pk: -2}
    assert out.kind == WashbookLine.DEAL and out.detail["ending"] == "out"
    by_discard = enter(table.pk, PhysicalResult(winner_id=c.pk, ending="discard-out"))  # T8
    assert points(by_discard) == {a.pk: -1, b.pk: -1, c.pk: 2}
    # T9, TO12: a caught dropper pays 2 to each; the strictly lowest earns 1 from each.
    caught = enter(
        table.pk,
        PhysicalResult(winner_id=a.pk, ending="drop", losses={a.pk: 9, c.pk: 5}, cards={b.pk: "KH 3C"}),
    )  # fmt: skip
    assert points(caught) == {a.pk: -5, b.pk: 1, c.pk: 4}
    assert caught.detail["named"] == a.pk
    # T10: the pack ran out and two tie for lowest: a drawn deal, booked as a tableau.
    drawn = enter(table.pk, PhysicalResult(ending="exhausted", losses={a.pk: 8, b.pk: 8, c.pk: 12}))
    assert drawn.kind == WashbookLine.TABLEAU and points(drawn) == {}
    lines = WashbookLine.objects.filter(table=table)
    assert lines.count() == 4
    assert sum(sum(points(line).values()) for line in lines) == 0
    assert count_pips("AS 10D", "tonk") == 11  # T11, TO1: the ace counts 1


@pytest.mark.parametrize(
    ("result", "field", "says"),
    [
        (lambda a, b, c: PhysicalResult(winner_id=a), "ending", "say how the deal ended"),
        (lambda a, b, c: PhysicalResult(winner_id=a, ending="knock"), "ending", "has no ending"),
        (lambda a, b, c: PhysicalResult(ending="out"), "winner", "name who went out"),
        (lambda a, b, c: PhysicalResult(winner_id=a, ending="exhausted",
                                        losses={a: 1, b: 2, c: 3}), "winner", "names no player"),
        (lambda a, b, c: PhysicalResult(winner_id=a, ending="out", losses={b: 4}),
         "pips_{b}", "no hand is counted"),
        (lambda a, b, c: PhysicalResult(winner_id=a, ending="drop", losses={a: 4, b: 6}),
         "pips_{c}", "give Player"),
        (lambda a, b, c: PhysicalResult(winner_id=a, ending="drop", losses={a: 4, b: 6, c: 71}),
         "ending", "counting 1 to 70"),
        (lambda a, b, c: PhysicalResult(winner_id=a, ending="drop", losses={a: 4, b: 6},
                                        cards={c: "ZZ"}), "cards_{c}", "not a card"),
        (lambda a, b, c: PhysicalResult(ending="drawn"), "ending", "need Five Card Tonk"),
        (lambda a, b, c: PhysicalResult(winner_id=a, ending="out", extra={b: 3}),
         "extra_{b}", "no extra points"),
    ],
)  # fmt: skip
def test_an_impossible_result_is_refused_and_posts_nothing(
    three: tuple[Table, list[Member]],
    result: Callable[[int, int, int], PhysicalResult],
    field: str,
    says: str,
) -> None:
    table, (a, b, c) = three
    with pytest.raises(ClubError, match=says) as refused:
        enter_physical_result(table.pk, result(a.pk, b.pk, c.pk))
    assert field.format(b=b.pk, c=c.pk) in [e.field for e in refused.value.each()]
    assert not WashbookLine.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.deals_played == 0


def test_a_rummy_table_refuses_an_ending(session: ClubSession,
                                         make_members: Callable[..., list[Member]]) -> None:  # fmt: skip
    for m in make_members(4):
        check_in(session, m)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    a, b, *_ = [s.member for s in table.seats.all()]
    with pytest.raises(ClubError, match="has no ending 'drop'"):
        enter_physical_result(
            table.pk, PhysicalResult(winner_id=a.pk, ending="drop", losses={b.pk: 3})
        )


def test_the_secretary_enters_a_drop_on_the_tables_page(
    staff: Client, three: tuple[Table, list[Member]]
) -> None:
    table, (a, b, c) = three
    page = staff.get(table.get_club_url()).content.decode()
    assert 'name="ending"' in page and "A drop: every hand counted (T9)" in page
    assert "Who: the caller, the dropper, who went out" in page
    assert f'name="extra_{b.pk}"' not in page  # Tonk has no extra points
    url = reverse("club:table_result", args=[table.pk])
    r = staff.post(url, {"ending": "drop", "winner": a.pk, f"pips_{a.pk}": 3, f"pips_{b.pk}": 9})
    assert r.status_code == 400
    assert "give Player" in field_error(r.content.decode(), f"pips_{c.pk}")
    assert not table.lines.exists()
    r = staff.post(url, {"ending": "drop", "winner": a.pk, f"pips_{a.pk}": 3,
                         f"pips_{b.pk}": 9, f"cards_{c.pk}": "KS QD"})  # fmt: skip
    assert r.status_code == 302
    line = table.lines.get()
    assert points(line) == {a.pk: 2, b.pk: -1, c.pk: -1}  # T9: the dropper lowest
    r = staff.post(url, {"ending": "exhausted", f"pips_{a.pk}": 3, f"pips_{b.pk}": 3,
                         f"pips_{c.pk}": 30}, follow=True)  # fmt: skip
    assert "a drawn deal, no points" in r.content.decode()


def test_a_tonk_line_is_corrected_with_its_ending(
    staff: Client, three: tuple[Table, list[Member]]
) -> None:
    table, (a, b, c) = three
    line = enter_physical_result(table.pk, PhysicalResult(winner_id=b.pk, ending="out"))
    url = reverse("club:line_correct", args=[line.pk])
    form = staff.get(url).content.decode()
    assert '<option value="out" selected>' in form
    r = staff.post(url, {"reason": "out by the discard", "ending": "discard-out", "winner": b.pk})
    assert r.status_code == 302, r.content.decode()[:2000]
    fixed = table.lines.get(corrects=line)
    assert points(fixed) == {a.pk: -1, b.pk: 2, c.pk: -1}
    r = staff.post(reverse("club:line_correct", args=[fixed.pk]), {"reason": "no", "winner": b.pk})
    assert r.status_code == 400 and "Say how the deal ended" in r.content.decode()


def test_a_tonk_table_is_balanced_into_member_money(
    session: ClubSession, three: tuple[Table, list[Member]], no_queue: list[int]
) -> None:
    """T12: game points booked at the evening's stake; the settlement says who pays whom."""
    from decimal import Decimal

    table, (a, b, c) = three
    enter = enter_physical_result
    enter(table.pk, PhysicalResult(winner_id=a.pk, ending="tonk"))  # T4: +4
    enter(table.pk, PhysicalResult(winner_id=c.pk, ending="drop",
                                   losses={a.pk: 20, b.pk: 14, c.pk: 6}))  # fmt: skip
    assert close_session(session.pk)
    assert balance_session(session.pk).posted
    money = session_money(session.pk)
    # a +4 -1, b -2 -1, c -2 +2: points at 0.05 a point, c square.
    assert money == {a.pk: Decimal("0.15"), b.pk: Decimal("-0.15")}
    assert not verify_balances()


def test_the_washbook_line_says_how_the_deal_ended(
    staff: Client, three: tuple[Table, list[Member]]
) -> None:
    table, (a, b, c) = three
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, ending="drop", losses={a.pk: 9, b.pk: 13, c.pk: 5})
    )
    enter_physical_result(table.pk, PhysicalResult(winner_id=b.pk, ending="discard-out"))
    page = staff.get(reverse("club:washbook", args=[table.pk])).content.decode()
    assert "Game 1, deal 1 · A drop (T9)" in page
    assert "deal 2 · Out by the discard (T8)" in page
