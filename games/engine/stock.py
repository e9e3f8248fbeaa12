"""What the deals of Tonk and Tunk share (issue 80, item 5): a pack to draw from, a
stock whose top card alone is shown (buried), a hand a seat, a phase and the seat to
move, a log and an outcome.

:class:`StockDeal` holds the parts that were written twice: the protocol's
``to_move``/``is_over``/``outcome``/``is_legal``, the views' common fields and their
seat check, the copy's lists, the snapshot's common fields and their loading, and the
deal a seat's view is a view of. Each game
keeps its own rules: ``_check``, ``apply``, its view's and snapshot's own fields, and
``_state`` (the fields a snapshot and a view share).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self

from . import snapshot
from .actions import Action, ActionTable
from .cards import Card
from .errors import IllegalActionError, InvalidActionError
from .records import Record
from .words import gettext

if TYPE_CHECKING:
    from .from_view import Hidden
    from .protocol import Outcome
    from .rules import Rules


class StockDeal(snapshot.SnapshotEquality, snapshot.SnapshotHistory):
    """A deal of a game played from a pack and a buried stock (Tonk's and Tunk's)."""

    GAME: ClassVar[str]  # the game's name in a refusal ("not a Tonk action")
    NOTATION: ClassVar[ActionTable]  # the game's actions, to decode a snapshot's history
    OVER_LAW: ClassVar[str]  # the law a move after the deal's end is refused under
    TURN_LAW: ClassVar[str]  # the law a move out of turn is refused under
    VIEW_PHASES: ClassVar[tuple[str, ...]]  # the phases a deal is rebuilt from a view in
    carry_in = 0

    rules: Rules
    players: int
    dealer: int
    seed: int | None
    pack_order: tuple[Card, ...]
    version: int
    hands: list[list[Card]]
    stock: list[Card]  # top last
    pack: list[Card]  # top last, for pop()
    plucked: Card | None
    phase: str
    turn: int
    log: list[Record]
    _outcome: Outcome | None
    _legal_v: int  # the version _legal was listed at
    _legal: list[Action]

    # ------------------------------------------------------------ protocol

    def to_move(self) -> int | None:
        return None if self.phase == "over" else self.turn

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn or self.phase == "over":
            return []
        if self._legal_v != self.version:  # listed once a position
            self._legal, self._legal_v = self._list_legal(seat), self.version
        return list(self._legal)

    def _list_legal(self, seat: int) -> list[Action]:
        """The actions open to ``seat``, whose turn it is in a deal not over."""
        raise NotImplementedError

    def _check(self, a: Action) -> Action:
        """``a`` as it will be applied, or the reason (with its law) it may not be: an
        action of the game, in a deal not over (:attr:`OVER_LAW`), by the seat whose turn
        it is (:attr:`TURN_LAW`), then the game's own checks (:meth:`_check_move`)."""
        if not isinstance(a, Action) or a.type not in self.NOTATION.types:
            raise InvalidActionError(f"not a {self.GAME} action: {a!r}")
        if self.phase == "over":
            raise IllegalActionError(gettext("the deal is over"), law=self.OVER_LAW)
        if a.seat != self.turn:
            raise IllegalActionError(
                gettext("it is seat %(seat)s's turn, not seat %(seat2)s's")
                % {"seat": self.turn, "seat2": a.seat},
                law=self.TURN_LAW,
            )
        return self._check_move(a)

    def _check_move(self, a: Action) -> Action:
        """The game's own checks of an action of its, by the seat to move."""
        raise NotImplementedError

    # ------------------------------------------------------------ views

    def player_view(self, seat: int) -> dict[str, Any]:
        if not (isinstance(seat, int) and 0 <= seat < self.players) or isinstance(seat, bool):
            raise InvalidActionError(f"bad seat {seat!r}")
        return self._view(seat)

    def spectator_view(self) -> dict[str, Any]:
        return self._view(None)

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game's view: :meth:`_table_view`, its own fields, :meth:`_view_end`."""
        raise NotImplementedError

    def _table_view(self, seat: int | None) -> dict[str, Any]:
        """The fields every view opens with: the game, the seats, the seat's own hand and
        the others' counts, the pack's count and the stock's top card."""
        return {
            "variant": self.rules.variant,
            "options": dict(self.rules.options),
            "players": self.players,
            "seat": seat,
            "dealer": self.dealer,
            "version": self.version,
            "to_move": self.to_move(),
            "phase": self.phase,
            "hand": [] if seat is None else [c.code for c in self.hands[seat]],
            "hand_counts": [len(h) for h in self.hands],
            "pack_count": len(self.pack),
            "stock": [c.code for c in self.stock[-1:]],  # the top card only
            "stock_count": len(self.stock),
            "stock_mode": "buried",
        }

    def _view_end(self, seat: int | None) -> dict[str, Any]:
        """The fields every view ends with: the log as the seat sees it, the outcome."""
        out = self._outcome
        return {
            "log": self.log_view.of(self.log, seat),
            "outcome": None if out is None else out.to_json(),
        }

    # ------------------------------------------------------------ copies and snapshots

    def copy(self) -> Self:
        """A copy to play on: the lists a move changes are its own (the game's
        :meth:`_copy_own` copies its others); the log's view is shared."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.stock, new.pack, new.log = list(self.stock), list(self.pack), list(self.log)
        self._copy_own(new)
        self._copy_history(new)
        return new

    def _copy_own(self, new: Self) -> None:
        """Copy into ``new`` the game's own lists a move changes."""

    def _stock_json(self) -> dict[str, Any]:
        """The snapshot's common fields (the game adds its own)."""
        return self.snapshot_header() | {
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in self.stock],
            "pack": [c.code for c in self.pack],  # top last
            "plucked": None if self.plucked is None else self.plucked.code,
            "phase": self.phase,
            "turn": self.turn,
            "log": [r.to_row() for r in self.log],
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }

    def _read_own(self, data: dict[str, Any]) -> None:
        """The game's fields: the common ones read here, the game's own
        (:meth:`_public_from_json`, :meth:`_own_from_json`) given to its ``_state``."""
        cls = type(self)
        self._state(
            hands=[[snapshot.card(c) for c in h] for h in data["hands"]],
            stock=[snapshot.card(c) for c in data["stock"]],
            pack=[snapshot.card(c) for c in data["pack"]],
            public=cls._public_from_json(data),
            **cls._own_from_json(data),
        )
        self.log = [Record.from_row(e) for e in data["log"]]
        self._outcome = snapshot.outcome_from_json(data["outcome"])

    @classmethod
    def _public_from_json(cls, data: dict[str, Any]) -> Mapping[str, Any]:
        """The snapshot's fields as a view's public part names them (the game's
        ``_state`` reads them so)."""
        return data

    @classmethod
    def _own_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        """The game's own ``_state`` fields from a snapshot, where its public part does
        not give them (Tonk's spreads)."""
        return {}

    def _fits(self, players: int) -> bool:
        """Whether the loaded fields are the snapshot's ``players`` seats' each."""
        return len(self.hands) == players

    # The fields a snapshot and a view share (the view's public part), set by the game:
    # ``_state(*, hands, stock, pack, public, **own)``.
    _state: Callable[..., None]

    @classmethod
    def from_view(cls, view: Mapping[str, Any], hidden: Hidden) -> Self:
        """A deal that ``view`` (a seat's, during one of :attr:`VIEW_PHASES`) is a view
        of, the other hands, the pack and the stock under its top card as ``hidden`` gives
        them (:mod:`.from_view`)."""
        from .from_view import ViewMismatch, hands_of
        from .rules import make_rules

        if view.get("phase") not in cls.VIEW_PHASES or view.get("seat") is None:
            raise ViewMismatch(
                f"a state is built from a seat's view during play, not {view.get('phase')!r}"
            )
        new = cls.__new__(cls)
        new.rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
        new.players = n = int(view["players"])
        new.dealer = int(view["dealer"])
        new.seed, new.pack_order = None, ()
        new._init_history()
        new.version = int(view["version"])
        hands = hands_of(view, hidden, n, int(view["seat"]))
        for s, h in hands.items():
            if len(h) != int(view["hand_counts"][s]):
                raise ViewMismatch(f"seat {s} holds {view['hand_counts'][s]} cards, not {len(h)}")
        pack = list(hidden.pack)[::-1]
        if len(pack) != int(view["pack_count"]):
            raise ViewMismatch(f"the pack holds {view['pack_count']} cards, not {len(pack)}")
        top = [Card.from_code(c) for c in view["stock"]]
        stock = list(hidden.stock) if hidden.stock else top
        if len(stock) != int(view["stock_count"]) or stock[-1:] != top:
            raise ViewMismatch("the stock does not match the view's")
        new._state(
            hands=[hands.get(s, []) for s in range(n)], stock=stock, pack=pack,
            public=dict(view) | {"turn": view["to_move"]}, **cls._own_from_view(view),
        )  # fmt: skip
        every = [c for h in new.hands for c in h] + stock + pack + new._tabled_cards()
        if Counter(every) != Counter(new.rules.spec.pack(new.rules)):
            raise ViewMismatch("the cards of the view and the hidden ones are not the deal's pack")
        new.log, new._outcome = [], None
        return new

    @classmethod
    def _own_from_view(cls, view: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own ``_state`` fields from a view, where its public part does not
        give them (Tonk's spreads)."""
        return {}

    def _tabled_cards(self) -> list[Card]:
        """The cards on the table that belong to no hand, pack or stock (Tonk's spreads),
        counted when a deal is rebuilt from a view."""
        return []
