"""A move as it reaches a table, parsed once (issue 80, item 4).

The table page's POST is read here into a :class:`Move`, or refused with a
:class:`Rejection` before anything reaches the deal; ``services.act`` takes the `Move`
whole, for people and computer players alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.translation import gettext

from .club_api import parse_whole

# An action's JSON is a few hundred characters (a meld of a double pack's cards included);
# anything longer is refused before it is parsed.
MAX_ACTION = 4000


class Rejection(Exception):
    """An action refused: ``status`` is the HTTP status the view answers with."""

    def __init__(self, status: int, code: str, message: str, law: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.law = law


@dataclass(frozen=True)
class Move:
    """One action (``action``: its JSON) or one intent (``intent`` over ``cards``, and
    ``combination`` for the combination it names) at ``table_id``, made at the deal's
    ``version``.

    The player is ``member_id``, or the member seated for ``user_id`` (read with the
    seating under the table's lock), or the computer player at ``bot_seat``. ``seat``
    and ``deal_id`` are what the page showed; ``token`` makes a resubmission count once.
    """

    table_id: int
    version: int | None
    member_id: int | None = None
    user_id: int | None = None
    bot_seat: int | None = None
    seat: int | None = None
    deal_id: int | None = None
    token: str | None = None
    action: Any = None
    intent: str | None = None
    cards: Sequence[str] = ()
    combination: int | None = None


class Form(Protocol):
    """What a move is read from: a request's POST (Django's QueryDict)."""

    def get(self, key: str, default: Any = None) -> Any: ...

    def getlist(self, key: str) -> list[Any]: ...


def malformed(why: str) -> Rejection:
    return Rejection(400, "malformed", gettext("malformed request: %(why)s") % {"why": why})


def parse(table_id: int, form: Form, user_id: int) -> Move:
    """The move a table page's form posts, or :class:`Rejection` (400) for a request no
    page sends: an action too long or not JSON, a number that is not ASCII digits, an
    intent's combination that is not one, nothing to do."""
    raw = form.get("action")
    if raw and len(raw) > MAX_ACTION:
        raise malformed("the action is too long")
    try:
        action = json.loads(raw) if raw else None
    except (json.JSONDecodeError, RecursionError):  # 10,000 brackets deep: refused
        raise malformed("the action is not JSON") from None
    numbers = ("version", "deal", "seat", "combination")
    if any(form.get(k) not in (None, "") and parse_whole(form.get(k)) is None for k in numbers):
        raise malformed("numbers expected")
    intent, combination = form.get("intent") or None, parse_whole(form.get("combination"))
    if intent and ":" in intent:  # "add:3": the button of combination 3
        intent, _, cid = intent.partition(":")
        combination = parse_whole(cid)
        if combination is None:
            raise malformed("bad combination")
    if action is None and not intent:
        raise malformed("no action")
    return Move(
        table_id,
        version=parse_whole(form.get("version")),
        user_id=user_id,
        seat=parse_whole(form.get("seat")),
        deal_id=parse_whole(form.get("deal")),
        token=form.get("token") or None,
        action=action,
        intent=intent,
        cards=tuple(form.getlist("cards")),
        combination=combination,
    )
