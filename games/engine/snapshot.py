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
games.engine.snapshot.SnapshotError: deal 7: snapshot version 99, this engine reads version 2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from .actions import Action, ActionTable
from .cards import Card
from .errors import InvalidActionError
from .protocol import Adjustment, Outcome
from .words import LogView

SNAPSHOT_VERSION = 2  # 2: the log as records (issue 39)


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


class SnapshotHistory:
    """The actions a deal has applied, decoded from a snapshot only when read.

    A server loads a deal, applies one action and saves it again; decoding hundreds of
    past actions each time would cost more than the rest of the load. So a loaded deal
    keeps its history as the snapshot's JSON (checked for form on loading: a known action
    type and a seat at the table) and new actions as objects after it; :attr:`history`
    decodes the lot on first reading, and :meth:`history_json` writes it back without
    decoding. A history entry damaged past that check raises :class:`SnapshotError` on
    reading.
    """

    version: int  # the number of actions applied
    _history: list[Action]  # the decoded actions (after the JSON ones, while those are kept)
    _log_view: LogView  # the log as viewers see it, kept between views, shared by copies
    _history_raw: list[Any] | None  # the snapshot's actions not yet decoded
    _history_of: str  # the deal, for the error when one cannot be decoded
    _history_notation: ActionTable  # the game's, to decode them

    @property
    def log_view(self) -> LogView:
        """The log's entries as viewers see them, kept between views (and shared by a
        :meth:`copy`, which reads the same records)."""
        return self._log_view

    def copy(self) -> Self:
        raise NotImplementedError

    def copy_apart(self) -> Self:
        """A copy sharing no cache with this deal (``copy`` shares the log's view): it
        may be changed while another thread reads this one."""
        new = self.copy()
        new._log_view = LogView()
        return new

    def _init_history(self) -> None:
        self._history, self._history_raw = [], None

    @property
    def history(self) -> list[Action]:
        raw = self._history_raw
        if raw is not None:
            try:
                decoded = [self._history_notation.from_json(a) for a in raw]
            except InvalidActionError as e:
                raise SnapshotError(f"{self._history_of}: malformed history: {e}") from None
            self._history = decoded + self._history
            self._history_raw = None
        return self._history

    @history.setter
    def history(self, actions: list[Action]) -> None:
        self._history, self._history_raw = actions, None

    def history_len(self) -> int:
        raw = self._history_raw
        return len(self._history) + (0 if raw is None else len(raw))

    def history_json(self) -> list[Any]:
        raw = self._history_raw
        tail = [a.to_json() for a in self._history]
        return tail if raw is None else raw + tail

    def _copy_history(self, new: SnapshotHistory) -> None:
        new._history, new._history_raw = self._history.copy(), self._history_raw

    def snapshot_header(self) -> dict[str, Any]:
        """The fields every game's snapshot opens with: its version, the rules, the
        seats, the dealer, the pack as dealt and the actions applied."""
        d: Any = self
        return {
            "snapshot": SNAPSHOT_VERSION,
            "rules": d.rules.to_json(),
            "players": d.players,
            "dealer": d.dealer,
            "seed": d.seed,
            "pack_order": [c.code for c in d.pack_order],
            "history": self.history_json(),
            "version": d.version,
        }

    def _load_header(self, data: Mapping[str, Any], what: str, notation: ActionTable) -> int:
        """Read what :meth:`snapshot_header` wrote (the rules, the seats, the dealer, the
        pack as dealt, the history and the version); the number of seats. Raises what a
        malformed snapshot raises (the caller names it: :func:`malformed`)."""
        from .rules import make_rules

        d: Any = self
        d.rules = make_rules(str(data["rules"]["variant"]), data["rules"]["options"])
        d.players = n = int(data["players"])
        d.dealer = int(data["dealer"])
        d.seed = None if data["seed"] is None else int(data["seed"])
        d.pack_order = tuple(card(c) for c in data["pack_order"])
        self._load_history(data["history"], n, what, notation)
        d.version = int(data["version"])
        return n

    @classmethod
    def read_snapshot(cls, data: dict[str, Any], what: str, notation: ActionTable) -> Self:
        """The deal a snapshot describes: its header (:meth:`_load_header`), then the
        game's own fields (:meth:`_read_own`). :class:`SnapshotError` naming ``what`` for
        an unknown version, a malformed snapshot, or seats and a history that do not
        match (:meth:`_fits`)."""
        check_version(data, what)
        try:
            new = cls.__new__(cls)
            players = new._load_header(data, what, notation)
            new._read_own(data)
        except LOAD_ERRORS as e:
            raise malformed(what, data, e) from None
        if new.history_len() != new.version or not new._fits(players):
            raise malformed(what, data, "its seats or its history do not match")
        return new

    def _read_own(self, data: dict[str, Any]) -> None:
        """Read the game's own fields of a snapshot (after its header)."""
        raise NotImplementedError

    def _fits(self, players: int) -> bool:
        """Whether the fields read are the snapshot's ``players`` seats' each."""
        raise NotImplementedError

    def _load_history(self, raw: object, players: int, what: str, notation: ActionTable) -> None:
        """Keep a snapshot's history undecoded, after checking each entry's form."""
        if not isinstance(raw, list):
            raise SnapshotError(f"the history is not a list: {type(raw).__name__}")
        known = notation.types
        for a in raw:
            if not (
                isinstance(a, dict)
                and a.get("type") in known
                and type(a.get("seat")) is int
                and 0 <= a["seat"] < players
            ):
                raise SnapshotError(f"not an action of this deal: {a!r}")
        self._history, self._history_raw, self._history_of = [], list(raw), what
        self._history_notation = notation


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
