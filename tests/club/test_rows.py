"""Model instances from a statement written once a process (club.infra.rows, issue 59): the
same instances the ORM makes, every field through its converters, other columns as
attributes, columns not read deferred."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from club.infra import rows
from club.models import ClubSession, Member, Table


@pytest.mark.django_db
def test_a_row_is_the_instance_the_orm_makes() -> None:
    evening = ClubSession.objects.create(name="Friday", stake=Decimal("0.0125"))
    made = Table.objects.create(
        session=evening, variant="conquian", size=2, mode="online", status="playing",
        options={"stock": "buried", "n": [1, 2]},
    )  # fmt: skip
    q = connection.ops.quote_name
    sql = (
        f"SELECT t.*, s.stake AS stake, 'extra' AS note FROM {q(Table._meta.db_table)} t"
        f" JOIN {q(ClubSession._meta.db_table)} s ON s.id = t.session_id WHERE t.id = %s"
    )
    (table,) = rows.fetch(Table, sql, [made.pk])
    orm = Table.objects.get(pk=made.pk)
    for f in Table._meta.concrete_fields:
        assert getattr(table, f.attname) == getattr(orm, f.attname), f.name
    assert table.options == {"stock": "buried", "n": [1, 2]}  # JSON through its field
    assert table.note == "extra" and table.stake == Decimal("0.0125")  # type: ignore[attr-defined]
    assert table._state.adding is False and table._state.db == "default"
    table.status = "closed"
    table.save(update_fields=["status"])  # saved as any instance is
    assert Table.objects.get(pk=made.pk).status == "closed"
    assert rows.fetch(Table, sql, [made.pk + 1000]) == []
    (ev,) = rows.fetch(
        ClubSession, f"SELECT * FROM {q(ClubSession._meta.db_table)} WHERE id = %s", [evening.pk]
    )
    assert ev.stake == Decimal("0.0125") and ev.opened_at == evening.opened_at
    assert ev.opened_at.tzinfo is not None


@pytest.mark.django_db
def test_columns_not_read_are_deferred_and_the_plan_is_kept(make_members: Any) -> None:
    (member,) = make_members(1)
    q = connection.ops.quote_name
    sql = f"SELECT id, display_name FROM {q(Member._meta.db_table)} WHERE id = %s"
    (m,) = rows.fetch(Member, sql, [member.pk])
    assert m.display_name == member.display_name
    assert m.get_deferred_fields() >= {"is_bot"}
    assert m.is_bot == member.is_bot  # read when asked for, as the ORM's deferred fields are
    plans = len(rows._plans)
    rows.fetch(Member, sql, [member.pk])
    assert len(rows._plans) == plans
