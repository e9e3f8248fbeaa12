"""One round trip for a turn action's table lock and its seating, read after the lock.

A single ``SELECT ... FOR UPDATE OF t`` joined to the seats is not enough: a statement
that waits for a row lock re-reads only the locked row when the lock is released, and
keeps the seats as its snapshot saw them before the wait (PostgreSQL's EvalPlanQual), so
a seat that changed hands while the move waited was read as it had been. In a VOLATILE
PL/pgSQL function each statement takes its own snapshot: the lock first, then the
seating as the transaction that held the lock left it (issue 59;
games migration 0006 calls it, with the deal read after it).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION club_lock_table_seating(p_table bigint, p_active text)
RETURNS TABLE (
    o_position integer, o_member_id bigint, o_name text, o_is_bot boolean, o_user_id bigint,
    o_sub_id bigint, o_sub_name text, o_sub_bot boolean, o_sub_user bigint
)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM 1 FROM club_table WHERE id = p_table FOR UPDATE;
    RETURN QUERY
    SELECT s.position::integer, s.member_id::bigint, m.display_name::text, m.is_bot,
           m.user_id::bigint, x.substitute_id::bigint, xm.display_name::text, xm.is_bot,
           xm.user_id::bigint
    FROM club_seat s JOIN club_member m ON m.id = s.member_id
    LEFT JOIN club_substitution x
        ON x.table_id = s.table_id AND x.leaver_id = s.member_id AND x.status = p_active
    LEFT JOIN club_member xm ON xm.id = x.substitute_id
    WHERE s.table_id = p_table ORDER BY s.position;
END
$$;
"""


DROP = "DROP FUNCTION IF EXISTS club_lock_table_seating(bigint, text);"


# PostgreSQL's (the club's only database); an old club kept in SQLite is migrated there
# only to be copied into PostgreSQL (club/management/commands/import_sqlite).
def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION)


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("club", "0018_table_computers_wanted")]

    operations = [migrations.RunPython(create, drop)]
