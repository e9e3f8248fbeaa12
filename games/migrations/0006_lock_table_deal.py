"""One round trip for a move's table lock, its seating and its deal (issue 59).

The move locks the table (the app's lock order: the table, then its deal), reads the
seating as whoever held the lock left it (the club's ``club_lock_table_seating``,
club migration 0019), then locks the table's latest deal. These were two statements, two
round trips. They cannot be one plain statement: a statement's snapshot is taken before
it waits for the table's lock, so a deal dealt by whoever held the lock (the next deal,
at a deal's end) would not be seen, and the move would be made on the deal that ended.
In a VOLATILE PL/pgSQL function each statement takes its own snapshot: the deal is read
after the lock, as the transaction that held it left the table
(``games.play.reading.lock_deal_and_seating``).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION games_lock_table_deal(p_table bigint, p_active text)
RETURNS TABLE (o_seating json, o_deal games_deal)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    seats json;
    latest games_deal;
BEGIN
    SELECT coalesce(json_agg(json_build_array(
               l.o_position, l.o_member_id, l.o_name, l.o_is_bot, l.o_user_id,
               l.o_sub_id, l.o_sub_name, l.o_sub_bot, l.o_sub_user) ORDER BY l.o_position),
           '[]'::json)
    INTO seats FROM club_lock_table_seating(p_table, p_active) l;
    SELECT d.* INTO latest FROM games_deal d WHERE d.table_id = p_table
    ORDER BY d.number DESC LIMIT 1 FOR UPDATE;
    RETURN QUERY SELECT seats, latest;
END
$$;
"""

DROP = "DROP FUNCTION IF EXISTS games_lock_table_deal(bigint, text);"


# PostgreSQL's (the club's only database); an old club kept in SQLite is migrated there
# only to be copied into PostgreSQL (club/management/commands/import_sqlite).
def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION)


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_deal_call_round"),
        ("club", "0019_lock_table_seating"),
    ]

    operations = [migrations.RunPython(create, drop)]
