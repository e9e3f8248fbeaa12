"""The audit log a treasurer can use (issue 81, item 7): "what changed since the last
backup" could not be answered: times were shown to the minute, a backup and a finished
balancing left no entry (only "queued"), there was no filter or CSV, it stopped at 500
rows, and no page listed the backups."""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import AuditEntry, ClubSession, Member
from club.office import backups
from club.services import audit
from club.services.ledger import balance_session
from club.services.sessions import check_in, close_session, open_session
from tests.databases import drop

pytestmark = pytest.mark.django_db


def _entry(what: str, at: dt.datetime, **kw: Any) -> AuditEntry:
    e = audit.record(None, kw.pop("action", AuditEntry.MEMBER), what, **kw)
    AuditEntry.objects.filter(pk=e.pk).update(at=at)
    return e


@pytest.mark.django_db(transaction=True)  # pg_dump reads what is committed
def test_a_finished_balancing_and_a_backup_are_in_the_log(
    secretary: Member,
    make_members: Callable[[int], list[Member]],
    tmp_path: Path,
    no_queue: list[int],
) -> None:
    session = open_session(stake=Decimal("0.05"), by=secretary.user)
    for m in make_members(2):
        check_in(session, m)
    assert close_session(session.pk, queue=False)
    balance_session(session.pk)
    done = AuditEntry.objects.get(action=AuditEntry.BALANCED)
    assert done.session == session and done.what.startswith(f"Balanced {session}:")
    balance_session(session.pk)  # a second run balances nothing and says nothing
    assert AuditEntry.objects.filter(action=AuditEntry.BALANCED).count() == 1
    path = backups.take_backup("by-hand", tmp_path)
    taken = AuditEntry.objects.get(action=AuditEntry.BACKUP)
    assert path.name in taken.what
    # a restore of this very backup loses nothing: the entry saying it was taken, written
    # after the dump, is not work lost
    restored = f"{connection.settings_dict['NAME']}_audit"
    drop(restored)
    try:
        backups.load(path, restored)
        assert backups.lost_in_restore(restored) == []
        audit.record(None, AuditEntry.MEMBER, "one more thing")
        assert backups.lost_in_restore(restored) == [
            "1 audit entry recorded after this backup will be lost"
        ]
    finally:
        drop(restored)


def test_times_to_the_second_in_the_clubs_time_zone_and_filters(
    staff: Client, secretary: Member, make_members: Callable[[int], list[Member]]
) -> None:
    (ann,) = make_members(1)
    session = ClubSession.objects.create(stake=Decimal("0.05"))
    zone = timezone.get_current_timezone()
    early = dt.datetime(2026, 11, 3, 21, 14, 37, tzinfo=zone)
    _entry(f"Checked in {ann}", early, action=AuditEntry.CHECK_IN, session=session)
    _entry("Club renamed", dt.datetime(2026, 11, 20, 9, 0, 5, tzinfo=zone))
    _entry("Payment", dt.datetime(2026, 12, 1, 10, 0, 0, tzinfo=zone), action=AuditEntry.PAYMENT)
    page = staff.get(reverse("club:audit")).content.decode()
    assert "2026-11-03 21:14:37" in page

    def shown(**query: Any) -> list[str]:
        return [e.what for e in staff.get(reverse("club:audit"), query).context["page"]]

    assert shown(since="2026-11-04", until="2026-11-30") == ["Club renamed"]
    assert shown(member=ann.pk) == [f"Checked in {ann}"]
    assert shown(session=session.pk) == [f"Checked in {ann}"]
    assert shown(action=AuditEntry.PAYMENT) == ["Payment"]
    bad = staff.get(reverse("club:audit"), {"since": "2026-12-01", "until": "2026-11-01"})
    assert bad.status_code == 400 and "comes before the start" in bad.content.decode()
    assert staff.get(reverse("club:audit"), {"session": 10**6}).status_code == 404
    # the CSV: what the filters choose, oldest first, ISO times with the club's offset
    r = staff.get(reverse("club:audit"), {"until": "2026-11-30", "format": "csv"})
    head, *rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert head == ["when", "who", "kind", "what", "why", "from", "evening", "table"]
    assert [row[3] for row in rows] == [f"Checked in {ann}", "Club renamed"]
    assert rows[0][0] == early.isoformat(timespec="seconds")


def test_the_log_pages_past_five_hundred_entries(staff: Client) -> None:
    AuditEntry.objects.bulk_create(
        [AuditEntry(action=AuditEntry.MEMBER, what=f"entry {i}") for i in range(650)]
    )
    total = AuditEntry.objects.count()
    first = staff.get(reverse("club:audit")).context["page"]
    assert first.paginator.count == total >= 650 and len(first) == 100
    last = staff.get(reverse("club:audit"), {"page": first.paginator.num_pages})
    assert last.status_code == 200
    seen = {e.pk for n in range(1, first.paginator.num_pages + 1)
            for e in staff.get(reverse("club:audit"), {"page": n}).context["page"]}  # fmt: skip
    assert len(seen) == total
    csv_rows = staff.get(reverse("club:audit"), {"format": "csv"}).content.decode().splitlines()
    assert len(csv_rows) == total + 1


def test_the_backups_page_lists_each_with_what_was_recorded_since(
    staff: Client, settings: Any, tmp_path: Path
) -> None:
    settings.BACKUP_DIR = tmp_path
    assert "No backup yet" in staff.get(reverse("club:backups")).content.decode()
    old = tmp_path / "club-2026-11-03-220000-evening-1.dump"
    new = tmp_path / "club-2026-11-10-220000-evening-2.dump"
    for path, day in ((old, 3), (new, 10)):
        path.write_bytes(b"x")
        stamp = dt.datetime(2026, 11, day, 22, 0, tzinfo=dt.UTC).timestamp()
        os.utime(path, (stamp, stamp))
    zone = dt.UTC
    _entry("between", dt.datetime(2026, 11, 5, 12, 0, tzinfo=zone))
    _entry("after both", dt.datetime(2026, 11, 12, 12, 0, tzinfo=zone))
    _entry("a backup", dt.datetime(2026, 11, 12, 12, 5, tzinfo=zone), action=AuditEntry.BACKUP)
    rows = staff.get(reverse("club:backups")).context["rows"]
    later = AuditEntry.objects.filter(at__gt=dt.datetime(2026, 11, 10, 22, 0, tzinfo=zone))
    assert [(r["name"], r["since"]) for r in rows] == [
        (new.name, later.exclude(action=AuditEntry.BACKUP).count()),
        (old.name, later.exclude(action=AuditEntry.BACKUP).count() + 1),
    ]
