"""Conquián's cards on the engine's card numbering, with each pack's sequence order
(issue 58, the first step of the move off the private numbering).

A card is its :data:`~games.engine.combinations.CARD_ID`: ``(rank - 1) * 4 + suit`` (suits
C D H S), as in every other game of the engine. What differs by pack is the order of a
suit's cards in a sequence: Foster's forty A 2 .. 10 (2-hand law 1), the Spanish forty
A 2 .. 7 J Q K with the jack following the seven (encyclopedia), the full 52 A 2 .. K. The
ace is low only, in every pack (CO1): nothing follows the top card of a suit.

Today's rules still work on the private numbering of :mod:`.melds` (``suit * 10 +
place``); :meth:`PackOrder.private` and :meth:`PackOrder.from_private` translate between
the two, for the move and for the snapshots written before it.

>>> from ..cards import Card
>>> from ..combinations import CARD_ID, CARDS
>>> spanish = ORDERS["spanish"]
>>> CARDS[spanish.above(CARD_ID[Card.from_code("7H")])].code  # the jack follows the seven
'JH'
>>> spanish.above(CARD_ID[Card.from_code("KH")]) is None  # and nothing the king (CO1)
True
>>> spanish.private(CARD_ID[Card.from_code("JH")])  # hearts (2) * 10 + the jack's place 7
27
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PackOrder:
    """A pack's ranks in a suit's sequence order, and what follows from it."""

    ranks: tuple[int, ...]
    _place: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_place", {r: i for i, r in enumerate(self.ranks)})

    def ids(self) -> tuple[int, ...]:
        """Every card of the pack, by card id, suit by suit in sequence order."""
        return tuple((r - 1) * 4 + s for s in range(4) for r in self.ranks)

    def place(self, cid: int) -> int:
        """The card's place in its suit's sequence order (0 for the ace)."""
        return self._place[cid // 4 + 1]

    def at(self, suit: int, place: int) -> int | None:
        """The card at ``place`` of ``suit``, None off either end (the ace low only)."""
        if not 0 <= place < len(self.ranks) or not 0 <= suit < 4:
            return None
        return (self.ranks[place] - 1) * 4 + suit

    def above(self, cid: int) -> int | None:
        """The card that follows ``cid`` in a sequence, None after the top card."""
        return self.at(cid % 4, self.place(cid) + 1)

    def below(self, cid: int) -> int | None:
        """The card that comes before ``cid`` in a sequence, None before the ace."""
        return self.at(cid % 4, self.place(cid) - 1)

    def is_sequence(self, cids: Sequence[int]) -> bool:
        """Three or more cards of one suit in unbroken order (in any order given)."""
        if len(cids) < 3 or len({c % 4 for c in cids}) != 1:
            return False
        places = sorted(self.place(c) for c in cids)
        return places[-1] - places[0] == len(places) - 1 == len(set(places)) - 1

    def private(self, cid: int) -> int:
        """The card's number in :mod:`.melds` today (``suit * 10 + place``; forty cards)."""
        return (cid % 4) * 10 + self.place(cid)

    def from_private(self, number: int) -> int:
        card = self.at(number // 10, number % 10)
        if card is None or number < 0:
            raise ValueError(f"no card {number} in this pack")
        return card


ORDERS: dict[str, PackOrder] = {
    "forty": PackOrder(tuple(range(1, 11))),
    "spanish": PackOrder((1, 2, 3, 4, 5, 6, 7, 11, 12, 13)),
    "full": PackOrder(tuple(range(1, 14))),
}
