"""Money: zero-sum enforced by the database against raw SQL from outside the app, Decimal
end to end, and the stated rounding rule (club/services/ledger.py) pinned by examples.

The raw SQL runs on its own psycopg connection (not Django's), committing as any other
client of the database would: the deferred constraint triggers refuse it at COMMIT.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from club.models import Account, ClubSession, Leg, Posting, Transfer, WashbookEntry, WashbookLine
from club.services import ledger
from club.services.base import ClubError
from club.services.ledger import account_for, balance_of, balance_session, session_money
from club.services.sessions import close_session, open_session

from .conftest import books_consistent, database_url, play_physical

D = Decimal


@pytest.fixture
def raw(transactional_db: None) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(database_url()) as conn:
        yield conn


def _refused(conn: psycopg.Connection[Any], *statements: tuple[str, list[Any]]) -> str:
    """Run the statements in one transaction; the database must refuse them (by the
    commit at the latest). Returns the error text."""
    try:
        with conn.cursor() as cur:
            for sql, args in statements:
                cur.execute(sql, args)
        conn.commit()
    except psycopg.errors.CheckViolation as e:
        conn.rollback()
        return str(e)
    raise AssertionError(f"the database accepted {statements}")


def _posting(conn: psycopg.Connection[Any]) -> int:
    with conn.cursor() as cur:
        cur.execute(
            "INSERT INTO club_posting (kind, memo, created_at, sealed) "
            "VALUES ('payment', 'raw', now(), false) RETURNING id"
        )
        row = cur.fetchone()
    assert row is not None
    return int(row[0])


def test_raw_sql_cannot_write_an_unbalanced_posting(
    raw: psycopg.Connection[Any], make_members: Callable[..., list[Any]]
) -> None:
    a, b, c = make_members(3)
    acc = {m: account_for(m).pk for m in (a, b, c)}
    leg = "INSERT INTO club_leg (posting_id, account_id, amount) VALUES (%s, %s, %s)"
    # One leg alone; two legs a cent apart; a balanced posting then unbalanced by an UPDATE.
    pid = _posting(raw)
    assert "not zero" in _refused(raw, (leg, [pid, acc[a], D("5.00")]))
    pid = _posting(raw)
    _refused(raw, (leg, [pid, acc[a], D("1.00")]), (leg, [pid, acc[b], D("-0.99")]))
    pid = _posting(raw)
    with raw.cursor() as cur:
        cur.execute(leg, [pid, acc[a], D("2.00")])
        cur.execute(leg, [pid, acc[b], D("-2.00")])
    raw.commit()  # balanced (not sealed): accepted
    _refused(
        raw, ("UPDATE club_leg SET amount = 3.00 WHERE posting_id = %s AND amount = 2.00", [pid])
    )
    _refused(raw, ("DELETE FROM club_leg WHERE posting_id = %s AND amount = -2.00", [pid]))
    # A leg moved to another posting unbalances both.
    other = _posting(raw)
    with raw.cursor() as cur:
        cur.execute(leg, [other, acc[c], D("0.50")])
        cur.execute(leg, [other, acc[a], D("-0.50")])
    raw.commit()
    _refused(
        raw,
        (
            "UPDATE club_leg SET posting_id = %s WHERE posting_id = %s AND amount = 2.00",
            [other, pid],
        ),
    )
    assert (
        Leg.objects.filter(posting_id=pid).count() == 2
        and Leg.objects.filter(posting_id=other).count() == 2
    )
    books_consistent(cached=False)  # raw SQL bypasses the cached balances, not the sums


def test_raw_sql_cannot_change_a_sealed_posting_or_washbook_line(
    raw: psycopg.Connection[Any],
    make_members: Callable[..., list[Any]],
    secretary: Any,
    no_queue: list[int],
) -> None:
    session = open_session(stake="0.05", by=secretary.user)
    members = make_members(4)
    table = play_physical(session, members, deals=3)
    close_session(session.pk, queue=False)
    balance_session(session.pk)
    posting = Posting.objects.get(session=session, kind="session-balance")
    line = WashbookLine.objects.filter(table=table).first()
    assert posting.sealed and line is not None and line.sealed
    _refused(raw, ("UPDATE club_leg SET amount = amount WHERE posting_id = %s", [posting.pk]))
    _refused(raw, ("UPDATE club_posting SET sealed = false WHERE id = %s", [posting.pk]))
    acc = account_for(members[0]).pk
    _refused(
        raw,
        ("INSERT INTO club_leg (posting_id, account_id, amount) VALUES (%s, %s, 1.00), (%s, %s, -1.00)",
         [posting.pk, acc, posting.pk, acc]),
    )  # fmt: skip
    _refused(
        raw, ("UPDATE club_washbookentry SET points = points * 2 WHERE line_id = %s", [line.pk])
    )
    _refused(raw, ("DELETE FROM club_washbookentry WHERE line_id = %s", [line.pk]))
    _refused(raw, ("UPDATE club_washbookline SET sealed = false WHERE id = %s", [line.pk]))
    # A new, unsealed line whose entries do not prove is refused at commit.
    with raw.cursor() as cur:
        cur.execute(
            "INSERT INTO club_washbookline (table_id, number, kind, game_number, value, detail, "
            "created_at, sealed) VALUES (%s, 999, 'deal', 1, 10, '{}', now(), false) RETURNING id",
            [table.pk],
        )
        row = cur.fetchone()
        assert row is not None
        new_line = row[0]
    _refused(
        raw,
        ("INSERT INTO club_washbookentry (line_id, member_id, points) VALUES (%s, %s, 10), (%s, %s, -9)",
         [new_line, members[0].pk, new_line, members[1].pk]),
    )  # fmt: skip
    assert not WashbookLine.objects.filter(number=999).exists()
    books_consistent()


def test_money_is_decimal_end_to_end(
    make_members: Callable[..., list[Any]], secretary: Any, no_queue: list[int], client: Client
) -> None:
    # A float never becomes money: 0.1 is not a whole number of cents as a Decimal.
    a, b = make_members(2)
    with pytest.raises(ClubError):
        ledger.post("payment", {a.pk: 0.1, b.pk: -0.1})  # type: ignore[dict-item]
    with pytest.raises(ClubError):
        open_session(stake=0.05)  # type: ignore[arg-type]  # Decimal(0.05) has 52 places
    session = open_session(stake="0.13", by=secretary.user)
    members = make_members(5)
    play_physical(session, members, deals=3)
    close_session(session.pk, queue=False)
    balance_session(session.pk)
    session.refresh_from_db()
    assert isinstance(session.stake, Decimal) and session.stake == D("0.13")
    values = [
        *Leg.objects.values_list("amount", flat=True),
        *Account.objects.values_list("balance", flat=True),
        *Transfer.objects.values_list("amount", flat=True),
        *session_money(session.pk).values(),
        *(balance_of(m) for m in members),
    ]
    assert values and all(isinstance(v, Decimal) and v == v.quantize(D("0.01")) for v in values)
    with connection.cursor() as cur:
        cur.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_name IN ('club_leg', 'club_account', 'club_transfer', 'club_clubsession') "
            "AND column_name IN ('amount', 'balance', 'stake')"
        )
        assert {r[2] for r in cur.fetchall()} == {"numeric"}
    # The pages show the exact amounts.
    client.force_login(secretary.user)
    page = client.get(reverse("club:settlement", args=[session.pk])).content.decode()
    for t in Transfer.objects.filter(session=session):
        assert f"{t.amount:.2f}" in page


@pytest.mark.parametrize("stake", ["0.01", "1000.00"])
def test_the_most_precise_and_the_largest_stakes_balance_exactly(
    make_members: Callable[..., list[Any]], secretary: Any, no_queue: list[int], stake: str
) -> None:
    """Issue 42, item 1: the most precise stake the form allows (one unit of the club's
    money) and the largest: every member's money is his points times the stake exactly,
    nothing rounded, and every posting's legs sum to zero."""
    session = open_session(stake=stake, by=secretary.user)
    members = make_members(5)
    play_physical(session, members, deals=7)
    close_session(session.pk, queue=False)
    balance_session(session.pk)
    points = ledger.session_points(session.pk)
    money = session_money(session.pk)
    assert money and all(money[m] == points[m] * D(stake) for m in money)
    for posting in Posting.objects.filter(session=session):
        assert sum(posting.legs.values_list("amount", flat=True), D(0)) == 0
    assert sum(Transfer.objects.filter(session=session).values_list("amount", flat=True)) > 0
    books_consistent()


@pytest.mark.parametrize(
    ("points", "stake", "money"),
    [
        # Half-even at the cent: 0.125 → 0.12, 0.035 → 0.04.
        ({1: 5, 2: -5}, "0.025", {1: "0.12", 2: "-0.12"}),
        ({1: 7, 2: -7}, "0.005", {1: "0.04", 2: "-0.04"}),
        # Exact 0.005 each, -0.015 → -0.02; the 2 cents left over go to the largest
        # remainders, ties by member id: 1 and 2, not 3.
        ({1: 1, 2: 1, 3: 1, 4: -3}, "0.005", {1: "0.01", 2: "0.01", 3: "0.00", 4: "-0.02"}),
        # Cents to take back: from those rounded up the most (ties by id).
        ({1: -1, 2: -1, 3: -1, 4: 3}, "0.005", {1: "-0.01", 2: "-0.01", 3: "0.00", 4: "0.02"}),
        ({1: 3, 2: -1, 3: -2}, "0.3333", {1: "1.00", 2: "-0.33", 3: "-0.67"}),
    ],
)
def test_the_rounding_rule_as_stated(
    points: dict[int, int], stake: str, money: dict[int, str]
) -> None:
    got = ledger.money_from_points(points, D(stake))
    assert got == {m: D(v) for m, v in money.items()}
    assert sum(got.values()) == 0
    assert all(abs(got[m] - points[m] * D(stake)) < D("0.01") for m in points)
    assert "ROUND_HALF_EVEN" in (ledger.__doc__ or "")


@pytest.mark.django_db
def test_an_unbalanced_posting_is_refused_by_python_before_the_database(
    make_members: Callable[..., list[Any]],
) -> None:
    a, b = make_members(2)
    with pytest.raises(ClubError):
        ledger.post("payment", {a.pk: D("1.00"), b.pk: D("-0.99")})
    with pytest.raises(ClubError):
        ledger.post("payment", {a.pk: D("1.005"), b.pk: D("-1.005")})
    assert not Posting.objects.exists()
    assert not ClubSession.objects.exists() and not WashbookEntry.objects.exists()
