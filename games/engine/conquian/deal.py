"""One deal of two-player Conquián: :class:`ConquianDeal` and :func:`new_conquian_deal`.
How a deal runs, law by law, is told in the package's docstring (:mod:`games.engine.conquian`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..actions import Action, is_listed
from ..cards import Card, make_pack, shuffle_seeded
from ..combinations import CARDS
from ..errors import IllegalActionError, InvalidActionError
from ..i18n import gettext_noop
from ..protocol import Adjustment, Outcome, PhasedDeal
from ..records import Kind, Record
from ..rules import Rules
from ..words import LogView
from .actions import (
    CONQUIAN_ACTIONS,
    ForceAction,
    MeldAction,
    PassAction,
    ThrowAction,
    TradeAction,
    TurnAction,
    UseAction,
    card_key,
)
from .from_view import ConquianFromView
from .melds import (
    KINDS,
    Combo,
    fits,
    new_combinations,
    pieces_after_borrow,
    pip_value,
)
from .order import ORDERS, PackOrder, by_suit
from .why import ConquianWhy

if TYPE_CHECKING:
    pass

__all__ = ["ConquianDeal", "new_conquian_deal", "next_dealer"]

# The laws this module cites, marked for the readers' catalogs: a citation's words are
# read in the reader's language, its number as the source gives it.
LAW_PACK = gettext_noop("L1 (two players)")
LAW_DEAL = gettext_noop("L8 (two players)")
LAW_TOUCH = gettext_noop("L11 (two players)")
LAW_NEVER_IN_HAND = gettext_noop("L12 (two players)")
LAW_ELEVEN = gettext_noop("L21 (two players)")
LAW_SAY = gettext_noop("book p.51")
LAW_DISCARD = gettext_noop("book p.50")
LAW_FORCE = "L19"
LAW_BORROW = gettext_noop("book p.54")
LAW_COMBINATION = "L15"
LAW_TRADE = gettext_noop("how-to (card trade)")

# The single-card actions a listing offers over and over, made once (actions are frozen
# values; a card id names its card), as the rummy and Tonk deals keep theirs.
_ONE_CARD: dict[tuple[type[Action], int, int, int], Action] = {}


def _one_card(kind: type[Action], seat: int, cid: int, *to: int) -> Any:
    """``kind(seat, card, *to)`` for the card of id ``cid``, the same object each time."""
    a = _ONE_CARD.get(key := (kind, seat, cid, to[0] if to else -1))
    if a is None:
        if kind is MeldAction:  # one hand card added to own combination ``to``
            a = MeldAction(seat, (CARDS[cid],), (), to[0])
        else:
            a = kind(seat, CARDS[cid], *to)  # type: ignore[call-arg]
        _ONE_CARD[key] = a
    return a


# The new combinations a listing offers, made once too: the same ones come back turn
# after turn (nine in ten over random deals), and each made anew is checked anew.
_NEW: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], Action] = {}


def _new_combination(seat: int, card: int, hand: tuple[int, ...], borrow: tuple[int, ...]) -> Any:
    """A new combination of ``hand`` and ``borrow`` card ids: with the card in play
    ``card`` a use, without (``card`` -1) a meld; the same object each time."""
    a = _NEW.get(key := (seat, card, hand, borrow))
    if a is None:
        if len(_NEW) > _NEW_LIMIT:
            _NEW.clear()
        h, b = tuple(CARDS[x] for x in hand), tuple(CARDS[x] for x in borrow)
        a = _NEW[key] = (
            UseAction(seat, CARDS[card], None, h, b) if card >= 0 else MeldAction(seat, h, b)
        )
    return a


_NEW_LIMIT = 50_000
_TURN = (TurnAction(0), TurnAction(1))


def _onto(
    own: type[Action], seat: int, card: int, combos: dict[int, Combo], order: PackOrder, cap: int
) -> list[Action]:
    """``card`` put onto each combination it fits: onto the seat's own as ``own`` (a use
    or a meld), onto the opponent's as a force (Foster's Conquián: "forcing")."""
    return [
        _one_card(own if combo[0] == seat else ForceAction, seat, card, cid)
        for cid, combo in combos.items()
        if fits(card, combo, order, cap)
    ]


def _taking(combos: dict[int, Combo], order: PackOrder, cap: int) -> dict[int, list[int]]:
    """The combinations each card would go onto (:func:`.melds.fits`, read the other way
    round: the card ids each takes), in the combinations' order."""
    out: dict[int, list[int]] = {}
    up, down = order.up, order.down
    for cid, (_, is_seq, cs) in combos.items():
        if not is_seq:
            if len(cs) < 4:
                r4 = cs[0] & ~3
                for x in (r4, r4 + 1, r4 + 2, r4 + 3):
                    out.setdefault(x, []).append(cid)
        elif not cap or len(cs) < cap:
            for x in (up[cs[-1]], down[cs[0]]):
                if x >= 0:
                    out.setdefault(x, []).append(cid)
    return out


def _codes(cards: tuple[Card, ...]) -> tuple[str, ...]:
    return tuple(c.code for c in cards)


def new_conquian_deal(
    rules: Rules,
    dealer: int,
    *,
    seed: int | None = None,
    pack: list[Card] | None = None,
    carry_in: int = 0,
    scores_in: tuple[int, ...] = (),
) -> ConquianDeal:
    """Deal a new hand. ``pack`` is the whole pack, top card first; else it is shuffled
    with ``random.Random(seed)`` (a fresh seed when none). The order is kept in
    ``deal.pack_order`` (and the seed in ``deal.seed``, also when a pack is given with the
    seed it was shuffled from) for replay.

    >>> from ..rules import make_rules
    >>> d = new_conquian_deal(make_rules("conquian"), 0, seed=1)
    >>> d.to_move(), len(d.player_view(1)["hand"]), d.player_view(1)["pack_count"]
    (1, 10, 19)
    """
    if rules.variant != "conquian":
        raise InvalidActionError(f"not a conquian rule set: {rules.variant!r}")
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise InvalidActionError(f"dealer must be seat 0 or 1, not {dealer!r}")
    if not isinstance(carry_in, int) or isinstance(carry_in, bool) or carry_in < 0:
        raise InvalidActionError(f"bad carry_in {carry_in!r}")
    if carry_in and not rules.opt("carry"):
        raise InvalidActionError("carry_in given but tableaux do not carry (option carry)")
    # Records written before issue 80 carry (0, 0) for a deal without a target: nothing.
    if any(scores_in) and not rules.opt("target"):
        raise InvalidActionError("scores_in given but each deal is a game (option target)")
    if scores_in and (
        len(scores_in) != 2
        or any(
            not isinstance(s, int) or isinstance(s, bool) or s < 0 for s in scores_in
        )  # fmt: skip
    ):
        raise InvalidActionError(f"bad scores_in {scores_in!r}: two points totals, 0 or more")
    kind = KINDS[str(rules.opt("pack"))]
    if pack is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        order = make_pack(kind)
        shuffle_seeded(order, seed)
    else:
        order = list(pack)
        if sorted(order, key=card_key) != sorted(make_pack(kind), key=card_key):
            raise InvalidActionError(f"pack is not the cards of the {kind.value} pack")
    deal = ConquianDeal(rules, dealer, order, carry_in)
    deal.scores_in = tuple(scores_in) or (0, 0)
    deal.seed = seed  # with a pack given, the seed it was shuffled from (if the caller knows it)
    return deal


def next_dealer(dealer: int) -> int:
    """The deal alternates (how-to); after a tableau the non-dealer deals (book p.55)."""
    return 1 - dealer


class ConquianDeal(ConquianWhy, ConquianFromView, PhasedDeal):
    """One deal of Conquián for two. Implements :class:`protocol.DealState`."""

    def __init__(self, rules: Rules, dealer: int, order: list[Card], carry_in: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.version = 0
        self.carry_in = carry_in
        self.scores_in = (0, 0)
        self.pack_order = tuple(order)
        self.seed = None
        self._init_history()
        self._order = ORDERS[str(rules.opt("pack"))]
        self._cards = CARDS
        self._idx = idx = self._order.index
        ints = [idx[c] for c in order]
        pone = 1 - dealer
        hands: list[list[int]] = [[], []]
        # two at a time, the pone first (L8 (two players)), or one at a time (C-opt-1)
        per = 1 if rules.opt("deal") == "singly" else 2
        for i in range(20):
            hands[pone if (i // per) % 2 == 0 else dealer].append(ints[i])
        self._hands = [sorted(h, key=by_suit) for h in hands]
        rest = ints[20:]
        self._combos = {}
        self._where = [-1] * 52
        self._next_id = 0
        self._dead = []
        self._card = -1
        self._turned_by = -1
        self._say = -1
        self._refusals = 0
        self._from_pack = True
        self._trade = [-1, -1]
        self._outcome = None
        self._log = []
        self._log_view = LogView()
        self._cache_v = -1
        self._cache = []
        self._phase = "turn"
        self._mover = pone
        if rules.opt("upcard"):
            self._card = rest.pop(0)  # the 21st card, turned up on the pack (book p.49)
            self._turned_by, self._say, self._refusals = dealer, pone, 0
            self._phase = "say"
            self._log.append(
                Record(dealer, Kind.TURN_UP_DEAL, LAW_DEAL, (self._cards[self._card].code,))
            )
        self._pack = rest[::-1]  # top card last, for pop()
        self._after_trade = self._phase
        if rules.opt("trade"):
            self._phase = "trade"

    # ------------------------------------------------------------ protocol

    @property
    def log(self) -> list[Record]:
        """The deal's log (:mod:`..records`), whole: redact it per viewer (``seen_by``)."""
        return list(self._log)

    def to_move(self) -> int | None:
        p = self._phase
        if p == "say":
            return self._say
        if p == "trade":
            pone = 1 - self.dealer
            return pone if self._trade[pone] < 0 else self.dealer
        if p == "over":
            return None
        return self._mover

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.to_move():
            return []
        if self._cache_v != self.version:
            self._cache = self._generate(seat)
            self._cache_v = self.version
        return list(self._cache)

    def is_legal(self, action: Action) -> bool:
        if not isinstance(action, Action) or action.seat != self.to_move():
            return False
        if self._cache_v != self.version:
            self._cache = self._generate(action.seat)
            self._cache_v = self.version
        return is_listed(self._cache, action) or action in self._cache

    def apply(self, action: Action) -> None:
        """Apply a legal action; on any error nothing changes."""
        if self._cache_v == self.version and is_listed(self._cache, action):
            self._do(action)  # one of this turn's listed objects: checked when listed
            self._history.append(action)
            self.version += 1
            return
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r}")
        if not isinstance(action, CONQUIAN_ACTIONS):
            raise InvalidActionError(f"{action.type!r} is not a Conquián action")
        if not isinstance(action.seat, int) or action.seat not in (0, 1):
            raise InvalidActionError(f"bad seat {action.seat!r} for a two-player deal")
        if not self.is_legal(action):
            raise self._why(action)
        self._do(action)
        self._history.append(action)
        self.version += 1

    def copy(self) -> ConquianDeal:
        new = ConquianDeal.__new__(ConquianDeal)
        d = new.__dict__
        d.update(self.__dict__)
        self._copy_history(new)
        d["_hands"] = [self._hands[0].copy(), self._hands[1].copy()]
        d["_combos"] = self._combos.copy()
        d["_where"] = self._where.copy()
        d["_dead"] = self._dead.copy()
        d["_trade"] = self._trade.copy()
        d["_log"] = self._log.copy()
        d["_pack"] = self._pack.copy()
        return new

    # ------------------------------------------------------------ legal actions

    def _generate(self, seat: int) -> list[Action]:
        hand = self._hands[seat]
        p = self._phase
        if p == "trade":
            return [_one_card(TradeAction, seat, x) for x in hand]
        if p == "turn":
            return [_TURN[seat]]
        out: list[Action] = []
        combos = self._combos
        cap = self.cap
        order = self._order
        if p == "say":
            c = self._card
            if not self._from_pack and self._refusals:
                # a discard its opponent refused though it fits their combination: its
                # discarder demands it (a force onto that combination) or lets it go
                # (seed 004, line 17)
                out = [
                    _one_card(ForceAction, seat, c, cid)
                    for cid, combo in combos.items()
                    if combo[0] != seat and fits(c, combo, order, cap)
                ]
                out.append(_one_card(PassAction, seat, c))
                return out
            out.extend(_onto(UseAction, seat, c, combos, order, cap))
            own = self._own(seat)
            for h, b in new_combinations(hand, own, self._where, combos, c, order, cap):
                out.append(_new_combination(seat, c, h, b))
            out.append(_one_card(PassAction, seat, c))
            return out
        # discard phase
        own = self._own(seat)
        for h, b in new_combinations(hand, own, self._where, combos, None, order, cap):
            out.append(_new_combination(seat, -1, h, b))
        if not combos:
            out.extend(_one_card(ThrowAction, seat, x) for x in hand)
            return out
        taking = _taking(combos, order, cap)
        for x in hand:
            for cid in taking.get(x, ()):
                out.append(
                    _one_card(MeldAction if combos[cid][0] == seat else ForceAction, seat, x, cid)
                )
            out.append(_one_card(ThrowAction, seat, x))
        return out

    def _demandable(self, seat: int) -> bool:
        """Whether the discard ``seat`` turns down may be demanded of them: under the
        option (seed 004, line 17; seed 003, line 74), a discard that fits one of their
        own combinations."""
        if not self.rules.opt("demand") or self._from_pack:
            return False
        c, order, cap = self._card, self._order, self.cap
        return any(
            combo[0] == seat and fits(c, combo, order, cap) for combo in self._combos.values()
        )

    def _is_upcard(self) -> bool:
        """Whether the card in play is the 21st, turned up by the deal (book p.49): the pack
        holds all but it and the twenty dealt (a deal made from a view has no log)."""
        return (
            self._from_pack
            and len(self._pack) == len(self._order) - 21
            and bool(self.rules.opt("upcard"))
        )

    def _own(self, seat: int) -> set[int]:
        return {x for o, _, cs in self._combos.values() if o == seat for x in cs}

    # ------------------------------------------------------------ applying

    def _do(self, a: Action) -> None:
        idx = self._idx
        seat = a.seat
        # Each action's class read by identity (none is subclassed; cheaper than isinstance)
        if type(a) is TradeAction:
            # The card is not named, even to its trader: a view shows no card of the
            # other hand (the trader's own view shows it until the exchange: trade_card).
            self._log.append(Record(seat, Kind.TRADE, LAW_TRADE))
            self._trade[seat] = idx[a.card]
            if min(self._trade) >= 0:
                t0, t1 = self._trade
                h0, h1 = self._hands
                h0.remove(t0)
                h1.remove(t1)
                h0.append(t1)
                h1.append(t0)
                h0.sort(key=by_suit)
                h1.sort(key=by_suit)
                self._phase = self._after_trade
        elif type(a) is TurnAction:
            self._card = self._pack.pop()
            self._log.append(Record(seat, Kind.TURN_UP, LAW_TOUCH, (self._cards[self._card].code,)))
            self._turned_by = self._say = seat
            self._refusals = 0
            self._from_pack = True
            self._phase = "say"
        elif type(a) is PassAction:
            if self._refusals == 0 and (self._from_pack or self._demandable(seat)):
                # a card from the pack: the other has the say (book p.51); under "demand", a
                # discard that fits the refuser's combination goes to its discarder
                self._log.append(Record(seat, Kind.REFUSE, LAW_SAY, (a.card.code,)))
                self._refusals = 1
                self._say = 1 - seat
            else:  # the second refusal turns the card down for good (book p.52)
                self._log.append(Record(seat, Kind.TURN_DOWN, LAW_SAY, (a.card.code,)))
                upcard = self._is_upcard()
                self._dead.append(self._card)
                self._card = -1
                self._turned_by = self._say = -1
                if not self._pack:
                    self._end_tableau()
                else:
                    self._phase = "turn"
                    # the one who refused last turns next (book p.52), and the refuser of a
                    # discard its discarder let go (the option "demand"); after the upcard,
                    # the pone under the option "upcard_refused" (seed 003, line 64)
                    let_go = not self._from_pack and self._refusals == 1
                    self._mover = 1 - seat if let_go else seat
                    if upcard and self.rules.opt("upcard_refused") == "pone":
                        self._mover = 1 - self.dealer
        elif type(a) is UseAction:
            self._log.append(
                Record(
                    seat, Kind.USE, LAW_NEVER_IN_HAND, _codes((a.card, *a.hand)), a.to,
                    borrowed=_codes(a.borrow),
                )
            )  # fmt: skip
            c = self._card
            self._card = -1
            self._turned_by = self._say = -1
            if a.to is not None:
                self._extend(a.to, c)
            else:
                self._lay(seat, [c], [idx[x] for x in a.hand], [idx[x] for x in a.borrow])
            self._after_placing(seat)
        elif type(a) is MeldAction:
            self._log.append(
                Record(
                    seat, Kind.MELD, LAW_COMBINATION, _codes(a.hand), a.to,
                    borrowed=_codes(a.borrow),
                )
            )  # fmt: skip
            if a.to is not None:
                x = idx[a.hand[0]]
                self._hands[seat].remove(x)
                self._extend(a.to, x)
            else:
                self._lay(seat, [], [idx[x] for x in a.hand], [idx[x] for x in a.borrow])
            self._after_placing(seat)
        elif type(a) is ForceAction:
            self._log.append(Record(seat, Kind.FORCE, LAW_FORCE, (a.card.code,), a.to))
            x = idx[a.card]
            if self._phase == "say":
                self._card = -1
                self._turned_by = self._say = -1
            else:
                self._hands[seat].remove(x)
            self._extend(a.to, x)
            self._after_placing(1 - seat)
        elif type(a) is ThrowAction:
            self._log.append(Record(seat, Kind.THROW, LAW_DISCARD, (a.card.code,)))
            x = idx[a.card]
            self._hands[seat].remove(x)
            self._card = x
            self._turned_by = seat
            self._say = 1 - seat
            self._from_pack = False
            self._refusals = 0
            self._phase = "say"

    def _extend(self, cid: int, card: int) -> None:
        owner, is_seq, cs = self._combos[cid]
        self._combos[cid] = (owner, is_seq, tuple(sorted((*cs, card))))
        self._where[card] = cid

    def _lay(self, seat: int, extra: list[int], hand: list[int], borrow: list[int]) -> None:
        h = self._hands[seat]
        for x in hand:
            h.remove(x)
        touched: dict[int, list[int]] = {}
        for x in borrow:
            touched.setdefault(self._where[x], []).append(x)
        for cid, removed in touched.items():
            owner, is_seq, cs = self._combos[cid]
            if not is_seq:
                self._combos[cid] = (owner, False, tuple(x for x in cs if x not in removed))
                continue
            pieces = pieces_after_borrow(cs, removed, self._order)
            assert pieces is not None
            self._combos[cid] = (owner, True, pieces[0])
            for piece in pieces[1:]:  # the middle of a seven splits it in two
                self._add_combo(seat, True, piece)
        cards = tuple(sorted(extra + hand + borrow))
        self._add_combo(seat, cards[0] & 3 == cards[-1] & 3, cards)

    def _add_combo(self, seat: int, is_seq: bool, cards: tuple[int, ...]) -> None:
        cid = self._next_id
        self._next_id += 1
        self._combos[cid] = (seat, is_seq, cards)
        for x in cards:
            self._where[x] = cid

    def _after_placing(self, seat: int) -> None:
        """Eleven down wins at once (L21 (two players)); else the placer must discard."""
        if not self._hands[seat]:
            self._log.append(Record(seat, Kind.ELEVEN, LAW_ELEVEN))
            self._end_out(seat)
        else:
            self._phase = "discard"
            self._mover = seat

    # ------------------------------------------------------------ the end

    def _hands_out(self) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...]]:
        hands = tuple(tuple(self._cards[x] for x in h) for h in self._hands)
        # C-opt-3 prices the Spanish pack's courts; the full pack's courts pay 10 each
        spanish = self.rules.opt("pack") == "spanish"
        courts = str(self.rules.opt("court_pips")) if spanish else "ten"
        return hands, tuple(sum(pip_value(c, courts) for c in h) for h in hands)

    def _end_out(self, winner: int) -> None:
        self._phase = "over"
        hands, pips = self._hands_out()
        loser = 1 - winner
        scoring = str(self.rules.opt("scoring"))
        base = 1 if scoring == "game-points" else pips[loser]
        carried = base * self.carry_in
        pay = [0, 0]
        pay[winner], pay[loser] = base + carried, -(base + carried)
        adj: tuple[Adjustment, ...] = ()
        if self.carry_in:
            adj = (
                Adjustment(winner, carried, "tableau-carry", LAW_ELEVEN),
                Adjustment(loser, -carried, "tableau-carry", LAW_ELEVEN),
            )
        self._outcome = Outcome("out", winner, hands, pips, tuple(pay), adj, 0, scoring)

    def _end_tableau(self) -> None:
        self._phase = "over"
        hands, pips = self._hands_out()
        carried = self.carry_in + 1 if self.rules.opt("carry") else 0
        scoring = str(self.rules.opt("scoring"))
        self._log.append(Record(None, Kind.TABLEAU, LAW_ELEVEN))
        self._outcome = Outcome("tableau", None, hands, pips, (0, 0), (), carried, scoring)

    # ------------------------------------------------------------ why not

    def _why(self, a: Action) -> IllegalActionError:
        reason, law = self.why_illegal(a)
        return IllegalActionError(reason, law=law)

    # ------------------------------------------------------------ views

    # ------------------------------------------------------------ helpers for checks

    def card_counts(self) -> dict[str, int]:
        """Where the pack's cards are (tests check they always add up)."""
        return {
            "hands": len(self._hands[0]) + len(self._hands[1]),
            "pack": len(self._pack),
            "combinations": sum(len(cs) for _, _, cs in self._combos.values()),
            "dead": len(self._dead),
            "in_play": 1 if self._card >= 0 else 0,
        }
