"""One deal of the rummy variants: ``foster`` (L1-L25), ``foster-three``, ``colonel``.

One class, :class:`RummyDeal`, parametrised by a :class:`Table` (the variant as data).
Cards are kept as ids (see :mod:`..combinations`) for speed; the public API speaks
:class:`~..cards.Card` and :class:`~..actions.Action`.

>>> from ..deal import new_deal
>>> from ..rules import make_rules
>>> d = new_deal(make_rules("foster"), 5, 0, seed=1)
>>> d.to_move(), d.phase, [len(h) for h in d.hands]
(1, 'draw', [10, 10, 10, 10, 10])
>>> [a.text for a in d.legal_actions(1)]
['1 draw pack', '1 draw stock']
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..cards import Card
from ..combinations import CARDS, Combination, TableCard, build, cid_of, cids_of
from ..errors import IllegalActionError, InvalidActionError
from ..protocol import PhasedDeal
from ..records import Kind, Record
from ..rules import Rules
from ..words import LogView
from ..words import gettext as _
from . import generate
from .from_view import RummyFromView
from .moves import (
    Accept,
    Add,
    Challenge,
    Decline,
    Discard,
    Draw,
    Layout,
    MoveJoker,
    TakeBack,
)
from .parts import (
    DEAL_FIELDS,
    DISCARDS,
    moved_combination,
    simple_action,
    table_for,
)
from .validate import as_named, canonical

if TYPE_CHECKING:
    pass


_CARD_IDS = range(53)  # every card id, the joker's last
# The bare actions of each seat, made once (a turn lists them often; as DISCARDS).
_SEATS = range(16)
_ACCEPT = [Accept(seat) for seat in _SEATS]
_DECLINE = [Decline(seat) for seat in _SEATS]
_CHALLENGE = [Challenge(seat) for seat in _SEATS]
_DRAW_PACK = [Draw(seat, "pack") for seat in _SEATS]
_DRAW_STOCK = [Draw(seat, "stock") for seat in _SEATS]
_TAKE_BACK = [TakeBack(seat) for seat in _SEATS]


class RummyDeal(RummyFromView, PhasedDeal):
    """A deal in play (implements :class:`~..protocol.DealState`)."""

    def __init__(
        self, rules: Rules, players: int, dealer: int, pack: list[Card], seed: int | None,
        ids: list[int] | None = None,
    ) -> None:  # fmt: skip
        """``ids``: the pack's card ids, where the caller has them (else read from ``pack``)."""
        self.rules = rules
        self.table = table_for(rules)
        self.players = players
        self.dealer = dealer
        self.seed = seed
        self.pack_order = tuple(pack)
        self.version = 0
        n, t = players, self.table
        if ids is None:
            ids = cids_of(pack)
        self._cnt = [[0] * 53 for _ in range(n)]
        # L8: one at a time from the dealer's left; the next card starts the stock.
        for i in range(n * t.hand_size):
            self._cnt[(dealer + 1 + i) % n][ids[i]] += 1
        self._size = [t.hand_size] * n
        self._stock = [ids[n * t.hand_size]]
        self._pack = ids[n * t.hand_size + 1 :][::-1]  # top of the pack is the end
        self._combos = []
        self._turn = (dealer + 1) % n  # L11: the player on the dealer's left begins
        self._phase = "draw"
        self._shown = 0  # cards put on the table this turn
        self._snapshot = None
        self._has_shown = [False] * n
        self._first_ratter = None
        self._turnovers = 0
        self._challenged = False
        self._pack_out = False
        self._log = [
            Record(None, Kind.DEAL, "L8", (CARDS[self._stock[0]].code,), number=t.hand_size)
        ]
        self._log_view = LogView()
        self._init_history()
        self._outcome = None
        self._legal_key = -1
        self._legal = []
        self._legal_ids = frozenset()
        self._legal_frozen = None

    # -- reading the state -------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def challenged(self) -> bool:
        """Whether this turn's player has been challenged (Colonel: one challenge a turn)."""
        return self._challenged

    @property
    def hands(self) -> list[list[Card]]:
        return [self._cards(seat) for seat in range(self.players)]

    def hand(self, seat: int) -> list[Card]:
        """One seat's hand, in order (``hands`` builds every seat's)."""
        return self._cards(seat)

    def _cards(self, seat: int) -> list[Card]:
        out: list[Card] = []
        for cid, k in enumerate(self._cnt[seat]):
            out.extend([CARDS[cid]] * k)
        return sorted(out, key=lambda c: (c.suit is None, c.suit and c.suit.value, c.rank))

    @property
    def combinations(self) -> list[Combination]:
        return list(self._combos)

    @property
    def pack(self) -> list[Card]:
        """The pack, top first (secret: never put it in a view)."""
        return [CARDS[c] for c in reversed(self._pack)]

    @property
    def stock(self) -> list[Card]:
        """The stock, top last."""
        return [CARDS[c] for c in self._stock]

    @property
    def turnovers(self) -> int:
        return self._turnovers

    @property
    def log(self) -> list[Record]:
        """The deal's log (:mod:`..records`), whole: redact it per viewer (``seen_by``)."""
        return list(self._log)

    def to_move(self) -> int | None:
        if self._phase == "over":
            return None
        if self._phase == "challenge":
            return (self._turn + 1) % self.players
        return self._turn

    # -- legal actions -----------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may make now, canonical and without duplicates."""
        if seat != self.to_move():
            return []
        return list(self._listing(seat))

    def _listing(self, seat: int) -> list[Action]:
        """The cached list of ``seat``'s legal actions (``seat`` is to move), made anew
        when the deal has moved on; the caller must not change it."""
        if self._legal_key != self.version:
            self._legal = self._generate(seat)
            self._legal_ids = frozenset(map(id, self._legal))
            self._legal_frozen = None
            self._legal_key = self.version
        return self._legal

    def _listed(self, action: Action) -> bool:
        """``action`` is one of the listed action objects itself (identity, not equality).
        Its id is enough: the listing holds every listed object alive, so no other live
        object, ``action`` included, can have one of their ids unless it is that object."""
        return id(action) in self._legal_ids

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the legality caches: a loaded deal lists and checks anew."""
        state = self.__dict__.copy()
        state.update(_legal_key=-1, _legal=[], _legal_ids=frozenset(), _legal_frozen=None)
        return state

    @property
    def _legal_set(self) -> frozenset[Action]:
        """The listed actions as a set (built only on the slow path: hashing is dear)."""
        if self._legal_frozen is None:
            self._legal_frozen = frozenset(self._legal)
        return self._legal_frozen

    def _generate(self, seat: int) -> list[Action]:
        t = self.table
        out: list[Action] = []
        if self._phase == "challenge":
            return [_ACCEPT[seat], _DECLINE[seat]]
        if self._phase == "draw":
            if t.challenge and not self._challenged:
                out.append(_CHALLENGE[seat])
            if self._pack:
                out.append(_DRAW_PACK[seat])
            if self._stock:
                if t.stock == "exposed":
                    for cid in dict.fromkeys(self._stock):
                        out.append(
                            simple_action(
                                ("ds", seat, cid), lambda c=cid: Draw(seat, "stock", CARDS[c])
                            )
                        )
                else:
                    out.append(_DRAW_STOCK[seat])
            return out
        shows = self._show_moves(seat)
        if self._show_can_strand(seat):
            # Dalton's "none" and "six": offer only shows after which the turn can still
            # end without a take-back (issue 38: no dead end).
            memo: dict[Any, bool] = {}
            shows = [m for m in shows if self._after(seat, m)._turn_can_end(seat, memo)]
        out.extend(shows)
        cnt = self._cnt[seat]
        if self._discard_allowed(seat):
            out.extend(map(DISCARDS[seat].__getitem__, compress(_CARD_IDS, cnt)))
        if self._shown:
            out.append(_TAKE_BACK[seat])
        return out

    def _show_moves(self, seat: int) -> list[Action]:
        """Layouts, additions and joker moves (L15, L18), before ratting is considered."""
        cnt, t = self._cnt[seat], self.table
        out: list[Action] = list(generate.layouts(seat, cnt, self._size[seat], t.wild, t.order))
        out.extend(generate.additions(seat, cnt, t.wild, self._combos, t.order))
        out.extend(generate.joker_moves(seat, cnt, t.wild, self._combos))
        return out

    def _show_can_strand(self, seat: int) -> bool:
        """Whether a show could leave ``seat`` unable to discard (Dalton's ratting)."""
        rat = self.table.ratting
        return rat == "none" or (rat == "six" and not self._has_shown[seat])

    def _after(self, seat: int, move: Action) -> RummyDeal:
        d = self.copy()
        d._show(seat, move)
        return d

    def _turn_can_end(self, seat: int, memo: dict[Any, bool]) -> bool:
        """Some further shows, none taken back, reach a discard or going out."""
        if self._phase == "over" or self._discard_allowed(seat):
            return True
        key = (tuple(self._cnt[seat]), tuple(self._combos))
        if key not in memo:
            memo[key] = False  # a position met again on its own path does not end the turn
            memo[key] = any(
                self._after(seat, m)._turn_can_end(seat, memo) for m in self._show_moves(seat)
            )
        return memo[key]

    def show_strands(self, seat: int, move: Action) -> bool:
        """``move`` (a legal show) would leave no way to end the turn but a take-back."""
        return self._show_can_strand(seat) and not self._after(seat, move)._turn_can_end(seat, {})

    def discard_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not discard now (Dalton's ratting), or None if it may."""
        if self._discard_allowed(seat):
            return None
        if self.table.ratting == "none":
            return _("no ratting (Dalton): lay out the whole hand at once, or take back")
        short = 6 - self._shown
        if short > 1:
            return _(
                "a first show is at least six cards (Dalton): show %(count)s more cards, or take back"
            ) % {"count": short}
        return _(
            "a first show is at least six cards (Dalton): show %(count)s more card, or take back"
        ) % {"count": short}

    def _discard_allowed(self, seat: int) -> bool:
        """Ratting (Dalton) is checked when the turn ends, at the discard."""
        if self._shown == 0 or self._size[seat] == 1:
            return True
        if self.table.ratting == "none":
            return False
        if self.table.ratting == "six":
            return self._has_shown[seat] or self._shown >= 6
        return True

    def is_legal(self, action: Action) -> bool:
        seat = self.to_move()
        if seat is None or action.seat != seat:
            return False
        self._listing(seat)
        if self._listed(action) or action in self._legal_set:
            return True
        try:
            return canonical(self, action) in self._legal_set
        except (InvalidActionError, IllegalActionError):
            return False

    def namings(self, action: Action) -> list[Action]:
        """Every name the holder may give the wild cards of a legal ``action`` (L17)."""
        from .validate import namings

        return namings(self, action)

    # -- applying ----------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action; otherwise raise and change nothing."""
        if self._legal_key == self.version and id(action) in self._legal_ids:
            seat: int | None = action.seat  # listed now, so for the seat to move (_listed)
        else:
            seat = self.to_move()
            if seat is not None and action.seat == seat:
                self._listing(seat)
            if seat is None or action.seat != seat or not self._listed(action):
                held = action
                action = canonical(self, action)  # raises with the reason and the law
                if action not in self._legal_set:
                    raise IllegalActionError(
                        _("%(action)s is not allowed now") % {"action": action.text}, law="L15"
                    )
                action = as_named(self, action, held)  # L17: a joker as its holder named it
        assert seat is not None
        self.version += 1
        self._history.append(action)
        kind = type(action)
        if kind is Draw:
            self._draw(seat, action)  # type: ignore[arg-type]
        elif kind is Discard:
            self._discard(seat, action)  # type: ignore[arg-type]
        elif kind is Layout or kind is Add or kind is MoveJoker:
            self._show(seat, action)
        elif kind is TakeBack:
            assert self._snapshot is not None
            cnt, size, combos = self._snapshot
            # copies: a copy() of this deal may share the snapshot
            self._cnt[seat], self._size[seat], self._combos = cnt[:], size, combos[:]
            self._snapshot, self._shown = None, 0
            self._log.append(Record(seat, Kind.TAKE_BACK, "L20"))
        elif kind is Challenge:
            self._challenged = True
            self._phase = "challenge"
            self._log.append(Record(seat, Kind.CHALLENGE, "Colonel"))
        elif kind is Accept:
            self._log.append(Record(seat, Kind.ACCEPT, "Colonel"))
            self._finish("challenge", None)
        elif kind is Decline:
            self._phase = "draw"
            self._log.append(Record(seat, Kind.DECLINE, "Colonel"))

    def _draw(self, seat: int, a: Draw) -> None:
        if a.source == "pack":
            cid = self._pack.pop()
            self._log.append(Record(seat, Kind.DRAW_PACK, "L11", (CARDS[cid].code,), secret=True))
        else:
            if a.card is None:
                cid = self._stock.pop()
            else:
                cid = cid_of(a.card)
                i = len(self._stock) - 1 - self._stock[::-1].index(cid)
                del self._stock[i]
            self._log.append(Record(seat, Kind.DRAW_STOCK, "L11", (CARDS[cid].code,)))
        self._cnt[seat][cid] += 1
        self._size[seat] += 1
        self._phase = "play"
        if not self._pack:
            if not self.table.turnover:
                self._pack_out = True
            elif self._stock:
                cap = self.table.max_turnovers
                if cap and self._turnovers >= cap:
                    self._log.append(Record(None, Kind.ABANDONED, "max_turnovers", number=cap + 1))
                    self._finish("abandoned", None)
                    return
                # L25: the stock turned face down; its first card becomes the top.
                self._pack, self._stock = self._stock[::-1], []
                self._turnovers += 1
                self._log.append(Record(None, Kind.TURNOVER, "L25"))

    def _show(self, seat: int, a: Action) -> None:
        cnt = self._cnt[seat]
        if self._snapshot is None:
            self._snapshot = (cnt[:], self._size[seat], self._combos[:])
        if isinstance(a, Layout):
            combo = build(
                a.cards, wild=self.table.wild, owner=seat, cid=len(self._combos), named=True,
                order=self.table.order,
            )  # fmt: skip
            self._combos.append(combo)
            used = [cid_of(p.card) for p in a.cards]
            record = Record(seat, Kind.LAYOUT, "L15", tuple(p.code for p in a.cards))
        elif isinstance(a, Add):
            c = self._combos[a.combination]
            phys, named = cid_of(a.card.card), cid_of(a.card.named)
            tc = TableCard(a.card.card, a.card.named)
            if c.kind == "set":
                new = Combination(c.id, c.owner, "set", c.cards + (tc,), rank=c.rank)
            elif a.end == "low" or (
                a.end is None and c.lo > 1 and self.table.order.cid_at(c.suit, c.lo - 1) == named
            ):
                new = Combination(c.id, c.owner, "sequence", (tc,) + c.cards, suit=c.suit, lo=c.lo - 1)  # fmt: skip
            else:
                new = Combination(c.id, c.owner, "sequence", c.cards + (tc,), suit=c.suit, lo=c.lo)
            self._combos[a.combination] = new
            used = [phys]
            record = Record(seat, Kind.ADD, "L15", (a.card.code,), a.combination)
        else:
            assert isinstance(a, MoveJoker)
            c = self._combos[a.combination]
            phys, named = cid_of(a.card.card), cid_of(a.card.named)
            opt = next(
                o for o in generate.joker_options(c, cnt, self.table.wild)
                if o[0] == phys and o[1] == named and (a.end is None or o[2] == a.end)
            )  # fmt: skip
            self._combos[a.combination] = moved_combination(
                c, opt[3], opt[4], a.card.card, a.card.named
            )
            used = [phys]
            record = Record(seat, Kind.MOVE_JOKER, "L18", (a.card.code,), a.combination)
        for cid in used:
            cnt[cid] -= 1
        self._size[seat] -= len(used)
        self._shown += len(used)
        self._log.append(record)
        if self._size[seat] == 0:
            self._log.append(Record(seat, Kind.OUT, "L22"))
            self._finish("out", seat)

    def _discard(self, seat: int, a: Discard) -> None:
        cid = cid_of(a.card)
        self._cnt[seat][cid] -= 1
        self._size[seat] -= 1
        self._stock.append(cid)
        self._log.append(Record(seat, Kind.DISCARD, "L15", (a.card.code,)))
        if self._size[seat] == 0:
            self._log.append(Record(seat, Kind.OUT, "L21"))
            self._finish("out", seat)
            return
        if self._shown:
            if not self._has_shown[seat] and self._first_ratter is None:
                self._first_ratter = seat  # Dalton: the first to show part of a hand
            self._has_shown[seat] = True
        self._shown, self._snapshot = 0, None
        if self._pack_out:
            self._log.append(Record(None, Kind.EXHAUSTED, "Colonel"))
            self._finish("exhausted", None)
            return
        self._turn = (seat + 1) % self.players
        self._challenged = False
        self._phase = "draw"

    # -- the end -----------------------------------------------------------------------

    def _finish(self, kind: str, winner: int | None) -> None:
        from .scoring import score

        self._phase = "over"
        self._outcome = score(self, kind, winner)

    def hand_ids(self, seat: int) -> list[int]:
        """The seat's card ids, ascending (a joker, id 52, last)."""
        out: list[int] = []
        for cid, k in enumerate(self._cnt[seat]):
            if k == 1:
                out.append(cid)
            elif k:
                out.extend([cid] * k)
        return out

    def first_ratter(self) -> int | None:
        return self._first_ratter

    def had_shown(self, seat: int) -> bool:
        """Whether ``seat`` put cards on the table in an earlier turn of this deal."""
        return self._has_shown[seat]

    def hand_size(self, seat: int) -> int:
        return self._size[seat]

    def count_of(self, seat: int, cid: int) -> int:
        return self._cnt[seat][cid]

    @property
    def shown_this_turn(self) -> int:
        return self._shown

    @property
    def pack_count(self) -> int:
        return len(self._pack)

    def combination(self, i: int) -> Combination | None:
        return self._combos[i] if 0 <= i < len(self._combos) else None

    # -- views and copies --------------------------------------------------------------

    def player_view(self, seat: int) -> dict[str, Any]:
        from .views import view

        return view(self, seat)

    def spectator_view(self) -> dict[str, Any]:
        from .views import view

        return view(self, None)

    def copy(self) -> RummyDeal:
        """A cheap independent copy (for bots' playouts)."""
        new = RummyDeal.__new__(RummyDeal)
        for k in DEAL_FIELDS:
            setattr(new, k, getattr(self, k))
        new._cnt = [c[:] for c in self._cnt]
        new._size = self._size[:]
        new._stock = self._stock[:]
        new._pack = self._pack[:]
        new._combos = self._combos[:]
        new._has_shown = self._has_shown[:]
        new._log = self._log[:]
        self._copy_history(new)
        return new

    def __repr__(self) -> str:
        return (
            f"<RummyDeal {self.rules.variant} v{self.version} {self._phase} seat {self.to_move()}>"
        )
