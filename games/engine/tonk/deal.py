"""One deal of Tonk (T1–T12 and the options; our settled points TO1–TO14).

Phases: ``call`` (T4, TO5: every player, in turn from the dealer's left, calls Tonk or
lets it go; a hand that cannot call has only the second; the calls are resolved together
when the round is over, and until then nobody's answer is shown), ``draw`` (the
start of a turn: drop, draw from the pack, pluck the stock, or with the pack empty refuse
the stock), ``play`` (spread, hit, discard) and ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import snapshot
from ..actions import Action, is_listed
from ..cards import IN_ORDER, Card
from ..combinations import Combination, Placed, TableCard
from ..errors import IllegalActionError
from ..protocol import Outcome
from ..records import Kind, Record
from ..rules import Rules
from ..spreads import count, hit_spread, hits_for, make_spread, spreads_in
from ..stock import StockDeal
from ..words import LogView, name_of
from ..words import gettext as _
from .actions import TONK_ACTIONS, Call, Discard, DrawPack, Drop, Hit, NoCall, Pluck, Refuse, Spread
from .scoring import settle

if TYPE_CHECKING:
    pass


def hand_size(rules: Rules) -> int:
    """T3: seven each; Five Card Tonk (T-opt-1): five."""
    return 5 if rules.opt("five_card") else 7


def may_call(hand: list[Card], rules: Rules) -> bool:
    """T4: a dealt hand with no card below a jack; in Five Card Tonk one counting 50
    (every card a ten or a court)."""
    low = 10 if rules.opt("five_card") else 11
    for c in hand:  # noqa: SIM110 (a loop: all() over a generator costs more here)
        if c.rank < low:
            return False
    return True


def asks_everyone(rules: Rules) -> bool:
    """TO5 (issue 58): every player is in the call round, answers kept to themselves until
    it is over; False for a deal dealt before, whose rules say ``call_round: courts``."""
    return dict(rules.options).get("call_round", "every") == "every"


class _Settings(NamedTuple):
    """What a deal reads of its rules, read once a rules (a short deal's start asked
    each anew)."""

    size: int
    everyone: bool
    wild: bool
    wait_rule: bool


@lru_cache(maxsize=256)
def _settings(rules: Rules) -> _Settings:
    return _Settings(
        hand_size(rules),
        asks_everyone(rules),
        bool(rules.opt("deuces_wild")),
        bool(rules.opt("wait_rule")),
    )


def _sorted(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=IN_ORDER)


# The actions a legal-action list offers over and over, made once: actions are values
# (frozen), and a short deal's cost was largely making them anew (tests/bench.py).
_BARE: dict[type[Action], tuple[Action, ...]] = {
    cls: tuple(cls(s) for s in range(8)) for cls in (Call, NoCall, Drop, DrawPack, Pluck, Refuse)
}
_DISCARDS: dict[int, Discard] = {}


def _discard(seat: int, card: Card) -> Discard:
    """Seat's discard of ``card`` (made once for each seat and card: one pack holds each
    card once, so the card's ``order`` names it)."""
    key = seat * 64 + card.order
    a = _DISCARDS.get(key)
    if a is None:
        a = _DISCARDS[key] = Discard(seat, card)
    return a


class TonkDeal(StockDeal):
    """A deal of Tonk in play (implements :class:`~games.engine.protocol.DealState`)."""

    GAME, NOTATION, OVER_LAW, TURN_LAW = "Tonk", TONK_ACTIONS, "T8", "T5"
    VIEW_PHASES = ("call", "draw", "play")

    def __init__(
        self, rules: Rules, players: int, dealer: int, pack: list[Card], seed: int | None
    ) -> None:
        self.rules = rules
        self.players = n = players
        self.dealer = dealer
        self.seed = seed
        self.pack_order: tuple[Card, ...] = tuple(pack)
        self.version = 0
        self._init_history()
        settings = _settings(rules)
        self.wild, self.wait_rule, size = settings.wild, settings.wait_rule, settings.size
        # T3: singly, clockwise from the dealer's left: seat s takes every n-th card from
        # its place after the dealer.
        dealt = n * size
        self.hands = [
            sorted(pack[(s - dealer - 1) % n : dealt : n], key=IN_ORDER) for s in range(n)
        ]
        self.stock = [pack[n * size]]  # T3: the next card turned up starts the stock
        self.pack = pack[: n * size : -1]  # the rest but the stock's card, top last, for pop()
        self.spreads: list[Combination] = []
        self.waits = [0] * n  # T-opt-2: turns each player must wait before dropping
        self.plucked: Card | None = None  # TO6: this turn's plucked card
        self.quiet = 0  # TO6: turns with the pack empty and no spread or hit
        self.played = False  # a spread or hit this turn
        self.log: list[Record] = [Record(None, Kind.DEAL, "T3", (self.stock[0].code,), number=size)]
        self._log_view = LogView()
        self._outcome: Outcome | None = None
        # TO5: every player is in the call round, so that being asked tells nobody that a
        # hand may call (issue 58); deals dealt before asked only the hands that could
        # (their rules say call_round "courts": they replay as they were played)
        everyone = settings.everyone
        self.callers = [
            s for s in self._in_turn(dealer) if everyone or may_call(self.hands[s], rules)
        ]
        self.calls: list[int] = []  # who called, of the players asked so far (secret)
        self.asked = 0
        if self.callers:
            self.phase, self.turn = "call", self.callers[0]
        else:
            self.phase, self.turn = "draw", (dealer + 1) % n
        self._legal_v = -1
        self._legal: list[Action] = []

    @property
    def asks_everyone(self) -> bool:
        """Every player is in the call round (:func:`asks_everyone`)."""
        return asks_everyone(self.rules)

    def _in_turn(self, dealer: int) -> list[int]:
        return [(dealer + 1 + i) % self.players for i in range(self.players)]

    # ------------------------------------------------------------ protocol

    def may_drop(self, seat: int) -> bool:
        """T9 at the start of the turn; the Wait Rule (T-opt-2, TO8) may forbid it."""
        return self.phase == "draw" and self.waits[seat] == 0

    def why_no_drop(self, seat: int) -> str | None:
        if self.phase == "draw" and self.waits[seat]:
            k = self.waits[seat]
            if k > 1:
                return _("the Wait Rule: %(count)s more turns before a drop (TO8)") % {"count": k}
            return _("the Wait Rule: %(count)s more turn before a drop (TO8)") % {"count": k}
        return None

    def why_no_discard(self) -> str | None:
        """TO6: this turn's plucked card may not be the discard."""
        if self.phase != "play" or self.plucked is None or len(self.hands[self.turn]) == 1:
            return None
        return _("%(card)s was plucked this turn: discard another card (TO6)") % {
            "card": name_of(self.plucked.code, the=True)
        }

    def _list_legal(self, seat: int) -> list[Action]:
        out: list[Action] = []
        if self.phase == "call":
            out = [_BARE[Call][seat]] if may_call(self.hands[seat], self.rules) else []
            out.append(_BARE[NoCall][seat])
        elif self.phase == "draw":
            if self.waits[seat] == 0:
                out.append(_BARE[Drop][seat])
            if self.pack:
                out.append(_BARE[DrawPack][seat])
            if self.stock:
                out.append(_BARE[Pluck][seat])
            if not self.pack:
                out.append(_BARE[Refuse][seat])
        else:
            hand = self.hands[seat]
            out += [Spread(seat, cards) for cards in spreads_in(hand, wild=self.wild)]
            if self.spreads:
                out += [
                    Hit(seat, sid, p) for sid, p in hits_for(hand, self.spreads, wild=self.wild)
                ]
            barred = self.plucked if len(hand) > 1 else None  # TO6
            out += [_discard(seat, c) for c in hand if c is not barred]
        return out

    def call_options(self, seat: int) -> list[Action]:
        """What ``seat`` may answer in the call round, whoever's turn it is in the engine
        (TO5: answers are kept to themselves and resolved together, so a club table asks
        every player at once): call Tonk (a hand that may, T4) or let it go; nothing once
        the round is over."""
        if self.phase != "call" or not (0 <= seat < self.players):
            return []
        may = may_call(self.hands[seat], self.rules)
        return [*([_BARE[Call][seat]] if may else []), _BARE[NoCall][seat]]

    def _check_move(self, a: Action) -> Action:
        p = self.phase
        if isinstance(a, Call | NoCall):
            if p != "call":
                raise IllegalActionError(
                    _("Tonk is called on the deal only, before play"), law="T4"
                )
            if isinstance(a, Call) and not may_call(self.hands[a.seat], self.rules):
                raise IllegalActionError(
                    _("only a dealt hand with every card a ten or a court calls Tonk")
                    if self.rules.opt("five_card")
                    else _("only a dealt hand with no card below a jack calls Tonk"),
                    law="T4",
                )
            return a
        if p == "call":
            raise IllegalActionError(_("first every player answers the call round"), law="TO5")
        if isinstance(a, Drop | DrawPack | Pluck | Refuse):
            if p != "draw":
                raise IllegalActionError(_("you have drawn this turn already"), law="T5")
            if isinstance(a, Drop) and not self.may_drop(a.seat):
                raise IllegalActionError(
                    self.why_no_drop(a.seat) or _("no drop now"), law="T-opt-2"
                )
            if isinstance(a, DrawPack) and not self.pack:
                raise IllegalActionError(_("the pack is empty"), law="T10")
            if isinstance(a, Pluck) and not self.stock:
                raise IllegalActionError(_("the stock is empty"), law="T5")
            if isinstance(a, Refuse) and self.pack:
                raise IllegalActionError(
                    _("the stock is refused only when the pack is empty"), law="TO13"
                )
            return a
        if p != "play":
            raise IllegalActionError(_("draw first: from the pack or the stock"), law="T5")
        hand = self.hands[a.seat]
        if isinstance(a, Discard):
            if a.card not in hand:
                raise IllegalActionError(
                    _("you do not hold %(card)s") % {"card": a.card.code}, law="T5"
                )
            if a.card == self.plucked and len(hand) > 1:
                raise IllegalActionError(
                    _("%(card)s was plucked this turn: it may not be the discard")
                    % {"card": a.card.code},
                    law="TO6",
                )
            return a
        if isinstance(a, Spread):
            self._hold(hand, a.cards)
            make_spread(a.cards, wild=self.wild, owner=a.seat, sid=len(self.spreads))
            return a
        assert isinstance(a, Hit)
        if not 0 <= a.spread < len(self.spreads):
            raise IllegalActionError(
                _("there is no spread %(spread)s") % {"spread": a.spread}, law="T7"
            )
        self._hold(hand, (a.card,))
        hit_spread(self.spreads[a.spread], a.card, wild=self.wild)
        return a

    @staticmethod
    def _hold(hand: list[Card], cards: tuple[Placed, ...]) -> None:
        left = list(hand)
        for p in cards:
            if p.card not in left:
                raise IllegalActionError(
                    _("you do not hold %(card)s") % {"card": p.card.code}, law="T6"
                )
            left.remove(p.card)

    def apply(self, action: Action) -> None:
        # An action taken from this turn's legal list (the same object: the computer
        # players and the random self-play pick from it) was checked when the list was
        # made; any other is checked here.
        if self._legal_v != self.version or not is_listed(self._legal, action):
            self._check(action)
        a = action
        seat = a.seat
        t = type(a)  # by frequency: a short deal is mostly draws, discards and a drop
        if t is DrawPack:
            c = self.pack.pop()
            self._take(seat, c)
            self.log.append(Record(seat, Kind.DRAW_PACK, "T5", (c.code,), secret=True))
        elif t is Discard:
            assert isinstance(a, Discard)
            hand = self.hands[seat]
            hand.remove(a.card)
            self.stock.append(a.card)
            self.log.append(Record(seat, Kind.DISCARD, "T5", (a.card.code,)))
            if not hand:
                self.log.append(Record(seat, Kind.OUT, "T8", number=1))
                self._finish("discard-out", seat)
            else:
                self._next_turn(seat)
        elif t is Drop:
            self.log.append(Record(seat, Kind.DROP, "T9", number=count(self.hands[seat])))
            self._finish("drop", seat)
        elif t is Pluck:
            c = self.stock.pop()
            self._take(seat, c)
            self.plucked = c
            self.log.append(Record(seat, Kind.PLUCK, "T5", (c.code,)))
        elif t is Call or t is NoCall:
            self._answer(seat, t is Call)
        elif t is Refuse:
            self.log.append(Record(seat, Kind.REFUSE_STOCK, "T10"))
            self._finish("exhausted", None)
        elif t is Spread:
            assert isinstance(a, Spread)
            s = make_spread(a.cards, wild=self.wild, owner=seat, sid=len(self.spreads))
            self.spreads.append(s)
            for p in a.cards:
                self.hands[seat].remove(p.card)
            self.played = True
            if self.wait_rule:
                self.waits[seat] += 1  # TO8: no drop in his next turn
            codes = tuple(t.code for t in (Placed(x.card, x.named) for x in s.cards))
            self.log.append(Record(seat, Kind.SPREAD, "T6", codes, s.id))
            self._after_play(seat)
        else:
            assert isinstance(a, Hit)
            s = self.spreads[a.spread]
            self.spreads[a.spread] = hit_spread(s, a.card, wild=self.wild)
            self.hands[seat].remove(a.card.card)
            self.played = True
            if self.wait_rule and s.owner != seat and self.waits[s.owner]:
                self.waits[s.owner] += 1  # TO14: a hit on his spreads while he waits
            self.log.append(Record(seat, Kind.HIT, "T7", (a.card.code,), a.spread))
            self._after_play(seat)
        self._history.append(a)
        self.version += 1

    def _answer(self, seat: int, called: bool) -> None:
        """TO5: an answer is kept to itself until every player has given his; then the
        calls are shown and resolved together."""
        everyone = self.asks_everyone
        if not everyone:  # a deal dealt before issue 58: each answer logged as given
            self.log.append(Record(seat, Kind.TONK_CALL if called else Kind.NO_CALL, "T4"))
        if called:
            self.calls.append(seat)
        self.asked += 1
        if self.asked < len(self.callers):
            self.turn = self.callers[self.asked]
            return
        if everyone:
            for s in self.calls:
                self.log.append(Record(s, Kind.TONK_CALL, "T4"))
            if not self.calls:
                self.log.append(Record(None, Kind.NO_CALL, "TO5"))
        if len(self.calls) == 1:
            self._finish("tonk", self.calls[0])
        elif self.calls:
            self.log.append(Record(None, Kind.DRAWN, "T4", number=len(self.calls)))
            self._finish("drawn", None)
        else:
            self.phase, self.turn = "draw", (self.dealer + 1) % self.players

    def _take(self, seat: int, c: Card) -> None:
        hand = self.hands[seat]
        hand.append(c)
        hand.sort(key=IN_ORDER)
        if self.wait_rule and self.waits[seat]:
            self.waits[seat] -= 1  # TO14: a turn waited
        self.phase = "play"

    def _after_play(self, seat: int) -> None:
        if not self.hands[seat]:  # T8: Tonking out, no discard
            self.log.append(Record(seat, Kind.OUT, "T8", number=2))
            self._finish("out", seat)

    def _next_turn(self, seat: int) -> None:
        if not self.pack and self.plucked is not None:  # a turn begun with the pack empty
            self.quiet = 0 if self.played else self.quiet + 1
            if self.quiet >= self.players:  # TO6: a full round, no spread or hit
                self.log.append(Record(None, Kind.EXHAUSTED, "TO6"))
                self._finish("exhausted", None)
                return
        self.played, self.plucked = False, None
        self.turn = (seat + 1) % self.players
        self.phase = "draw"

    def _finish(self, kind: str, seat: int | None) -> None:
        self.phase = "over"
        self._outcome = settle(kind, seat, self.hands, self.players)  # settle keeps copies

    # ------------------------------------------------------------ views

    def _view(self, seat: int | None) -> dict[str, Any]:
        mover = self.to_move()
        return (
            self._table_view(seat)
            | {
                "combinations": [s.to_json() for s in self.spreads],
                "waits": list(self.waits),
                "quiet": self.quiet,
                "played": self.played,
                "plucked": None if self.plucked is None else self.plucked.code,
                "callers": list(self.callers),
                # TO5: the calls are shown when the round is over, resolved together
                "calls": [] if self.phase == "call" and self.asks_everyone else list(self.calls),
                "asked": self.asked,
                "no_drop": None if mover is None else self.why_no_drop(mover),
                "no_discard": self.why_no_discard(),
            }
            | self._view_end(seat)
        )

    # ------------------------------------------------------------ copies and snapshots

    def _copy_own(self, new: TonkDeal) -> None:
        new.spreads, new.waits, new.calls = list(self.spreads), list(self.waits), list(self.calls)

    def to_json(self) -> dict[str, Any]:
        """The deal as a versioned JSON snapshot; ``TonkDeal.from_json(d.to_json()) == d``."""
        return self._stock_json() | {
            "spreads": [s.to_json() for s in self.spreads],
            "waits": list(self.waits),
            "quiet": self.quiet,
            "played": self.played,
            "callers": list(self.callers),
            "calls": list(self.calls),
            "asked": self.asked,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, what: str = "a Tonk deal") -> TonkDeal:
        return cls.read_snapshot(data, what, cls.NOTATION)

    @classmethod
    def _own_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        return cls._own_from_view({"combinations": data["spreads"]})

    def _state(
        self,
        *,
        hands: list[list[Card]],
        stock: list[Card],
        pack: list[Card],
        spreads: list[Combination],
        public: Mapping[str, Any],
    ) -> None:
        """The fields a snapshot and a view share (the view's public part)."""
        self.wild = bool(self.rules.opt("deuces_wild"))
        self.wait_rule = bool(self.rules.opt("wait_rule"))
        self.hands = [_sorted(h) for h in hands]
        self.stock, self.pack, self.spreads = stock, pack, spreads
        self.waits = [int(w) for w in public["waits"]]
        plucked = public["plucked"]
        self.plucked = None if plucked is None else snapshot.card(plucked)
        self.quiet = int(public["quiet"])
        self.played = bool(public["played"])
        self.callers = [int(s) for s in public["callers"]]
        self.calls = [int(s) for s in public["calls"]]
        self.asked = int(public["asked"])
        self.phase = str(public["phase"])
        self.turn = int(public["turn"])
        self._log_view = LogView()
        self._legal_v, self._legal = -1, []

    @classmethod
    def _own_from_view(cls, view: Mapping[str, Any]) -> dict[str, Any]:
        from ..from_view import combination_from_view

        return {"spreads": [combination_from_view(s) for s in view["combinations"]]}

    def _tabled_cards(self) -> list[Card]:
        return [t.card for s in self.spreads for t in s.cards]

    def __repr__(self) -> str:
        return f"<TonkDeal v{self.version} {self.phase} seat {self.to_move()}>"


__all__ = ["TableCard", "TonkDeal", "hand_size", "may_call"]
