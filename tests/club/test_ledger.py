"""The ledger: zero-sum in the database, rounding, balancing exactly once, payments."""

from __future__ import annotations

import threading
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, connections, transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from club.models import ClubSession, Leg, Member, Posting, Seat, Table, Transfer
from club.services import ledger
from club.services.base import ClubError, bots
from club.services.ledger import (
    account_for,
    balance_of,
    balance_session,
    session_money,
    session_points,
    staked_tables,
    verify_balances,
)
from club.services.payments import record_payment
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result, post_online_deal


def _play(session: ClubSession, members: list[Member], deals: int = 6) -> Table:
    for m in members:
        check_in(session, m)
    table = form_table(session, variant="foster", size=len(members), mode=Table.PHYSICAL)
    ids = [m.pk for m in members]
    for i in range(deals):
        winner = ids[i % len(ids)]
        enter_physical_result(
            table.pk,
            PhysicalResult(
                winner_id=winner, losses={m: 3 + i + j for j, m in enumerate(ids) if m != winner}
            ),
        )
    return table


@pytest.mark.django_db
def test_the_database_refuses_an_unbalanced_posting(
    make_members: Callable[..., list[Member]],
) -> None:
    a, b = make_members(2)
    acc_a, acc_b = account_for(a), account_for(b)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cur:
        cur.execute(
            "INSERT INTO club_posting (kind, memo, created_at, sealed) VALUES ('payment', 'raw', now(), false) RETURNING id"
        )
        pid = cur.fetchone()[0]
        cur.execute(
            "INSERT INTO club_leg (posting_id, account_id, amount) VALUES (%s, %s, 1.00), (%s, %s, -0.99)",
            [pid, acc_a.pk, pid, acc_b.pk],
        )
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert not Posting.objects.exists()
    with pytest.raises(ClubError):
        ledger.post("payment", {a.pk: Decimal("1.00"), b.pk: Decimal("-0.99")})


@pytest.mark.django_db
def test_sealed_postings_cannot_change(make_members: Callable[..., list[Member]]) -> None:
    a, b = make_members(2)
    p = ledger.post("payment", {a.pk: Decimal("2.50"), b.pk: Decimal("-2.50")})
    with pytest.raises(DatabaseError), transaction.atomic():
        Leg.objects.filter(posting=p).update(amount=Decimal("9.00"))
    with pytest.raises(DatabaseError), transaction.atomic():
        Posting.objects.filter(pk=p.pk).update(sealed=False)
    assert balance_of(a) == Decimal("2.50") and not verify_balances()


@settings(max_examples=200, deadline=None)
@given(
    points=st.lists(st.integers(-5000, 5000), min_size=1, max_size=12),
    stake=st.decimals(min_value=Decimal("0.0001"), max_value=Decimal("5"), places=4),
)
def test_money_sums_to_zero_within_a_cent(points: list[int], stake: Decimal) -> None:
    pts = {i: p for i, p in enumerate(points)}
    pts[len(points)] = -sum(points)
    money = ledger.money_from_points(pts, stake)
    assert sum(money.values(), Decimal(0)) == 0
    for m, amount in money.items():
        assert amount == amount.quantize(Decimal("0.01"))
        assert abs(amount - pts[m] * stake) < Decimal("0.01")


@pytest.mark.django_db
def test_balancing_posts_once_when_run_twice(
    session: ClubSession, make_members: Callable[..., list[Member]], no_queue: list[int]
) -> None:
    members = make_members(5)
    _play(session, members)
    assert close_session(session.pk)
    assert not close_session(session.pk)
    first = balance_session(session.pk)
    second = balance_session(session.pk)
    assert first.posted and not second.posted
    assert Posting.objects.filter(kind="session-balance").count() == 1
    session.refresh_from_db()
    assert session.status == "balanced" and session.settlement_method == "exact"
    points = session_points(session.pk)
    money = session_money(session.pk)
    assert money == {m: Decimal(p) * Decimal("0.05") for m, p in points.items()}
    assert sum(money.values()) == 0 and not verify_balances()
    # Payments clear the members' balances.
    for t in Transfer.objects.filter(session=session):
        record_payment(t.pk)
    assert all(balance_of(m) == 0 for m in members)
    with pytest.raises(ClubError):
        record_payment(Transfer.objects.filter(session=session).first().pk)


@pytest.mark.django_db
def test_a_crash_midway_posts_nothing(
    session: ClubSession,
    make_members: Callable[..., list[Member]],
    monkeypatch: pytest.MonkeyPatch,
    no_queue: list[int],
) -> None:
    _play(session, make_members(4))
    close_session(session.pk)

    def crash(*args: object) -> None:
        assert Leg.objects.exists()  # the legs were written...
        raise RuntimeError("worker killed")

    monkeypatch.setattr(ledger, "_update_cached_balances", crash)
    with pytest.raises(RuntimeError):
        balance_session(session.pk)
    assert not Posting.objects.exists() and not Leg.objects.exists()  # ...and rolled back
    session.refresh_from_db()
    assert session.status == "closing"
    monkeypatch.undo()
    assert balance_session(session.pk).posted
    assert Posting.objects.filter(kind="session-balance").count() == 1


@pytest.mark.django_db
def test_tables_with_bots_are_not_staked(
    session: ClubSession, make_members: Callable[..., list[Member]], no_queue: list[int]
) -> None:
    humans = make_members(4)
    _play(session, humans[:2] + make_members(2), deals=4)
    bot = bots(1)[0]
    for h in humans[2:]:
        check_in(session, h)
    botted = form_table(session, variant="conquian", candidates=humans[2:])
    # A computer player takes an empty seat (as the games app does).
    Seat.objects.filter(table=botted, member=humans[3]).update(member=bot)
    post_online_deal(botted.pk, deal_key="b1", points={0: 9, 1: -9}, detail={})
    assert botted.pk not in staked_tables(session.pk)
    close_session(session.pk)
    balance_session(session.pk)
    assert bot.pk not in session_money(session.pk)
    assert (
        not Transfer.objects.filter(payer=bot).exists()
        and not Transfer.objects.filter(payee=bot).exists()
    )


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_post_once(
    secretary: Member, make_members: Callable[..., list[Member]], no_queue: list[int]
) -> None:
    session = open_session(stake="0.10", by=secretary.user)
    _play(session, make_members(5))
    close_session(session.pk)
    barrier = threading.Barrier(2)
    results: list[object] = []

    def worker() -> None:
        try:
            barrier.wait()
            results.append(balance_session(session.pk).posted)
        except Exception as e:  # noqa: BLE001
            results.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results, key=str) == [False, True]
    assert Posting.objects.filter(kind="session-balance", session=session).count() == 1
