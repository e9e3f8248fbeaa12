"""The evening's live notices: the secretary's console follows the same event stream as
the tables (Redis pub/sub, served by the events process, `club.live.streams`).

Whatever changes an evening (an arrival, a table formed or cancelled, a seat, a cut, a
redraw demand, a substitute, a washbook line, the session itself) publishes a notice on
the session's channel after its transaction commits; an online table's moves publish
there too (`games.play.services.publish`). A notice carries a time, never a name or a card:
each console then fetches its own fragment.

Publishing is hooked to the models' ``post_save`` (`connect`, from ``ClubConfig.ready``),
so no service can forget it. ``bulk_create`` and ``update`` send no signal: the services
that use them also write a table log line (`TableEvent`) or save the table, which does.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from club.infra import redis as club_redis

log = logging.getLogger(__name__)

_session_of_table: dict[int, int | None] = {}  # a table never changes evening


def session_channel(session_id: int) -> str:
    return club_redis.key("session", session_id)


def session_of_table(table_id: int) -> int | None:
    """The evening a table belongs to (None for a practice table); cached per process."""
    if table_id not in _session_of_table:
        from club.models import Table

        found = list(Table.objects.filter(pk=table_id).values_list("session_id", flat=True))
        if not found:
            return None  # not cached: a table being created may not be visible yet
        _session_of_table[table_id] = found[0]  # None (a practice table) is kept too
    return _session_of_table[table_id]


def publish_session(session_id: int, message: str | None = None, pipe: Any = None) -> None:
    """Tell every console of the evening that something changed. A failure is logged
    and ignored: consoles fall back to polling. With ``pipe`` (a Redis pipeline another
    notice is in), the commands join it and its sender sends them: one round trip for a
    table's move and its evening's consoles (issue 59)."""
    msg = message or json.dumps({"at": time.time()})
    if pipe is not None:
        _session_notice(pipe, session_id, msg)
        return
    try:
        pipe = club_redis.client().pipeline(transaction=False)
        _session_notice(pipe, session_id, msg)
        pipe.execute()
    except Exception:
        log.warning("could not publish session %s update", session_id, exc_info=True)


def _session_notice(pipe: Any, session_id: int, msg: str) -> None:
    pipe.set(club_redis.key("session", session_id, "last"), msg, ex=86400)
    pipe.publish(session_channel(session_id), msg)


def session_changed(session_id: int | None) -> None:
    """Publish for ``session_id`` once the current transaction commits (at once outside one)."""
    if session_id is not None:
        transaction.on_commit(lambda: publish_session(session_id))


def publish_table_club(table_id: int) -> None:
    """Tell the browsers at a table that its club panel changed (seats, substitutes, the
    washbook, the redraw window, the table's news): a ``club`` notice on the table's
    channel, which moves within a deal do not send (issue 59). Logged and ignored on
    failure: the panel polls."""
    msg = json.dumps({"club": True, "at": time.time()})
    try:
        club_redis.client().publish(club_redis.key("table", table_id), msg)
    except Exception:
        log.warning("could not publish table %s club notice", table_id, exc_info=True)


def table_changed(table_id: int) -> None:
    """Publish the table's club notice once the current transaction commits."""
    transaction.on_commit(lambda: publish_table_club(table_id))


def _on_save(sender: type, instance: Any, **kwargs: Any) -> None:
    from club.models import ClubSession, Table

    if isinstance(instance, Table):
        table_changed(instance.pk)
    elif getattr(instance, "table_id", None) is not None:
        table_changed(instance.table_id)
    if isinstance(instance, ClubSession):
        session_changed(instance.pk)
    elif hasattr(instance, "session_id"):
        session_changed(instance.session_id)
    elif getattr(instance, "table_id", None) is not None:
        session_changed(session_of_table(instance.table_id))


# Every model whose save changes what an evening's console shows.
WATCHED = (
    "Arrival", "ClubSession", "CutBatch", "RedrawDemand", "Substitution", "Table",
    "TableEvent", "WashbookLine",
)  # fmt: skip


def connect() -> None:
    from django.apps import apps

    for name in WATCHED:
        model = apps.get_model("club", name)
        post_save.connect(_on_save, sender=model, dispatch_uid=f"club.live.notices.{name}")
