"""The washbook: lines, proof, running totals, corrections, the database's zero-sum check."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError, InternalError, connection, transaction
from django.db.utils import DatabaseError
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Seat, Table, WashbookLine
from club.services.base import ClubError
from club.services.mistakes import void_table
from club.services.physical import count_pips
from club.services.seating import table_seating
from club.services.sessions import check_in
from club.services.tables import form_table
from club.services.washbook import (
    PhysicalResult,
    correct_line,
    enter_physical_result,
    post_online_deal,
)
from club.washbooks import books

pytestmark = pytest.mark.django_db


@pytest.fixture
def five(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> tuple[Table, list[Member]]:
    for m in make_members(5):
        check_in(session, m)
    table = form_table(session, variant="foster", size=5, mode=Table.PHYSICAL)
    players = [s.member for s in Seat.objects.filter(table=table).select_related("member")]
    return table, players


def test_it_posts_the_books_example_and_proves(five: tuple[Table, list[Member]]) -> None:
    table, (a, b, c, d, e) = five
    # Foster's second game: A wins, B and C lose 24 each, D 28 and E 11.
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 24, c.pk: 24, d.pk: 28, e.pk: 11})
    )
    assert line.value == 87
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=c.pk, losses={a.pk: 20, b.pk: 46, d.pk: 30, e.pk: 9})
    )
    book = books.build(WashbookLine.objects.filter(table=table), [a.pk, b.pk, c.pk, d.pk, e.pk])
    first, second = book.rows
    assert (first.cells[0].plus, first.cells[1].minus, first.plus, first.minus) == (87, 24, 87, 87)
    assert [cell.total for cell in second.cells] == [67, -70, 81, -58, -20]
    assert book.total_plus == book.total_minus == 148  # the book's proof: 67+81 = 70+58+20
    assert book.proves
    csv = books.to_csv(book)
    assert "proof" in csv and "148" in csv


def test_it_counts_the_cards_left(five: tuple[Table, list[Member]]) -> None:
    table, (a, b, c, d, e) = five
    line = enter_physical_result(
        table.pk,
        PhysicalResult(
            winner_id=a.pk, cards={b.pk: "KS 5H JK", c.pk: "AD"}, losses={d.pk: 2, e.pk: 0}
        ),
    )
    points = dict(line.entries.values_list("member_id", "points"))
    assert points == {a.pk: 43, b.pk: -30, c.pk: -11, d.pk: -2}
    assert count_pips("10H 2C") == 12


@pytest.mark.parametrize(
    "bad",
    [
        lambda a, b: PhysicalResult(winner_id=a, losses={a: 5, b: 3}),  # wins and loses
        lambda a, b: PhysicalResult(winner_id=a, losses={}),  # nobody paid
        lambda a, b: PhysicalResult(winner_id=a, losses={b: -4}),  # negative pips
        lambda a, b: PhysicalResult(winner_id=a, cards={b: "ZZ"}),  # not a card
        lambda a, b: PhysicalResult(winner_id=999999, losses={b: 4}),  # not seated
        lambda a, b: PhysicalResult(winner_id=a, losses={b: 4}),  # the other three left out
    ],
)
def test_it_refuses_bad_results_and_changes_nothing(
    five: tuple[Table, list[Member]], bad: Callable[[int, int], PhysicalResult]
) -> None:
    table, (a, b, *_) = five
    with pytest.raises(ClubError):
        enter_physical_result(table.pk, bad(a.pk, b.pk))
    assert not WashbookLine.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.deals_played == 0


def test_it_corrects_by_a_reversing_line_and_a_new_one(five: tuple[Table, list[Member]]) -> None:
    table, (a, b, c, d, e) = five
    rest = {c.pk: 0, d.pk: 0, e.pk: 0}
    wrong = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 50, **rest})
    )
    done = correct_line(
        wrong.pk, result=PhysicalResult(winner_id=a.pk, losses={b.pk: 5, **rest}), reason="misread"
    )
    reversal, right = done.reversal, done.line
    assert reversal.kind == "reversal" and reversal.reverses == wrong
    assert dict(reversal.entries.values_list("member_id", "points")) == {a.pk: -50, b.pk: 50}
    assert right is not None and right.corrects == wrong
    book = books.build(WashbookLine.objects.filter(table=table))
    assert [r.line.number for r in book.rows] == [1, 2, 3]  # nothing edited, all shown
    assert dict(zip([m.pk for m in book.columns], book.totals, strict=True))[b.pk] == -5
    with pytest.raises(ClubError):
        correct_line(wrong.pk, reason="again")  # reversed once only
    with pytest.raises(ClubError):
        correct_line(reversal.pk, reason="a reversal")


def test_online_deals_post_by_seat_position_once(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    for m in make_members(2):
        check_in(session, m)
    table = form_table(session, variant="conquian", options={"scoring": "game-points"})
    seats = table_seating(table.pk)
    line = post_online_deal(table.pk, deal_key="k1", points={0: 2, 1: -2}, detail={"kind": "out"})
    assert dict(line.entries.values_list("member_id", "points")) == {
        seats[0].member_id: 2,
        seats[1].member_id: -2,
    }
    assert post_online_deal(table.pk, deal_key="k1", points={0: 2, 1: -2}, detail={}) == line
    tableau = post_online_deal(table.pk, deal_key="k2", points={0: 0, 1: 0}, detail={"carried": 1})
    assert (
        tableau.kind == "tableau"
        and not tableau.entries.exists()
        and tableau.detail["carried"] == 1
    )
    for bad in ({0: 3, 1: -2}, {0: 2, 5: -2}, {0: "x", 1: 1}):
        with pytest.raises(ClubError):
            post_online_deal(table.pk, deal_key="bad", points=bad, detail={})  # type: ignore[arg-type]
    assert WashbookLine.objects.filter(table=table).count() == 2


def test_the_database_refuses_an_unbalanced_line(five: tuple[Table, list[Member]]) -> None:
    table, (a, b, *_) = five
    with (
        pytest.raises((IntegrityError, InternalError, DatabaseError)),
        transaction.atomic(),
        connection.cursor() as cur,
    ):
        cur.execute(
            "INSERT INTO club_washbookline (table_id, number, kind, game_number, value, detail, created_at, sealed)"
            " VALUES (%s, 99, 'deal', 1, 10, '{}', now(), false) RETURNING id",
            [table.pk],
        )
        line_id = cur.fetchone()[0]
        cur.execute(
            "INSERT INTO club_washbookentry (line_id, member_id, points) VALUES (%s, %s, 10), (%s, %s, -9)",
            [line_id, a.pk, line_id, b.pk],
        )
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT would check
    assert not WashbookLine.objects.filter(number=99).exists()


def test_a_physical_hand_is_counted_by_its_games_physical_pips() -> None:
    from collections.abc import Iterable

    from games.engine import registered
    from games.engine.conquian.variants import Conquian

    class Doubled(Conquian):
        name = "doubled"
        order = 70

        def physical_pips(self, cards: Iterable[str]) -> int:
            return 2 * super().physical_pips(cards)

    with registered(Doubled()):
        assert count_pips("KS 5H", "doubled") == 30
    assert count_pips("AS", "colonel") == 11  # Foster's values in every game (L24)
    assert count_pips("as, joker *", "foster") == 11 + 15 + 15


def test_lines_are_numbered_by_game_and_deal_as_the_table_is(
    five: tuple[Table, list[Member]],
) -> None:
    """One deal numbering (the table's "Game g, deal d") on the washbook and its export: a
    reversal has none, and a correction takes the number of the line it corrects."""
    table, (a, b, c, d, e) = five
    first = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0, e.pk: 0})
    )
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=b.pk, losses={a.pk: 0, c.pk: 7, d.pk: 0, e.pk: 0})
    )
    correct_line(
        first.pk,
        reason="misread",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 6, c.pk: 0, d.pk: 0, e.pk: 0}),
    )
    book = books.build(WashbookLine.objects.filter(table=table).order_by("number"))
    assert [(r.line.kind, r.deal_label) for r in book.rows] == [
        ("deal", "Game 1, deal 1"),
        ("deal", "Game 1, deal 2"),
        ("reversal", ""),
        ("deal", "Game 1, deal 1"),  # the correction of line 1
    ]
    rows = books.to_csv(book).splitlines()
    assert rows[0].startswith("date,table,line,kind,game,deal,dealer,winner,value")
    assert rows[1].split(",")[4:6] == ["1", "1"] and rows[3].split(",")[4:6] == ["1", ""]
    # issue 42, item 6: the winner of a deal, none for a reversal, and its reason as a note
    assert rows[3].split(",")[7] == "" and rows[3].endswith("reverses line 1: misread")
    assert rows[4].endswith("corrects line 1: misread")


def test_the_csv_escapes_a_name_a_spreadsheet_would_read_as_a_formula(
    five: tuple[Table, list[Member]],
) -> None:
    """Issue 42, item 6: a member named "=1+1" (or "@SUM", "-2+3", "+1", a tab) comes out
    of the washbook's CSV as text with a leading apostrophe; the numbers stay numbers."""
    import csv as csv_module
    import io

    table, (a, b, c, d, e) = five
    names = {a: "=1+1", b: "@SUM(A1:A9)", c: "-2+3", d: "+1", e: "\tTab"}
    for m, name in names.items():
        m.display_name = name
        m.save(update_fields=["display_name"])
    table.refresh_from_db()
    dealer = Seat.objects.get(table=table, position=table.dealer_position).member
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 20, c.pk: 6, d.pk: 0, e.pk: 0})
    )
    book = books.build(WashbookLine.objects.filter(table=table), [a.pk, b.pk, c.pk, d.pk, e.pk])
    head, first, *_ = csv_module.reader(io.StringIO(books.to_csv(book)))
    for name in names.values():
        assert f"'{name} +" in head and f"{name} +" not in [h for h in head if h[0] != "'"]
    assert not any(cell.startswith(("=", "+", "@", "\t")) for cell in head)
    assert first[9:12] == ["26", "", "26"] and first[12:15] == ["", "20", "-20"]
    # the winner's name is escaped in its column too; a result from real cards names its
    # dealer, the seat that dealt (issue 81: the column was blank on every such row)
    assert first[7] == "'=1+1" and first[6] == "'" + names[dealer]  # every name escaped
    # the table's game by its one name (issue 79), then the rules it played under
    assert first[-2] == "Cooncan, the game's own rules", first[-2]


def test_the_evenings_csv_totals_per_table_says_what_is_staked_and_proves_under_its_columns(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Issue 53, item 5: the proof row sat under the wrong columns (the total plus under
    "value", the total minus under the last player's total); the evening's CSV carried
    running totals across tables (a member showed -15 on rows of a table he never sat
    at) and had no column saying which rows are staked money."""
    import csv as csv_module
    import io

    players = make_members(8)
    for m in players:
        check_in(session, m)
    one = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=players[:4])
    two = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL, candidates=players[4:])
    at_one = [s.member for s in Seat.objects.filter(table=one).order_by("position")]
    at_two = [s.member for s in Seat.objects.filter(table=two).order_by("position")]
    first_dealer = Seat.objects.get(
        table=one, position=Table.objects.get(pk=one.pk).dealer_position
    ).member
    enter_physical_result(
        one.pk,
        PhysicalResult(
            winner_id=at_one[0].pk, losses={at_one[1].pk: 15, at_one[2].pk: 5, at_one[3].pk: 0}
        ),
    )
    enter_physical_result(
        two.pk,
        PhysicalResult(
            winner_id=at_two[0].pk, losses={at_two[1].pk: 7, at_two[2].pk: 0, at_two[3].pk: 2}
        ),
    )
    enter_physical_result(
        one.pk,
        PhysicalResult(
            winner_id=at_one[2].pk, losses={at_one[0].pk: 4, at_one[1].pk: 6, at_one[3].pk: 1}
        ),
    )
    void_table(two.pk, "the wrong game")
    r = staff.get(reverse("club:session_washbook", args=[session.pk]), {"format": "csv"})
    head, *rows, proof = list(csv_module.reader(io.StringIO(r.content.decode())))
    col = {name: i for i, name in enumerate(head)}
    loser = at_one[1].display_name
    # Running totals per table: the loser at table 1 has none on table 2's row.
    by_table = {(row[col["table"]], row[col["line"]]): row for row in rows}
    assert by_table[(str(one.number), "1")][col[f"{loser} total"]] == "-15"
    assert by_table[(str(two.number), "1")][col[f"{loser} total"]] == ""
    assert by_table[(str(one.number), "2")][col[f"{loser} total"]] == "-21"
    assert by_table[(str(two.number), "1")][col[f"{at_two[3].display_name} total"]] == "-2"
    # Staked: table 2 was voided, its row is no money.
    assert by_table[(str(one.number), "1")][col["staked"]] == "yes"
    assert by_table[(str(two.number), "1")][col["staked"]] == "no"
    assert by_table[(str(two.number), "1")][col["notes"]].startswith(
        "not staked: voided: the wrong game"
    )
    # The proof row: each member's plus and minus summed under his own columns.
    assert proof[0] == "proof" and proof[col["value"]] == ""
    assert (proof[col[f"{loser} +"]], proof[col[f"{loser} -"]]) == ("0", "21")
    assert proof[col[f"{loser} total"]] == "-21"
    shown = [m for m in players if f"{m.display_name} +" in col]
    plus = sum(int(proof[col[f"{m.display_name} +"]]) for m in shown)
    minus = sum(int(proof[col[f"{m.display_name} -"]]) for m in shown)
    assert plus == minus == sum(int(row[col["value"]]) for row in rows)
    assert proof[col["notes"]].startswith(f"plus columns {plus} = minus columns {minus}")
    # Money at the evening's stake beside the points (issue 81, item 5), on staked rows
    # only; each member's money summed under his column, and the columns sum to zero.
    from decimal import Decimal

    stake = session.stake
    money = f"{loser} money (£)"
    assert by_table[(str(one.number), "1")][col[money]] == str(
        (stake * -15).quantize(Decimal("0.01"))
    )
    assert by_table[(str(one.number), "1")][col["stake"]] == "0.05" == str(stake.normalize())
    assert by_table[(str(two.number), "1")][col[f"{at_two[1].display_name} money (£)"]] == ""
    assert proof[col[money]] == str((stake * -21).quantize(Decimal("0.01")))
    cash = [Decimal(proof[col[f"{m.display_name} money (£)"]]) for m in shown]
    assert sum(cash) == 0 and any(cash)
    assert proof[col["notes"]].endswith("money columns sum to 0.00")
    # and the dealer of each deal entered from real cards is named
    assert by_table[(str(one.number), "1")][col["dealer"]] == first_dealer.display_name
