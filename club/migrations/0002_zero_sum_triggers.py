"""The database keeps the books zero-sum, not only Python (django-hordak's way).

PostgreSQL: a DEFERRABLE INITIALLY DEFERRED constraint trigger on ledger legs and on
washbook entries checks, at commit, that the posting's legs (the line's entries) sum to
zero; and a posting (line) once sealed cannot be unsealed nor its legs changed. The
services insert the legs, then set the header's ``sealed`` flag; the seal is refused
unless the legs sum to zero. PostgreSQL is the only database the club runs on (issue 35).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

# (table of legs, its header FK column, amount column, header table)
BOOKS = [
    ("club_leg", "posting_id", "amount", "club_posting"),
    ("club_washbookentry", "line_id", "points", "club_washbookline"),
]


def pg_sql(legs: str, fk: str, amount: str, header: str) -> list[str]:
    fn = f"{legs}_zero_sum"
    return [
        f"""
        CREATE OR REPLACE FUNCTION {fn}() RETURNS trigger AS $$
        DECLARE
            ids bigint[];
            hid bigint;
            total numeric;
        BEGIN
            IF TG_OP = 'INSERT' THEN ids := ARRAY[NEW.{fk}];
            ELSIF TG_OP = 'DELETE' THEN ids := ARRAY[OLD.{fk}];
            ELSE ids := ARRAY[NEW.{fk}, OLD.{fk}];
            END IF;
            FOREACH hid IN ARRAY ids LOOP
                SELECT COALESCE(SUM({amount}), 0) INTO total FROM {legs} WHERE {fk} = hid;
                IF total <> 0 THEN
                    RAISE EXCEPTION '{header} %: the legs sum to %, not zero', hid, total
                        USING ERRCODE = 'check_violation';
                END IF;
            END LOOP;
            RETURN NULL;
        END;
        $$ LANGUAGE plpgsql;
        """,
        f"""
        CREATE CONSTRAINT TRIGGER {fn}
            AFTER INSERT OR UPDATE OR DELETE ON {legs}
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION {fn}();
        """,
        f"""
        CREATE OR REPLACE FUNCTION {legs}_sealed() RETURNS trigger AS $$
        DECLARE
            hid bigint;
        BEGIN
            IF TG_OP = 'DELETE' THEN hid := OLD.{fk}; ELSE hid := NEW.{fk}; END IF;
            IF EXISTS (SELECT 1 FROM {header} WHERE id = hid AND sealed)
               OR (TG_OP = 'UPDATE' AND EXISTS (
                   SELECT 1 FROM {header} WHERE id = OLD.{fk} AND sealed)) THEN
                RAISE EXCEPTION '{header} %: sealed, its legs cannot change', hid
                    USING ERRCODE = 'check_violation';
            END IF;
            IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
            RETURN NEW;
        END;
        $$ LANGUAGE plpgsql;
        """,
        f"""
        CREATE TRIGGER {legs}_sealed BEFORE INSERT OR UPDATE OR DELETE ON {legs}
            FOR EACH ROW EXECUTE FUNCTION {legs}_sealed();
        """,
        f"""
        CREATE OR REPLACE FUNCTION {header}_seal() RETURNS trigger AS $$
        BEGIN
            IF OLD.sealed AND NOT NEW.sealed THEN
                RAISE EXCEPTION '{header} %: cannot be unsealed', OLD.id
                    USING ERRCODE = 'check_violation';
            END IF;
            IF NEW.sealed AND NOT OLD.sealed AND
               (SELECT COALESCE(SUM({amount}), 0) FROM {legs} WHERE {fk} = NEW.id) <> 0 THEN
                RAISE EXCEPTION '{header} %: the legs do not sum to zero', NEW.id
                    USING ERRCODE = 'check_violation';
            END IF;
            RETURN NEW;
        END;
        $$ LANGUAGE plpgsql;
        """,
        f"""
        CREATE TRIGGER {header}_seal BEFORE UPDATE OF sealed ON {header}
            FOR EACH ROW EXECUTE FUNCTION {header}_seal();
        """,
    ]


def pg_drop(legs: str, fk: str, amount: str, header: str) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {legs}_zero_sum ON {legs}",
        f"DROP TRIGGER IF EXISTS {legs}_sealed ON {legs}",
        f"DROP TRIGGER IF EXISTS {header}_seal ON {header}",
        f"DROP FUNCTION IF EXISTS {legs}_zero_sum()",
        f"DROP FUNCTION IF EXISTS {legs}_sealed()",
        f"DROP FUNCTION IF EXISTS {header}_seal()",
    ]


def forwards(apps: Any, schema_editor: Any) -> None:
    for book in BOOKS:
        for sql in pg_sql(*book):
            schema_editor.execute(sql, params=None)


def backwards(apps: Any, schema_editor: Any) -> None:
    for book in BOOKS:
        for sql in pg_drop(*book):
            schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("club", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
