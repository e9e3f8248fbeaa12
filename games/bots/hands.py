"""Readings of cards and combinations from a ``player_view`` (no hidden information).

Sequence positions: in the rummy variants a card sits at its rank's place in the pack's
order (the full pack: rank ``r`` at ``r``, ace 1) and an ace also after the top card (Q K
A at 14, L16; 9 10 A in Colonel's pack without courts, CLO1); in Conquián at its place in
the pack's order from 0 (Foster: A..10 as 0..9; Spanish: A..7 J Q K as 0..9; the full
52 as 0..12), the ace low only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.engine.cards import Card
from games.engine.combinations import CARD_ID, FULL_ORDER, SeqOrder
from games.engine.conquian.order import ORDERS as CONQUIAN_ORDERS
from games.engine.conquian.order import PackOrder
from games.engine.records import Kind

from .base import View, caps, is_wild


@lru_cache(maxsize=64)
def _rummy_order(variant: str, options: tuple[tuple[str, object], ...]) -> SeqOrder:
    from games.engine.rules import make_rules
    from games.engine.rummy.parts import table_for

    return table_for(make_rules(variant, dict(options))).order  # type: ignore[arg-type]


def seq_order(view: View) -> SeqOrder:
    """A rummy game's sequence order under the view's options (the full pack's, unless
    Colonel is dealt from a 40-card pack, CL-opt-1)."""
    return _orders(view)[1]


def _orders(view: View) -> tuple[PackOrder | None, SeqOrder]:
    """The pack's sequence order: Conquián's (a PackOrder) or the rummy family's."""
    options = view.get("options") or {}
    if caps(view).say:
        return CONQUIAN_ORDERS[str(options.get("pack") or "forty")], FULL_ORDER
    try:
        return None, _rummy_order(str(view.get("variant")), tuple(sorted(options.items())))
    except (ValueError, TypeError):  # not a rummy game: the full pack's order
        return None, FULL_ORDER


def conquian_pips(card: Card) -> int:
    """What the card pays under Conquián pips scoring (face value, courts 10)."""
    return min(card.rank, 10)


def rummy_pips(cards: Iterable[Card], view: View) -> int:
    """L24 pip values (joker 15, ace 11, courts 10; Colonel: ace 1, courts 10)."""
    if caps(view).low_aces:
        return sum(min(c.rank, 10) for c in cards)
    wild = _wild(view)
    total = 0
    for c in cards:
        total += 15 if is_wild(c, wild) and c.is_joker else c.pips
    return total


def _wild(view: View) -> str:
    from .base import wild_mode

    return wild_mode(view)


def positions(card: Card, view: View) -> tuple[int, ...]:
    """Sequence positions the card can take."""
    conquian, order = _orders(view)
    if conquian is not None:
        return (conquian.place[CARD_ID[card]],)
    if card.rank == 1:
        return (1, order.top + 1)
    return (order.pos(card.rank),)


@dataclass(frozen=True, slots=True)
class TableCombo:
    """A combination read from the view: a set of ``rank`` or a sequence ``lo..hi``."""

    id: int
    owner: int
    kind: str
    suit: str | None
    rank: int
    lo: int
    hi: int
    size: int
    end_jokers: tuple[bool, bool]  # an uncrossed wild at the low / high end (L18)


def table_combos(view: View) -> list[TableCombo]:
    out: list[TableCombo] = []
    conquian = caps(view).say
    for c in view.get("combinations") or []:
        named = [Card.from_code(x["as"] or x["card"]) for x in c["cards"]]
        phys = [x["card"] for x in c["cards"]]
        if c["kind"] == "set":
            out.append(
                TableCombo(
                    c["id"],
                    c["owner"],
                    "set",
                    None,
                    named[0].rank,
                    0,
                    0,
                    len(named),
                    (False, False),
                )  # fmt: skip
            )
            continue
        suit = named[0].suit
        if conquian:
            ps = sorted(positions(n, view)[0] for n in named)
        else:
            order = _orders(view)[1]
            ranks = sorted(order.pos(n.rank) for n in named)
            ps = ranks
            if ranks[0] == 1 and len(ranks) > 1 and ranks[1] != 2:
                ps = sorted(order.top + 1 if r == 1 else r for r in ranks)
        ends = (False, False)
        if not conquian:
            lo_w = phys[0] != (c["cards"][0]["as"] or phys[0]) and not c["cards"][0]["crossways"]
            hi_w = (
                phys[-1] != (c["cards"][-1]["as"] or phys[-1]) and not c["cards"][-1]["crossways"]
            )
            ends = (lo_w, hi_w)
        out.append(
            TableCombo(
                c["id"],
                c["owner"],
                "sequence",
                suit.value if suit else None,
                0,
                ps[0],
                ps[-1],
                len(named),
                ends,
            )  # fmt: skip
        )
    return out


def fits_combo(card: Card, combo: TableCombo, view: View) -> bool:
    """Whether a natural card can be added to a combination on the table."""
    if combo.kind == "set":
        if caps(view).say and combo.size >= 4:
            return False
        return card.rank == combo.rank
    if card.suit is None or card.suit.value != combo.suit:
        return False
    conquian, order = _orders(view)
    top = len(conquian.ranks) - 1 if conquian is not None else order.top + 1
    bottom = 0 if conquian is not None else 1
    for p in positions(card, view):
        if (p == combo.lo - 1 and p >= bottom) or (p == combo.hi + 1 and p <= top):
            return True
    return False


def _others(card: Card, hand: Sequence[Card]) -> list[Card]:
    rest = list(hand)
    if card in rest:
        rest.remove(card)
    return rest


def fits_something(card: Card, hand: Sequence[Card], wild: str, view: View) -> bool:
    """A wild card, a card paired by rank, a card within two places of another of its
    suit, or a card that fits a combination on the table."""
    if is_wild(card, wild):
        return True
    rest = _others(card, hand)
    for o in rest:
        if is_wild(o, wild):
            continue
        if o.rank == card.rank:
            return True
        if o.suit is card.suit:
            for p in positions(card, view):
                for q in positions(o, view):
                    if 0 < abs(p - q) <= 2:
                        return True
    conquian = caps(view).say
    me = view.get("seat")
    for combo in table_combos(view):
        if conquian and combo.owner != me:
            continue
        if fits_combo(card, combo, view):
            return True
    return False


def makes_layout(hand: Sequence[Card], card: Card, wild: str, view: View) -> bool:
    """Whether ``card`` with cards from ``hand`` makes a combination, or fits one on the
    table (so taking it gets rid of it at once)."""
    if is_wild(card, wild):
        return True
    wilds = sum(1 for c in hand if is_wild(c, wild))
    same = sum(1 for c in hand if c.rank == card.rank and not is_wild(c, wild))
    if same + min(wilds, 1) >= 2:
        return True
    mine = {
        p for c in hand if c.suit is card.suit and not is_wild(c, wild) for p in positions(c, view)
    }
    for p in positions(card, view):
        for lo in range(p - 2, p + 1):
            missing = sum(1 for q in range(lo, lo + 3) if q != p and q not in mine)
            if missing <= min(wilds, 1) and missing < 2:
                return True
    for combo in table_combos(view):
        if caps(view).say and combo.owner != view.get("seat"):
            continue
        if fits_combo(card, combo, view):
            return True
    return False


def took_back_this_turn(view: View) -> bool:
    """Whether this seat took back its play since its last draw (so it does not loop)."""
    me = view.get("seat")
    for entry in reversed(view.get("log") or []):
        if entry.get("seat") != me:
            return False
        kind = entry.get("kind")
        if kind == Kind.TAKE_BACK:
            return True
        if kind == Kind.DRAW_PACK or kind == Kind.DRAW_STOCK:
            return False
    return False
