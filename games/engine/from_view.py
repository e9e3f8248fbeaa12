"""A deal state from one seat's view and the cards it hides: ``DealState.from_view``.

A computer player that searches (the expert) samples the cards its seat has not seen
into the other hands and the pack, and plays candidate actions out on a state built from
its view and that sample. The state is the engine's to build: each game reads a
``player_view`` (the seat's hand, the table, the counts, the public log's records) and a
:class:`Hidden` assignment, checks that they agree, and fills its deal's fields (the rummy
family's :mod:`.rummy.from_view`, Conquián's :mod:`.conquian.from_view`, Tonk's and
Tunk's deals, which share :class:`.stock.StockDeal`'s). Nothing outside the engine sets a private field of a deal. This module
holds what they share: :class:`Hidden`, :class:`ViewMismatch`, the hands of a view, a
combination from its view, and a pack's cards counted.

A state built this way has no pack order and no history (``pack_order`` is empty, the
version is the view's): it plays on, it does not replay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, PackKind, make_pack
from .combinations import FULL_ORDER, SUIT_INDEX, Combination, SeqOrder, TableCard
from .errors import InvalidActionError


@dataclass(frozen=True)
class Hidden:
    """The cards a seat's view does not show, as one assignment of them.

    ``hands``: every other seat's whole hand (cards another seat is known to hold
    included). ``pack``: the pack, top card first. ``stock``: the stock, bottom card first,
    where the view shows only its top (Foster's buried stock, book p.8); left empty, the
    view's own stock is used.
    """

    hands: Mapping[int, Sequence[Card]]
    pack: Sequence[Card]
    stock: Sequence[Card] = field(default=())


class ViewMismatch(InvalidActionError):
    """The view and the hidden cards do not make one deal (counts, cards or phase)."""


_PACKS: dict[PackKind, Counter[Card]] = {}


def pack_counter(kind: PackKind) -> Counter[Card]:
    got = _PACKS.get(kind)
    if got is None:
        got = _PACKS[kind] = Counter(make_pack(kind))
    return got


def hands_of(view: Mapping[str, Any], hidden: Hidden, n: int, seat: int) -> dict[int, list[Card]]:
    """Each seat's hand: the view's own, the others from ``hidden``."""
    out = {seat: [Card.from_code(c) for c in view.get("hand") or []]}
    for s in range(n):
        if s == seat:
            continue
        if s not in hidden.hands:
            raise ViewMismatch(f"no hand given for seat {s}")
        out[s] = list(hidden.hands[s])
    if set(hidden.hands) - set(out):
        raise ViewMismatch(f"hands given for seats {sorted(set(hidden.hands) - set(out))}")
    return out


def combination_from_view(data: Mapping[str, Any], order: SeqOrder = FULL_ORDER) -> Combination:
    """A combination from its view form (:meth:`.Combination.to_json`): a set's rank and
    a sequence's suit and low end read from the cards as they are named (its position in
    the pack's ``order``)."""
    cards = tuple(
        TableCard(
            Card.from_code(x["card"]),
            Card.from_code(x["as"] or x["card"]),
            bool(x.get("crossways")),
        )  # fmt: skip
        for x in data["cards"]
    )
    if data["kind"] == "set":
        return Combination(data["id"], data["owner"], "set", cards, rank=cards[0].named.rank)
    suit = cards[0].named.suit
    if suit is None:
        raise ViewMismatch("a sequence's first card names no suit")
    # stored low to high; an ace first is low (L16)
    rank = cards[0].named.rank
    lo = rank if order is FULL_ORDER else order.pos(rank)
    return Combination(data["id"], data["owner"], "sequence", cards, suit=SUIT_INDEX[suit], lo=lo)
