"""A refusal in the log is one line (issue 56, noise): a member opening another's page is
answered 403, and `make run`'s terminal shows why, without a traceback that looks like a
crash. An error of the server keeps its traceback."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Member


@pytest.mark.django_db
def test_a_refusal_is_logged_in_one_line_with_its_reason(
    make_members: Callable[[int], list[Member]], caplog: pytest.LogCaptureFixture
) -> None:
    me, other = make_members(2)
    c = Client()
    c.force_login(me.user)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert c.get(reverse("club:member", args=[other.pk])).status_code == 403
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.exc_info is None and "Traceback" not in caplog.text
    assert "members see only their own page" in record.getMessage()


def test_a_server_error_keeps_its_traceback() -> None:
    from club.infra.logs import RefusalsInOneLine

    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        import sys

        record = logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s", ("/x/",),
            sys.exc_info(),
        )  # fmt: skip
    record.status_code = 500
    assert RefusalsInOneLine().filter(record) and record.exc_info is not None
