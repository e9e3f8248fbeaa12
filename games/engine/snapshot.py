"""Deal states as versioned JSON snapshots (what the database keeps of a deal in play).

A snapshot holds the rules, the pack as dealt, the actions applied and every part of the
position, with cards as their codes (``"7C"``), never the engine's internal numbers, so a
change to the card model needs no migration of stored deals; it holds no caches (a loaded
deal lists and checks its legal actions anew). ``to_json()`` and ``from_json()`` live on
each deal class; this module keeps what they share.

>>> check_version({"snapshot": SNAPSHOT_VERSION}, "deal 7")
>>> check_version({"snapshot": 99}, "deal 7")
Traceback (most recent call last):
...
games.engine.snapshot.SnapshotError: deal 7: snapshot version 99, this engine reads version 1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import Card
from .errors import InvalidActionError
from .protocol import Adjustment, Outcome

SNAPSHOT_VERSION = 1


class SnapshotError(Exception):
    """A snapshot this engine cannot load (an unknown version, a malformed document); it
    names the deal and the version, and nothing is half-loaded."""


class SnapshotEquality:
    """Deals are equal when their snapshots are (the same position, history and pack);
    a deal changes as it is played, so it is never a dict key."""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, SnapshotEquality)
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def check_version(data: Mapping[str, Any], what: str) -> None:
    version = data.get("snapshot") if isinstance(data, Mapping) else None
    if version != SNAPSHOT_VERSION:
        raise SnapshotError(
            f"{what}: snapshot version {version!r}, this engine reads version {SNAPSHOT_VERSION}"
        )


# What reading a damaged snapshot can raise; each is turned into one SnapshotError.
LOAD_ERRORS = (SnapshotError, KeyError, IndexError, TypeError, ValueError, InvalidActionError)


def malformed(what: str, data: Mapping[str, Any], why: object) -> SnapshotError:
    """The error for a snapshot of a known version that cannot be read."""
    reason = f"{type(why).__name__} {why}" if isinstance(why, Exception) else str(why)
    return SnapshotError(f"{what}: malformed snapshot version {data.get('snapshot')!r}: {reason}")


def card(code: object) -> Card:
    if not isinstance(code, str):
        raise SnapshotError(f"not a card code: {code!r}")
    try:
        return Card.from_code(code)
    except InvalidActionError as e:
        raise SnapshotError(str(e)) from None


def outcome_from_json(data: Mapping[str, Any] | None) -> Outcome | None:
    """The inverse of :meth:`Outcome.to_json` (``None`` for a deal in play)."""
    if data is None:
        return None
    return Outcome(
        kind=str(data["kind"]),
        winner=None if data["winner"] is None else int(data["winner"]),
        hands=tuple(tuple(card(c) for c in h) for h in data["hands"]),
        pips=tuple(int(p) for p in data["pips"]),
        payments=tuple(int(p) for p in data["payments"]),
        adjustments=tuple(
            Adjustment(int(a["seat"]), int(a["points"]), str(a["reason"]), str(a["law"]))
            for a in data["adjustments"]
        ),
        carried=int(data["carried"]),
        scoring=str(data["scoring"]),
    )
