"""Club benchmarks, called by the bench runner: ``run() -> dict`` of human-readable figures.

1. Balancing a session of 1,000 deals across 10 tables and 40 members.
2. Rendering a 1,000-line washbook page (and a 100-line one: the queries must not grow).

Expects Django set up against a database with the club's migrations applied (the runner
provides a test database); everything it creates is rolled back at the end.
"""

from __future__ import annotations

import random
import time
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import ClubSession, Member, Posting, Seat, Table, WashbookEntry, WashbookLine
from club.services.base import create_member
from club.services.ledger import balance_session
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table


class _Rollback(Exception):
    pass


def _bulk_deals(table: Table, deals: int, rng: random.Random, start: int = 1) -> None:
    """Post sealed washbook lines in bulk (the per-deal service path is measured elsewhere)."""
    members = list(Seat.objects.filter(table=table).values_list("member_id", flat=True))
    lines = [
        WashbookLine(table=table, number=start + i, kind="deal", game_number=1 + i // len(members))
        for i in range(deals)
    ]
    WashbookLine.objects.bulk_create(lines)
    entries = []
    for line in lines:
        winner = rng.choice(members)
        losses = {m: rng.randint(1, 60) for m in members if m != winner}
        line.value = sum(losses.values())
        entries.append(WashbookEntry(line=line, member_id=winner, points=line.value))
        entries += [WashbookEntry(line=line, member_id=m, points=-p) for m, p in losses.items()]
    WashbookEntry.objects.bulk_create(entries)
    WashbookLine.objects.bulk_update(lines, ["value"])
    WashbookLine.objects.filter(table=table).update(sealed=True)


def _setup(rng: random.Random) -> tuple[Member, ClubSession, list[Table]]:
    secretary = create_member("bench-secretary", "Bench Secretary", is_staff=True)
    members = [create_member(f"bench-{i}", f"Bench {i}") for i in range(40)]
    session = open_session(stake=Decimal("0.05"), by=secretary.user, name="Bench")
    for m in members:
        check_in(session, m)
    tables = []
    for i in range(10):
        tables.append(
            form_table(
                session,
                variant="foster",
                size=4,
                mode=Table.PHYSICAL,
                candidates=members[4 * i : 4 * i + 4],
            )
        )
    return secretary, session, tables


def run() -> dict[str, Any]:
    rng = random.Random(1913)
    figures: dict[str, Any] = {}
    try:
        with transaction.atomic():
            secretary, session, tables = _setup(rng)
            for t in tables:
                _bulk_deals(t, 100, rng)
            close_session(session.pk, queue=False)
            with CaptureQueriesContext(connection) as ctx:
                t0 = time.perf_counter()
                result = balance_session(session.pk)
                elapsed = time.perf_counter() - t0
            assert result.posted, result
            assert Posting.objects.filter(session=session, kind="session-balance").count() == 1
            figures["balance session: deals"] = 1000
            figures["balance session: tables"] = 10
            figures["balance session: members"] = 40
            figures["balance session: seconds"] = round(elapsed, 4)
            figures["balance session: SQL queries"] = len(ctx.captured_queries)

            # The washbook page: 1,000 lines on one table of five (and 100 for comparison).
            extra = [create_member(f"bench-w{i}", f"Washbook {i}") for i in range(5)]
            page_session = open_session(stake="0.05", by=secretary.user)
            for m in extra:
                check_in(page_session, m)
            big = form_table(page_session, variant="foster", size=5, mode=Table.PHYSICAL)
            _bulk_deals(big, 100, rng)
            client = Client(SERVER_NAME="localhost")
            client.force_login(get_user_model().objects.get(username="bench-secretary"))
            url = reverse("club:washbook", args=[big.pk])

            def render() -> tuple[float, int]:
                with CaptureQueriesContext(connection) as ctx:
                    t0 = time.perf_counter()
                    response = client.get(url)
                    took = time.perf_counter() - t0
                assert response.status_code == 200, response.status_code
                return took, len(ctx.captured_queries)

            render()  # warm the template cache
            t100, q100 = render()
            _bulk_deals(big, 900, rng, start=101)
            t1000, q1000 = render()
            figures["washbook page 100 lines: seconds"] = round(t100, 4)
            figures["washbook page 100 lines: SQL queries"] = q100
            figures["washbook page 1,000 lines: seconds"] = round(t1000, 4)
            figures["washbook page 1,000 lines: SQL queries"] = q1000
            figures["washbook page: queries grow with lines"] = q1000 != q100
            raise _Rollback
    except _Rollback:
        pass
    return figures


if __name__ == "__main__":  # pragma: no cover - manual: DJANGO_SETTINGS_MODULE=club.settings
    import django

    django.setup()
    print(run())
