"""Model instances from a statement written once a process, without the ORM's work per call.

The hottest reads (every request's user, every phone's deal and seating, every move's
locked deal) are statements written once; ``Model.objects.raw`` then spends about twice
the cursor's own CPU on each call working out again how its columns map to the model
(0.55 ms against 0.27 for a deal and its seating, issue 59). :func:`fetch` works that
out once for each model and statement and keeps it, then makes each row an
instance as the ORM does (:meth:`Model.from_db`, each column through its field's
converters). A column that is not a field of the model is set on the instance as an
attribute, as ``raw`` does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

type _Converter = Callable[[Any, Any, Any], Any]


class _Plan:
    """How one statement's columns make an instance of ``model``."""

    __slots__ = ("attnames", "converters", "extras", "model", "order")

    def __init__(self, model: type[Model], columns: Sequence[str]) -> None:
        by_column = {f.column: f for f in model._meta.concrete_fields}
        at = {c: i for i, c in enumerate(columns)}
        present = [f for f in model._meta.concrete_fields if f.column in at]
        self.model = model
        # The values in the model's field order, as Model.from_db takes them.
        self.order = [at[f.column] for f in present]
        self.attnames = [f.attname for f in present]
        self.converters: list[tuple[int, list[_Converter], Any]] = []
        for i, f in enumerate(present):
            col = f.get_col(model._meta.db_table)
            convs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if convs:
                self.converters.append((i, convs, col))
        self.extras = [(i, c) for i, c in enumerate(columns) if c not in by_column]

    def make(self, row: Sequence[Any]) -> Model:
        values = [row[i] for i in self.order]
        for i, convs, col in self.converters:
            value = values[i]
            for conv in convs:
                value = conv(value, col, connection)
            values[i] = value
        obj = self.model.from_db(connection.alias, self.attnames, values)
        for i, name in self.extras:
            setattr(obj, name, row[i])
        return obj


_plans: dict[tuple[type[Model], str], _Plan] = {}
_guard = threading.Lock()


def fetch[M: Model](model: type[M], sql: str, params: Sequence[Any]) -> list[M]:
    """The rows ``sql`` reads, each an instance of ``model`` (its other columns set as
    attributes); columns of the model the statement does not read are deferred."""
    key = (model, sql)  # a statement reads the same columns every time
    plan = _plans.get(key)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if plan is None:  # the columns' names asked for once (psycopg makes each anew)
            columns = tuple(d.name for d in cursor.description)
            with _guard:
                plan = _plans.setdefault(key, _Plan(model, columns))
        rows = cursor.fetchall()
    return [plan.make(r) for r in rows]  # type: ignore[misc]
