"""Books nobody can bend (issue 53): an evening's stake positive and its fees not
negative (checks), both fixed once the evening has a table (a trigger: a check cannot
see the tables); payments reversed by a posting that names them; new audit actions."""

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

FIXED_TERMS = """
CREATE OR REPLACE FUNCTION club_clubsession_terms_fixed() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM club_table WHERE session_id = OLD.id) THEN
        RAISE EXCEPTION 'club_clubsession %: its stake and table fees are fixed once it has a table',
            OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER club_clubsession_terms_fixed BEFORE UPDATE ON club_clubsession
    FOR EACH ROW
    WHEN (OLD.stake IS DISTINCT FROM NEW.stake
          OR OLD.fee_member IS DISTINCT FROM NEW.fee_member
          OR OLD.fee_guest IS DISTINCT FROM NEW.fee_guest)
    EXECUTE FUNCTION club_clubsession_terms_fixed();
"""

UNFIX_TERMS = """
DROP TRIGGER IF EXISTS club_clubsession_terms_fixed ON club_clubsession;
DROP FUNCTION IF EXISTS club_clubsession_terms_fixed();
"""


def fix_terms(apps: Any, schema_editor: Any) -> None:
    # PostgreSQL's (the club's only database); an old club kept in SQLite is migrated
    # there only to be copied into PostgreSQL (club/management/commands/import_sqlite).
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FIXED_TERMS, params=None)


def unfix_terms(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(UNFIX_TERMS, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0015_audit_entry_no_constraint"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="posting",
            name="reverses",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="reversal",
                to="club.posting",
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("check-in", "check-in"),
                    ("check-out", "check-out"),
                    ("table", "table formed"),
                    ("table-cancel", "table cancelled"),
                    ("table-void", "table voided"),
                    ("result", "result entered"),
                    ("correction", "line corrected"),
                    ("open", "evening opened"),
                    ("fee", "table fees"),
                    ("close", "evening closed"),
                    ("cancel", "evening cancelled"),
                    ("void", "evening voided"),
                    ("payment", "payment"),
                    ("house-rules", "house rules"),
                    ("member", "member edited"),
                    ("reversal", "payment reversed"),
                    ("refund", "refund"),
                ],
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="posting",
            name="kind",
            field=models.CharField(
                choices=[
                    ("session-balance", "session balance"),
                    ("payment", "payment"),
                    ("adjustment", "adjustment"),
                    ("fee", "table fee"),
                    ("reversal", "payment reversed"),
                    ("refund", "refund from the club"),
                ],
                max_length=20,
            ),
        ),
        migrations.AddConstraint(
            model_name="clubsession",
            constraint=models.CheckConstraint(
                condition=models.Q(("stake__gt", 0)), name="session_stake_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="clubsession",
            constraint=models.CheckConstraint(
                condition=models.Q(("fee_guest__gte", 0), ("fee_member__gte", 0)),
                name="session_fees_not_negative",
            ),
        ),
        migrations.AddConstraint(
            model_name="posting",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("kind", "reversal"), ("reverses__isnull", False)),
                    models.Q(
                        models.Q(("kind", "reversal"), _negated=True), ("reverses__isnull", True)
                    ),
                    _connector="OR",
                ),
                name="a_reversal_names_its_payment",
            ),
        ),
        migrations.RunPython(fix_terms, unfix_terms),
    ]
