"""club/db.py: a page's queries read one instant of the database."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from club.db import snapshot


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
