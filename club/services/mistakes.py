"""Tables undone by mistake: cancelled before any play, voided after it (issue 36's lock
order: the evening, then the table). Split from :mod:`.tables` to keep modules small."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from club.models import Arrival, AuditEntry, Table
from club.services import audit, base
from club.services.base import Actor, ClubError, books_label, clean_reason, log, recorded_user


def cancel_table(table_id: int, *, by: Actor = None) -> Table:
    """Undo a table formed by mistake: allowed while nothing has been played at it. It
    closes (with a note in its log); its players are waiting again, and anyone queued
    for it is no longer."""
    from club.services.sessions import played_at

    with transaction.atomic():
        _, table = base.lock_table(table_id)  # the evening, then the table
        if table.status == Table.CLOSED:
            raise ClubError(gettext("the table is closed already"))
        if table.is_practice or table.session_id is None:
            raise ClubError(gettext("only a table of an evening is cancelled here"))
        if played_at(table_id=table_id):
            raise ClubError(
                gettext("deals have been played at this table: it stays in the washbook")
            )
        Table.objects.filter(pk=table_id).update(
            status=Table.CLOSED, next_redraw_at=None, redraw_window_until=None
        )
        Arrival.objects.filter(queue_table_id=table_id).update(queue_table=None)
        base.stop_play([table_id], "The table was cancelled.")
        who = recorded_user(by)
        log(
            table,
            f"Cancelled by {who.get_username() if who else 'the secretary'}: nothing had been played.",
        )
        table.refresh_from_db()
        said = f"{books_label(table)} cancelled: its players wait again."
        audit.record(by, AuditEntry.TABLE_CANCEL, said, table=table)
        return table


def void_table(table_id: int, reason: str, *, by: Actor = None) -> Table:
    """A table played in error (the wrong game, the wrong players), voided with the
    secretary's reason while its evening is open. Its lines stay in the washbook,
    marked void; balancing leaves the table out of money (`ledger.staked_tables`). The
    table closes, an online deal in progress there stops, and its players wait again.
    Before any play, a table is cancelled instead (`cancel_table`)."""
    from club.services.sessions import played_at

    reason = clean_reason(str(reason or ""))
    if not reason:
        raise ClubError(gettext("give the reason for voiding the table"), field="reason")
    if len(reason) > 200:
        raise ClubError(gettext("keep the reason under 200 characters"), field="reason")
    with transaction.atomic():
        # The evening, then the table, both read after their locks: a close committed a
        # moment ago is seen, and the void refused (issue 36: it was read from a copy
        # taken before the lock, and the voided table's money balanced anyway).
        session, table = base.lock_table(table_id)
        if session is None or table.is_practice:
            raise ClubError(gettext("only a table of an evening is voided here"))
        if table.voided_at is not None:
            raise ClubError(gettext("the table is voided already"))
        if not session.is_open:
            raise ClubError(gettext("the evening is closed: its tables can no longer be voided"))
        if not played_at(table_id=table_id):
            raise ClubError(gettext("nothing has been played at this table: cancel it instead"))
        Table.objects.filter(pk=table_id).update(
            status=Table.CLOSED,
            voided_at=timezone.now(),
            void_reason=reason,
            next_redraw_at=None,
            redraw_window_until=None,
        )
        Arrival.objects.filter(queue_table_id=table_id).update(queue_table=None)
        base.stop_play([table_id], f"The table was voided: {reason}")
        who = recorded_user(by)
        log(table, f"Voided by {who.get_username() if who else 'the secretary'}: {reason}")
        table.refresh_from_db()
        said = f"Table {table.number} voided: its lines stay in the washbook, struck through."
        audit.record(by, AuditEntry.TABLE_VOID, said, why=reason, session=session, table=table)
        return table
