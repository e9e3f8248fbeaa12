"""What a seat knows in the rummy variants, read from its view and the public log.

Foster (book p.21): "the chances of filling any combination depend on the number of
cards still to show that will fit, and among the cards that have shown one must not
forget those covered up in the stock". So the live count of a card is the number of
copies in the pack minus those in the bot's hand, on the table, under the stock, and
those another player is known to hold (picked up from the stock).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from games.engine.cards import Card, make_pack
from games.engine.combinations import CARD_ID, CARDS, Combination
from games.engine.from_view import combination_from_view
from games.engine.records import Kind
from games.engine.rules import make_rules
from games.engine.rummy.parts import table_for

from .base import View

_PACK_COUNTS: dict[str, list[int]] = {}


def pack_counts(view: View) -> list[int]:
    """How many of each card id (0..52) the deal's pack holds."""
    rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
    kind = table_for(rules).pack.value
    got = _PACK_COUNTS.get(kind)
    if got is None:
        got = [0] * 53
        for c in make_pack(table_for(rules).pack):
            got[CARD_ID[c]] += 1
        _PACK_COUNTS[kind] = got
    return got


def _phys(code: str) -> Card:
    return Card.from_code(code.split("=")[0])


@dataclass
class Knowledge:
    """Seen cards: ``stock`` (all cards under the stock, bottom first), cards each other
    seat is known to hold, and who took which cards from the stock."""

    stock: list[Card] = field(default_factory=list)
    known: dict[int, Counter[Card]] = field(default_factory=dict)
    taken: dict[int, list[Card]] = field(default_factory=dict)
    discarded: dict[int, list[Card]] = field(default_factory=dict)


def read_log(view: View) -> Knowledge:
    """Replay the public log: the stock's contents and the cards known in other hands."""
    k = Knowledge()
    shown: dict[int, list[Card]] = {}
    for e in view.get("log") or []:
        seat = e.get("seat")
        kind = e.get("kind")
        cards = e.get("cards") or ()
        if seat is None:
            if kind == Kind.DEAL and cards:
                k.stock = [Card.from_code(cards[0])]
            elif kind == Kind.TURNOVER:
                k.stock = []
            continue
        hand = k.known.setdefault(seat, Counter())
        if kind == Kind.DISCARD:
            c = Card.from_code(cards[0])
            k.stock.append(c)
            k.discarded.setdefault(seat, []).append(c)
            if hand[c]:
                hand[c] -= 1
            shown[seat] = []
        elif kind == Kind.DRAW_STOCK:
            c = Card.from_code(cards[0])
            for i in range(len(k.stock) - 1, -1, -1):
                if k.stock[i] == c:
                    del k.stock[i]
                    break
            hand[c] += 1
            k.taken.setdefault(seat, []).append(c)
        elif kind == Kind.LAYOUT or kind == Kind.ADD or kind == Kind.MOVE_JOKER:
            for code in cards:
                _played(hand, shown, seat, _phys(code))
        elif kind == Kind.TAKE_BACK:
            for c in shown.get(seat, []):
                hand[c] += 1
            shown[seat] = []
    return k


def _played(hand: Counter[Card], shown: dict[int, list[Card]], seat: int, c: Card) -> None:
    if hand[c]:
        hand[c] -= 1
        shown.setdefault(seat, []).append(c)


def table_combinations(view: View) -> list[Combination]:
    """The view's combinations as the engine's :class:`Combination` values (a sequence's
    positions in the pack's order)."""
    from .hands import seq_order

    order = seq_order(view)
    return [combination_from_view(c, order) for c in view.get("combinations") or []]


def unseen_counts(view: View, k: Knowledge, hand_ids: list[int]) -> list[int]:
    """Copies of each card id not yet seen by this seat (in the pack or others' hands,
    not counting cards another seat is known to hold)."""
    live = list(pack_counts(view))
    for cid in hand_ids:
        live[cid] -= 1
    for c in view.get("combinations") or []:
        for x in c["cards"]:
            live[CARD_ID[Card.from_code(x["card"])]] -= 1
    for card in k.stock:
        live[CARD_ID[card]] -= 1
    me = view.get("seat")
    for seat, hand in k.known.items():
        if seat == me:
            continue
        for card, n in hand.items():
            live[CARD_ID[card]] -= n
    return [max(0, x) for x in live]


_ = CARDS
