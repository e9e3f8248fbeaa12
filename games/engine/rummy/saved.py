"""A rummy deal as a versioned JSON snapshot and back (:mod:`..snapshot`): cards by code,
no caches. :class:`RummySnapshots` is a part of :class:`~.self.RummyDeal` (a base it
inherits from), kept in its own module for the deal module's size: its methods are the
deal's own and read the deal's fields as the deal's other methods do."""

from __future__ import annotations

from typing import Any, Self

from .. import snapshot
from ..actions import Action
from ..cards import Card
from ..combinations import CARDS, Combination, cid_of
from ..protocol import Outcome
from ..records import Record
from ..rules import Rules
from ..words import LogView
from .moves import RUMMY_ACTIONS
from .parts import (
    Table,
    combination_from_json,
    combination_json,
    counted_codes,
    counts_of,
    table_for,
)


class RummySnapshots(snapshot.SnapshotEquality, snapshot.SnapshotHistory):
    """The fields of a rummy deal and its snapshot methods (:meth:`to_json`,
    :meth:`from_json`): the base of :class:`~.deal.RummyDeal`."""

    carry_in = 0  # nothing carries from one rummy deal to the next

    rules: Rules
    table: Table
    players: int
    dealer: int
    seed: int | None
    pack_order: tuple[Card, ...]
    version: int
    _cnt: list[list[int]]  # each seat's count of each card id
    _size: list[int]  # each seat's number of cards
    _stock: list[int]  # top last
    _pack: list[int]  # top last
    _combos: list[Combination]
    _turn: int
    _phase: str
    _shown: int  # cards put on the table this turn
    _snapshot: tuple[list[int], int, list[Combination]] | None  # L21's taking back
    _has_shown: list[bool]
    _first_ratter: int | None
    _turnovers: int
    _challenged: bool
    _pack_out: bool
    _log: list[Record]
    _outcome: Outcome | None
    _legal_key: int  # the version the listing was made at
    _legal: list[Action]
    # The ids of the listed action objects, for the fast path of a caller that applies
    # one of them (bots' playouts): an action counts as listed only if it IS one.
    _legal_ids: frozenset[int]
    _legal_frozen: frozenset[Action] | None

    def to_json(self) -> dict[str, Any]:
        """The deal as a versioned JSON snapshot (games/engine/snapshot.py): cards by
        code, no caches. ``RummyDeal.from_json(d.to_json()) == d``."""
        snap = self._snapshot
        return self.snapshot_header() | {
            "hands": [counted_codes(c) for c in self._cnt],
            "sizes": list(self._size),
            "stock": [CARDS[i].code for i in self._stock],
            "pack": [CARDS[i].code for i in self._pack],
            "combinations": [combination_json(c) for c in self._combos],
            "turn": self._turn,
            "phase": self._phase,
            "shown": self._shown,
            "taken_back_to": None
            if snap is None
            else {
                "hand": counted_codes(snap[0]),
                "size": snap[1],
                "combinations": [combination_json(c) for c in snap[2]],
            },
            "has_shown": list(self._has_shown),
            "first_ratter": self._first_ratter,
            "turnovers": self._turnovers,
            "challenged": self._challenged,
            "pack_out": self._pack_out,
            "log": [r.to_row() for r in self._log],
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, what: str = "a deal") -> Self:
        """The deal a :meth:`to_json` snapshot describes; :class:`SnapshotError` (naming
        ``what`` and the version) for an unknown version or a malformed snapshot."""
        return cls.read_snapshot(data, what, RUMMY_ACTIONS)

    def _read_own(self, data: dict[str, Any]) -> None:
        self.table = table_for(self.rules)
        self._cnt = [counts_of(h) for h in data["hands"]]
        self._size = [int(s) for s in data["sizes"]]
        self._stock = [cid_of(snapshot.card(c)) for c in data["stock"]]
        self._pack = [cid_of(snapshot.card(c)) for c in data["pack"]]
        self._combos = [combination_from_json(c) for c in data["combinations"]]
        self._turn = int(data["turn"])
        self._phase = str(data["phase"])
        self._shown = int(data["shown"])
        back = data["taken_back_to"]
        self._snapshot = (
            None
            if back is None
            else (
                counts_of(back["hand"]),
                int(back["size"]),
                [combination_from_json(c) for c in back["combinations"]],
            )
        )
        self._has_shown = [bool(x) for x in data["has_shown"]]
        ratter = data["first_ratter"]
        self._first_ratter = None if ratter is None else int(ratter)
        self._turnovers = int(data["turnovers"])
        self._challenged = bool(data["challenged"])
        self._pack_out = bool(data["pack_out"])
        self._log = [Record.from_row(e) for e in data["log"]]
        self._log_view = LogView()
        self._outcome = snapshot.outcome_from_json(data["outcome"])
        self._legal_key, self._legal, self._legal_ids, self._legal_frozen = (
            -1, [], frozenset(), None
        )  # fmt: skip

    def _fits(self, players: int) -> bool:
        return len(self._cnt) == len(self._size) == len(self._has_shown) == players
