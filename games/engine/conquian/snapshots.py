"""Conquián deals as versioned JSON snapshots (:mod:`..snapshot`): cards by code, no
caches; :meth:`.deal.ConquianDeal.to_json` and ``from_json`` call these. A game to a
points total (C-opt-4) keeps its points before the deal as ``scores_in``; snapshots from
before it, or of a deal that is its own game, have none."""

from __future__ import annotations

from typing import Any, Self

from .. import snapshot
from ..actions import Action
from ..cards import Card
from ..combinations import CARDS
from ..protocol import Outcome
from ..records import Record
from ..rules import Rules
from ..snapshot import SNAPSHOT_VERSION
from ..words import LogView
from .actions import CONQUIAN_NOTATION
from .melds import Combo
from .order import ORDERS, PackOrder


class ConquianSnapshots(snapshot.SnapshotEquality, snapshot.SnapshotHistory):
    """The fields of a Conquián deal and its snapshot methods (:meth:`to_json`,
    :meth:`from_json`): the base of :class:`~.self.ConquianDeal`."""

    players = 2

    rules: Rules
    dealer: int
    version: int
    carry_in: int
    # the points each seat has won in the game before this deal (C-opt-4, a game to a
    # target); (0, 0) where each deal is a game
    scores_in: tuple[int, ...]
    pack_order: tuple[Card, ...]
    seed: int | None
    _order: PackOrder
    _cards: tuple[Card, ...]
    _idx: dict[Card, int]
    _hands: list[list[int]]
    _combos: dict[int, Combo]
    _where: list[int]  # the combination each card lies in, or -1
    _next_id: int
    _dead: list[int]
    _card: int  # the card turned or thrown, -1 when none
    _turned_by: int
    _say: int
    _refusals: int
    _from_pack: bool
    _trade: list[int]
    _outcome: Outcome | None
    _log: list[Record]
    _cache_v: int  # the version _cache was listed at
    _cache: list[Action]
    _phase: str
    _mover: int
    _after_trade: str
    _pack: list[int]  # top card last, for pop()

    @property
    def cap(self) -> int:
        """The longest sequence: eight with C-opt-5 (seed 003), else no cap (0; CO2)."""
        return 8 if self.rules.opt("eight_cap") else 0

    @property
    def target(self) -> int:
        """The points total that ends the game (C-opt-4, seed 003); 0: each deal a game."""
        return int(self.rules.opt("target") or 0)

    def to_json(self) -> dict[str, Any]:
        """The deal as a versioned JSON snapshot (games/engine/snapshot.py): cards by
        code, no caches. ``ConquianDeal.from_json(d.to_json()) == d``."""
        cards = self._cards

        def codes(xs: list[int] | tuple[int, ...]) -> list[str]:
            return [cards[x].code for x in xs]

        target = {"scores_in": list(self.scores_in)} if self.target else {}
        return {
            "snapshot": SNAPSHOT_VERSION,
            "rules": self.rules.to_json(),
            "players": 2,
            "dealer": self.dealer,
            "seed": self.seed,
            "carry_in": self.carry_in,
            **target,
            "pack_order": [c.code for c in self.pack_order],
            "history": self.history_json(),
            "version": self.version,
            "hands": [codes(h) for h in self._hands],
            "combos": [
                {"id": cid, "owner": owner, "sequence": seq, "cards": codes(xs)}
                for cid, (owner, seq, xs) in self._combos.items()
            ],
            "next_id": self._next_id,
            "dead": codes(self._dead),
            "card": None if self._card < 0 else cards[self._card].code,
            "turned_by": self._turned_by,
            "say": self._say,
            "refusals": self._refusals,
            "from_pack": self._from_pack,
            "trade": [None if x < 0 else cards[x].code for x in self._trade],
            "outcome": None if self._outcome is None else self._outcome.to_json(),
            "log": [r.to_row() for r in self._log],
            "phase": self._phase,
            "after_trade": self._after_trade,
            "mover": self._mover,
            "pack": codes(self._pack),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, what: str = "a Conquián deal") -> Self:
        """The deal a :meth:`to_json` snapshot describes; :class:`SnapshotError` (naming
        ``what`` and the version) for an unknown version or a malformed snapshot."""
        return cls.read_snapshot(data, what, CONQUIAN_NOTATION)

    def _read_own(self, data: dict[str, Any]) -> None:
        self._order = ORDERS[str(self.rules.opt("pack"))]
        self._cards = CARDS
        self._idx = idx = self._order.index

        def ints(xs: list[str]) -> list[int]:
            return [idx[snapshot.card(c)] for c in xs]

        self.carry_in = int(data["carry_in"])
        self.scores_in = tuple(int(s) for s in data.get("scores_in", (0, 0)))
        self._hands = [ints(h) for h in data["hands"]]
        self._combos = {}
        self._where = [-1] * 52
        for c in data["combos"]:
            xs = tuple(ints(c["cards"]))
            self._combos[int(c["id"])] = (int(c["owner"]), bool(c["sequence"]), xs)
            for x in xs:
                self._where[x] = int(c["id"])
        self._next_id = int(data["next_id"])
        self._dead = ints(data["dead"])
        self._card = -1 if data["card"] is None else idx[snapshot.card(data["card"])]
        self._turned_by = int(data["turned_by"])
        self._say = int(data["say"])
        self._refusals = int(data["refusals"])
        self._from_pack = bool(data["from_pack"])
        self._trade = [-1 if c is None else idx[snapshot.card(c)] for c in data["trade"]]
        self._outcome = snapshot.outcome_from_json(data["outcome"])
        self._log = [Record.from_row(e) for e in data["log"]]
        self._log_view = LogView()
        self._phase = str(data["phase"])
        self._after_trade = str(data["after_trade"])
        self._mover = int(data["mover"])
        self._pack = ints(data["pack"])
        self._cache_v, self._cache = -1, []

    def _fits(self, players: int) -> bool:
        return players == 2 and len(self._hands) == 2 and len(self.scores_in) == 2
