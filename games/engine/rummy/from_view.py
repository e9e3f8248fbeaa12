"""A rummy deal from one seat's view and the cards it hides (``RummyDeal.from_view``; the
shared parts, :class:`~..from_view.Hidden` and the hands, are :mod:`..from_view`).

What the log tells (who showed cards in an earlier turn, Dalton's first ratter, whether
this turn was challenged, what a take-back restores) is read from its records' kinds,
never from their words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Self

from ..cards import Card
from ..combinations import CARDS, Combination, Placed, TableCard, cid_at, cid_of
from ..from_view import Hidden, ViewMismatch, combination_from_view, hands_of, pack_counter
from ..records import Kind
from ..rules import make_rules
from ..words import LogView
from .parts import table_for
from .saved import RummySnapshots

_SHOWS = (Kind.LAYOUT, Kind.ADD, Kind.MOVE_JOKER)
_PLAYING = ("draw", "play", "challenge")


class RummyFromView(RummySnapshots):
    """A deal rebuilt from a seat's view (:meth:`from_view`): a base of
    :class:`~.deal.RummyDeal`, its method the deal's own."""

    @classmethod
    def from_view(cls, view: Mapping[str, Any], hidden: Hidden) -> Self:
        """A :class:`~.deal.RummyDeal` that ``view`` (of a seat) is a view of, with the
        hidden cards where ``hidden`` puts them."""
        phase = str(view.get("phase"))
        if phase not in _PLAYING or view.get("seat") is None:
            raise ViewMismatch(f"a state is built from a seat's view during play, not {phase!r}")
        rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
        table = table_for(rules)
        n = int(view["players"])
        seat = int(view["seat"])
        counts = [int(k) for k in view["hand_counts"]]
        cnt = [[0] * len(CARDS) for _ in range(n)]
        for s, cards in hands_of(view, hidden, n, seat).items():
            if len(cards) != counts[s]:
                raise ViewMismatch(f"seat {s} holds {counts[s]} cards, not {len(cards)}")
            for c in cards:
                cnt[s][cid_of(c)] += 1
        pack = [cid_of(c) for c in hidden.pack][::-1]  # top of the pack is the end
        if len(pack) != int(view["pack_count"]):
            raise ViewMismatch(f"the pack holds {view['pack_count']} cards, not {len(pack)}")
        shown = [Card.from_code(c) for c in view.get("stock") or []]
        stock_cards = list(hidden.stock) if hidden.stock else shown
        if len(stock_cards) != int(view.get("stock_count") or 0) or stock_cards[-1:] != shown[-1:]:
            raise ViewMismatch("the stock does not match the view's")
        combos = [combination_from_view(c, table.order) for c in view.get("combinations") or []]
        everything = Counter(CARDS[i] for h in cnt for i, k in enumerate(h) for _ in range(k))
        everything.update(CARDS[i] for i in pack)
        everything.update(stock_cards)
        everything.update(t.card for c in combos for t in c.cards)
        if everything != pack_counter(table.pack):
            raise ViewMismatch("the cards of the view and the hidden ones are not the deal's pack")
        log = list(view.get("log") or [])
        to_move = int(view["to_move"])
        d = cls.__new__(cls)
        d.rules, d.table, d.players, d.dealer = rules, table, n, int(view["dealer"])
        d.seed, d.pack_order = None, ()
        d.version = int(view.get("version") or 0)
        d._init_history()
        d._cnt, d._size = cnt, counts
        d._stock = [cid_of(c) for c in stock_cards]
        d._pack = pack
        d._combos = combos
        # in the challenge phase the challenged player (the one before) is still on turn
        d._turn = (to_move - 1) % n if phase == "challenge" else to_move
        d._phase = phase
        d._shown = int(view.get("shown_this_turn") or 0)
        d._turnovers = int(view.get("turnovers") or 0)
        earlier, d._first_ratter = _shows(log)
        d._has_shown = [s in earlier for s in range(n)]
        d._challenged = _challenged_this_turn(log)
        d._pack_out = not table.turnover and phase == "play" and not pack
        d._snapshot = (
            _taken_back_to(log, seat, cnt[seat], counts[seat], combos) if d._shown else None
        )
        d._log, d._log_view = [], LogView()
        d._outcome = None
        d._legal_key, d._legal, d._legal_ids, d._legal_frozen = -1, [], frozenset(), None
        return d


def _shows(log: list[Mapping[str, Any]]) -> tuple[set[int], int | None]:
    """The seats that put cards on the table in an earlier turn and then discarded, and
    the first of them to (Dalton's first ratter)."""
    out: set[int] = set()
    first: int | None = None
    pending: dict[int, bool] = {}
    for e in log:
        s, kind = e.get("seat"), e.get("kind")
        if s is None:
            continue
        if kind in _SHOWS:
            pending[s] = True
        elif kind == Kind.TAKE_BACK:
            pending[s] = False
        elif kind == Kind.DISCARD:
            if pending.get(s):
                out.add(s)
                first = int(s) if first is None else first
            pending[s] = False
    return out, first


def _challenged_this_turn(log: list[Mapping[str, Any]]) -> bool:
    """Colonel: whether this turn's challenge was made or declined already."""
    for e in reversed(log):
        kind = e.get("kind")
        if kind == Kind.DECLINE or kind == Kind.CHALLENGE:
            return True
        if kind == Kind.DISCARD:
            return False
    return False


def _taken_back_to(
    log: list[Mapping[str, Any]], seat: int, cnt: list[int], size: int, combos: list[Combination]
) -> tuple[list[int], int, list[Combination]]:
    """What a take-back restores (L20): the hand and the table before this turn's shows,
    rebuilt by undoing them, the last first."""
    back = list(cnt)
    table = list(combos)
    added = 0
    for e in reversed(log):
        if e.get("seat") != seat:
            break
        kind = e.get("kind")
        if kind in (Kind.DRAW_PACK, Kind.DRAW_STOCK, Kind.TAKE_BACK):
            break  # the turn's start, or a take-back that restored it already
        if kind not in _SHOWS:
            continue
        placed = [Placed.from_code(code) for code in e.get("cards") or ()]
        for p in placed:
            back[cid_of(p.card)] += 1
            added += 1
        if kind == Kind.LAYOUT:
            table.pop()  # a new combination takes the next id (L15)
        else:
            i = int(e["combination"])
            table[i] = (
                _unmoved(table[i], placed[0])
                if kind == Kind.MOVE_JOKER
                else _unadded(table[i], placed[0])
            )
    return back, size + added, table


def _at_an_end(c: Combination, p: Placed) -> tuple[list[TableCard], int]:
    """The combination's cards without ``p`` (played at one end) and its new low end."""
    cards = list(c.cards)
    last, first = cards[-1], cards[0]
    if (last.card, last.named) == (p.card, p.named) and not last.crossways:
        return cards[:-1], c.lo
    if c.kind == "sequence" and (first.card, first.named) == (p.card, p.named):
        return cards[1:], c.lo + 1
    raise ViewMismatch(f"{p.code} is not at an end of combination {c.id}")


def _unadded(c: Combination, p: Placed) -> Combination:
    """The combination before ``p`` was added to it."""
    cards, lo = _at_an_end(c, p)
    if c.kind == "set":
        return Combination(c.id, c.owner, "set", tuple(cards), rank=c.rank)
    return Combination(c.id, c.owner, "sequence", tuple(cards), suit=c.suit, lo=lo)


def _unmoved(c: Combination, p: Placed) -> Combination:
    """The sequence before an L18 joker move that played ``p`` where the joker stood: the
    joker, now crossways at one end, goes back to the other, named by its place."""
    cards, lo = _at_an_end(c, p)
    if cards[-1].crossways:
        joker = cards.pop()
        lo -= 1
        cards.insert(0, TableCard(joker.card, CARDS[cid_at(c.suit, lo)]))
    elif cards[0].crossways:
        joker = cards.pop(0)
        lo += 1
        cards.append(TableCard(joker.card, CARDS[cid_at(c.suit, lo + len(cards))]))
    else:
        raise ViewMismatch(f"no joker was moved in combination {c.id}")
    return Combination(c.id, c.owner, "sequence", tuple(cards), suit=c.suit, lo=lo)
