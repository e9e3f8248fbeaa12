"""club/infra/db.py: a page's queries read one instant of the database."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from club.infra.db import snapshot


def _commit_a_user_elsewhere(name: str) -> None:
    """Another request: its own connection, its own committed transaction."""

    def work() -> None:
        try:
            get_user_model().objects.create(username=name)
        finally:
            connection.close()

    t = threading.Thread(target=work)
    t.start()
    t.join(30)
    assert not t.is_alive()


@pytest.mark.django_db(transaction=True)
def test_a_commit_made_while_a_page_is_read_is_not_seen_by_the_rest_of_that_page() -> None:
    users = get_user_model().objects
    before = users.count()
    with snapshot():
        assert users.count() == before  # the snapshot is taken here
        _commit_a_user_elsewhere("late-arrival")
        assert users.count() == before  # READ COMMITTED would see it: a torn page
        assert not users.filter(username="late-arrival").exists()
    assert users.count() == before + 1  # the next page sees it


@pytest.mark.django_db(transaction=True)
def test_without_a_snapshot_the_second_query_sees_the_commit() -> None:
    """What the snapshot guards against (so the test above can fail)."""
    users = get_user_model().objects
    before = users.count()
    _commit_a_user_elsewhere("early-arrival")
    assert users.count() == before + 1


@pytest.mark.django_db(transaction=True)
def test_the_snapshot_begins_in_one_statement_and_leaves_the_connection_as_it_was() -> None:
    """Issue 59: BEGIN with its isolation level and mode, not BEGIN then SET TRANSACTION
    (a round trip more on every console line and table panel); the connection's level
    and mode put back after, for the next request on it."""
    from django.test.utils import CaptureQueriesContext

    def show(name: str) -> str:
        with connection.cursor() as cur:
            cur.execute(f"SHOW {name}")
            return str(cur.fetchone()[0])

    with CaptureQueriesContext(connection) as q, snapshot():
        assert show("transaction_isolation") == "repeatable read"
        assert show("transaction_read_only") == "on"
    assert not [x["sql"] for x in q.captured_queries if "SET TRANSACTION" in x["sql"]]
    assert show("transaction_isolation") == "read committed"
    assert show("transaction_read_only") == "off"
