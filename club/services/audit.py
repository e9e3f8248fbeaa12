"""The audit log (issue 42, item 7): every secretary action, with who, when, what and why.

Each service that does a secretary's action writes its entry with :func:`record` in its
own transaction (issue 80, item 3: the views did, each in a transaction of its own, and
some still do): the action and its entry are committed together, or neither is. The entry's evening and table
carry no database constraint (see `AuditEntry`), so writing it takes no lock out of the
app's order. The secretary's role is club/pages/roles.py's.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from club.models import AuditEntry, ClubSession, Table
from club.services.base import clean_reason


def record(
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    what: str,
    *,
    why: str = "",
    session: ClubSession | None = None,
    table: Table | None = None,
) -> AuditEntry:
    """Write one entry; ``action`` is one of `AuditEntry.ACTIONS`. The reason is cleaned
    of characters that do not show as themselves (issue 53, item 7), as names are."""
    if action not in dict(AuditEntry.ACTIONS):
        raise ValueError(f"unknown audit action {action!r}")
    if session is None and table is not None:
        session = table.session
    return AuditEntry.objects.create(
        actor=actor if isinstance(actor, AbstractBaseUser) else None,
        action=action,
        what=what[:300],
        why=clean_reason(why),
        session=session,
        table=table,
    )
