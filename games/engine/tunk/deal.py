"""One deal of Tunk (K1-K11; our settled points KO1-KO11).

Phases: ``draw`` (the start of a turn: the pack or the stock, K5), ``discard`` (a
discard, or the Tunk call with its discard, KO9) and ``over``. The Tunk ends the play:
every other player still in has his last turn at once, from the Tunker's left (KO4), and
his turn holds no choice he would want (KO5: the engine lays down his lowest grouping;
laying down and laying off only lower his count), so the engine plays it and logs it.
Players who have left the game (K10) hold no cards and are skipped (KO11).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import snapshot
from ..actions import Action, is_listed
from ..cards import IN_ORDER, Card
from ..combinations import Combination, Placed
from ..errors import IllegalActionError, InvalidActionError
from ..protocol import Outcome
from ..records import Kind, Record
from ..rules import Rules
from ..stock import StockDeal
from ..words import LogView, name_of
from ..words import gettext as _
from .actions import TUNK_ACTIONS, Discard, DrawPack, Pluck, Tunk
from .melds import Groupings, last_turn, tunk_discards, tunker_melds
from .scoring import OUT_AT, settle

if TYPE_CHECKING:
    pass

HAND = 7  # K3
LIMIT = 5  # K7: the most a Tunker's unmatched cards may count


# The actions a legal-action list offers over and over, made once (actions are frozen
# values; one pack holds each card once, so a card's ``order`` names it), as Tonk does.
_DRAWS = tuple(DrawPack(s) for s in range(8))
_PLUCKS = tuple(Pluck(s) for s in range(8))
_DISCARDS: dict[int, Discard] = {}
_TUNKS: dict[int, Tunk] = {}


def _discard(seat: int, card: Card) -> Discard:
    a = _DISCARDS.get(key := seat * 64 + card.order)
    if a is None:
        a = _DISCARDS[key] = Discard(seat, card)
    return a


def _discards(seat: int, hand: list[Card], barred: Card | None) -> list[Action]:
    """Seat's discards of every card of ``hand`` but ``barred``, the made ones read first."""
    get, base = _DISCARDS.get, seat * 64
    return [get(base + c.order) or _discard(seat, c) for c in hand if c is not barred]


def _tunk(seat: int, card: Card) -> Tunk:
    a = _TUNKS.get(key := seat * 64 + card.order)
    if a is None:
        a = _TUNKS[key] = Tunk(seat, card)
    return a


def in_game(scores: Sequence[int]) -> tuple[int, ...]:
    """The seats still in the game (K10: a score of 100 or more has left it)."""
    return tuple(s for s, v in enumerate(scores) if v < OUT_AT)


class TunkDeal(StockDeal):
    """A deal of Tunk in play (implements :class:`~games.engine.protocol.DealState`);
    ``scores_in``: each seat's game score before it (K9, K10)."""

    GAME, NOTATION, OVER_LAW, TURN_LAW = "Tunk", TUNK_ACTIONS, "K9", "K5"
    VIEW_PHASES = ("draw", "discard")

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        pack: list[Card],
        seed: int | None,
        scores_in: Sequence[int] = (),
    ) -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.seed = seed
        self.pack_order: tuple[Card, ...] = tuple(pack)
        self.version = 0
        self._init_history()
        self.scores_in = tuple(scores_in) or (0,) * players
        self.active = in_game(self.scores_in)
        if len(self.active) < 2:
            raise InvalidActionError("a deal of Tunk needs two players still in the game (K10)")
        if dealer not in self.active:  # KO7: the deal passes to the next player still in
            self.dealer = dealer = self._in_turn(dealer)[0]
        n = len(self.active)
        order = self._in_turn(dealer)  # K3: singly, clockwise from the dealer's left
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        for i, s in enumerate(order):
            self.hands[s] = sorted(pack[i : n * HAND : n], key=IN_ORDER)
        self.stock = [pack[n * HAND]]  # K3: the next card turned up starts the stock
        self.pack = list(pack[n * HAND + 1 :])[::-1]  # top of the pack last, for pop()
        self.plucked: Card | None = None  # K5: this turn's card from the stock
        self.tunker: int | None = None
        self.shown: list[list[list[str]]] = [[] for _ in range(players)]  # melds laid down
        self.melds: list[Combination] = []  # the Tunker's, with what was laid off on them
        self.log: list[Record] = [Record(None, Kind.DEAL, "K3", (self.stock[0].code,), number=HAND)]
        self._log_view = LogView()
        self._outcome: Outcome | None = None
        self.phase, self.turn = "draw", order[0]
        self._legal_v = -1
        self._legal: list[Action] = []
        self._tunks: tuple[int, list[Card]] | None = None

    def _next_in(self, seat: int) -> int:
        """The next seat still in, clockwise from ``seat`` (``_in_turn(seat)[0]``)."""
        for s in self.active:
            if s > seat:
                return s
        return self.active[0]

    def _in_turn(self, seat: int) -> list[int]:
        """The seats still in, clockwise from ``seat``'s left (KO7, KO11)."""
        after = [s for s in self.active if s > seat]
        return after + [s for s in self.active if s <= seat]

    # ------------------------------------------------------------ protocol

    def tunks(self) -> list[Card]:
        """K7, KO3, KO9: the discards this turn after which the seven cards left count
        five or less unmatched (kept for the turn: the legal list and a check share it)."""
        if self._tunks is None or self._tunks[0] != self.version:
            if self.phase != "discard":
                return []
            found = tunk_discards(self.hands[self.turn], self.plucked, LIMIT)
            self._tunks = (self.version, found)
        return self._tunks[1]

    def why_no_discard(self) -> str | None:
        """K5: this turn's card from the stock may not be the discard."""
        if self.phase != "discard" or self.plucked is None:
            return None
        return _("%(card)s was taken from the stock this turn: discard another card (K5)") % {
            "card": name_of(self.plucked.code, the=True)
        }

    def why_no_tunk(self) -> str | None:
        """Why the Tunk is not offered now, in words (the page says it)."""
        if self.phase == "draw":
            return _("Tunk is called after drawing, with the discard (K7)")
        if self.phase != "discard" or self.tunks():
            return None
        g = Groupings(self.hands[self.turn])
        low = min(g.points(c) for c in self.hands[self.turn] if c != self.plucked)
        return _(
            "your best seven cards leave %(low)s unmatched; Tunk needs %(limit)s or less (K7)"
        ) % {
            "low": low,
            "limit": LIMIT,
        }

    def _list_legal(self, seat: int) -> list[Action]:
        out: list[Action] = []
        if self.phase == "draw":
            if self.pack:
                out.append(_DRAWS[seat])
            if self.stock:
                out.append(_PLUCKS[seat])
        else:
            out += _discards(seat, self.hands[seat], self.plucked)
            out += [_tunk(seat, c) for c in self.tunks()]
        return out

    def _check_move(self, a: Action) -> Action:
        if isinstance(a, DrawPack | Pluck):
            if self.phase != "draw":
                raise IllegalActionError(_("you have drawn this turn already"), law="K5")
            if isinstance(a, DrawPack) and not self.pack:
                raise IllegalActionError(_("the pack is empty"), law="K11")
            if isinstance(a, Pluck) and not self.stock:
                raise IllegalActionError(_("the stock is empty"), law="K5")
            return a
        if self.phase != "discard":
            raise IllegalActionError(_("draw first: from the pack or the stock"), law="K5")
        assert isinstance(a, Discard | Tunk)
        if a.card not in self.hands[a.seat]:
            raise IllegalActionError(
                _("you do not hold %(card)s") % {"card": a.card.code}, law="K5"
            )
        if a.card == self.plucked:
            raise IllegalActionError(
                _("%(card)s was taken from the stock this turn: it may not be the discard")
                % {"card": a.card.code},
                law="K5",
            )
        if isinstance(a, Tunk) and a.card not in self.tunks():
            left = Groupings(self.hands[a.seat]).points(a.card)
            raise IllegalActionError(
                _("the seven cards left count %(left)s unmatched: Tunk needs %(limit)s or less")
                % {"left": left, "limit": LIMIT},
                law="K7",
            )
        return a

    def apply(self, action: Action) -> None:
        # An action from this turn's legal list (the same object) was checked with it.
        if self._legal_v != self.version or not is_listed(self._legal, action):
            self._check(action)
        a = action
        seat = a.seat
        hand = self.hands[seat]
        kind = type(a)  # the game's own classes, none subclassed (is: cheaper than isinstance)
        if kind is DrawPack:
            c = self.pack.pop()
            self._take(hand, c)
            self.log.append(Record(seat, Kind.DRAW_PACK, "K5", (c.code,), secret=True))
        elif kind is Pluck:
            c = self.stock.pop()
            self._take(hand, c)
            self.plucked = c
            self.log.append(Record(seat, Kind.PLUCK, "K5", (c.code,)))
        else:
            assert isinstance(a, Discard | Tunk)
            called = kind is Tunk
            g = Groupings(hand).of(a.card) if called else None
            hand.remove(a.card)
            self.stock.append(a.card)
            self.log.append(Record(seat, Kind.DISCARD, "K5", (a.card.code,)))
            if g is not None:
                self._tunk(seat, g.melds, g.points)
            elif len(self.pack) < len(self.active):  # K11, KO6: after each turn
                self.log.append(Record(None, Kind.BREAK, "K11", number=len(self.pack)))
                self._finish(None)
            else:
                self.plucked = None
                self.phase = "draw"
                self.turn = self._next_in(seat)
        self._history.append(a)
        self.version += 1

    def _take(self, hand: list[Card], c: Card) -> None:
        insort(hand, c, key=IN_ORDER)  # the hand kept in order (one pack: no equal cards)
        self.phase = "discard"

    def _tunk(self, seat: int, melds: tuple[tuple[Placed, ...], ...], left: int) -> None:
        """K7, K8: the Tunker shows; every other player has his last turn (KO4)."""
        self.tunker = seat
        self.melds = tunker_melds(seat, melds)
        self.shown[seat] = [[p.code for p in m] for m in melds]
        codes = tuple(p.code for m in melds for p in m)
        self.log.append(Record(seat, Kind.TUNK, "K7", codes, number=left))
        counts = [0] * self.players
        counts[seat] = left
        for s in self._in_turn(seat)[:-1]:
            t = last_turn(self.hands[s], self.melds, lay_off=left > 0)
            self.melds = list(t.tunker_melds)
            self.shown[s] = [[p.code for p in m] for m in t.melds]
            self.log.append(
                Record(
                    s, Kind.SHOW, "K8", tuple(p.code for m in t.melds for p in m), number=t.points
                )
            )
            for sid, p in t.lay_offs:
                self.log.append(Record(s, Kind.LAY_OFF, "K8", (p.code,), sid))
            counts[s] = t.points
        self._finish(tuple(counts))

    def _finish(self, counts: tuple[int, ...] | None) -> None:
        self.phase = "over"
        self._outcome = settle(self.tunker, counts, self.hands, self.active, self.players)

    # ------------------------------------------------------------ views

    def _view(self, seat: int | None) -> dict[str, Any]:
        mine = seat is not None and self.turn == seat and self.phase != "over"
        best = None
        if seat is not None and self.hands[seat] and len(self.hands[seat]) <= HAND:
            best = Groupings(self.hands[seat]).points()  # his own hand: KO5's count
        return (
            self._table_view(seat)
            | {
                "scores": list(self.scores_in),
                "out_at": OUT_AT,
                "active": list(self.active),
                "plucked": None if self.plucked is None else self.plucked.code,
                "tunker": self.tunker,
                "shown": [list(map(list, m)) for m in self.shown],
                "combinations": [m.to_json() for m in self.melds],
                "count": best,
                "no_discard": self.why_no_discard() if mine else None,
                "no_tunk": self.why_no_tunk() if mine else None,
            }
            | self._view_end(seat)
        )

    # ------------------------------------------------------------ copies and snapshots

    def _copy_own(self, new: TunkDeal) -> None:
        new.melds, new.shown = list(self.melds), [list(m) for m in self.shown]

    def to_json(self) -> dict[str, Any]:
        """The deal as a versioned JSON snapshot; ``TunkDeal.from_json(d.to_json()) == d``."""
        return self._stock_json() | {
            "scores_in": list(self.scores_in),
            "tunker": self.tunker,
            "shown": self.shown,
            "melds": [m.to_json() for m in self.melds],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, what: str = "a Tunk deal") -> TunkDeal:
        return cls.read_snapshot(data, what, cls.NOTATION)

    @classmethod
    def _public_from_json(cls, data: dict[str, Any]) -> Mapping[str, Any]:
        return data | {"combinations": data["melds"], "scores": data["scores_in"]}

    def _fits(self, players: int) -> bool:
        return len(self.hands) == players and len(self.scores_in) == players

    def _state(
        self,
        *,
        hands: list[list[Card]],
        stock: list[Card],
        pack: list[Card],
        public: Mapping[str, Any],
    ) -> None:
        """The fields a snapshot and a view share (the view's public part)."""
        from ..from_view import combination_from_view

        self.hands = [sorted(h, key=IN_ORDER) for h in hands]
        self.stock, self.pack = stock, pack
        self.scores_in = tuple(int(v) for v in public["scores"])
        self.active = in_game(self.scores_in)
        plucked = public["plucked"]
        self.plucked = None if plucked is None else snapshot.card(plucked)
        self.tunker = None if public["tunker"] is None else int(public["tunker"])
        self.shown = [[[str(c) for c in m] for m in s] for s in public["shown"]]
        self.melds = [combination_from_view(m) for m in public["combinations"]]
        self.phase = str(public["phase"])
        self.turn = int(public["turn"])
        self._log_view = LogView()
        self._legal_v, self._legal, self._tunks = -1, [], None

    def __repr__(self) -> str:
        return f"<TunkDeal v{self.version} {self.phase} seat {self.to_move()}>"


__all__ = ["HAND", "LIMIT", "TunkDeal", "in_game"]
