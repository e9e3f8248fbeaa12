"""Conquián's cards on the engine's card numbering, with each pack's sequence order.

A card is its :data:`~games.engine.combinations.CARD_ID`: ``(rank - 1) * 4 + suit`` (suits
C D H S), as in every other game of the engine (issue 58: Conquián's private ``suit * 10 +
place`` is gone). What differs by pack is the order of a suit's cards in a sequence:
Foster's forty A 2 .. 10 (2-hand law 1), the Spanish forty A 2 .. 7 J Q K with the jack
following the seven (encyclopedia), the full 52 A 2 .. K. The ace is low only, in every
pack (CO1): nothing follows the top card of a suit.

In every pack the ranks of a suit rise along its sequence order, so cards of one suit
sorted by id are in sequence order (a combination's cards are kept so).

>>> from ..cards import Card
>>> from ..combinations import CARD_ID, CARDS
>>> spanish = ORDERS["spanish"]
>>> CARDS[spanish.above(CARD_ID[Card.from_code("7H")])].code  # the jack follows the seven
'JH'
>>> spanish.above(CARD_ID[Card.from_code("KH")]) is None  # and nothing the king (CO1)
True
>>> spanish.up[CARD_ID[Card.from_code("KH")]], spanish.place[CARD_ID[Card.from_code("8H")]]
(-1, -1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import Card
from ..combinations import CARDS

_NONE = -1


@dataclass(frozen=True)
class PackOrder:
    """A pack's ranks in a suit's sequence order, and what follows from it.

    For speed the rules read three tables indexed by card id (52 entries, -1 where there is
    none): ``place`` (the card's place in its suit, -1 for a card not in the pack), ``up``
    (the card that follows it) and ``down`` (the card before it).
    """

    ranks: tuple[int, ...]
    place: tuple[int, ...] = field(init=False, repr=False, compare=False)
    up: tuple[int, ...] = field(init=False, repr=False, compare=False)
    down: tuple[int, ...] = field(init=False, repr=False, compare=False)
    suits: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    index: dict[Card, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        place = [_NONE] * 52
        up = [_NONE] * 52
        down = [_NONE] * 52
        suits = []
        for s in range(4):
            run = [(r - 1) * 4 + s for r in self.ranks]
            suits.append(tuple(run))
            for i, c in enumerate(run):
                place[c] = i
                if i:
                    down[c], up[run[i - 1]] = run[i - 1], c
        object.__setattr__(self, "place", tuple(place))
        object.__setattr__(self, "up", tuple(up))
        object.__setattr__(self, "down", tuple(down))
        object.__setattr__(self, "suits", tuple(suits))
        object.__setattr__(self, "index", {CARDS[c]: c for run in suits for c in run})

    def __len__(self) -> int:
        return 4 * len(self.ranks)

    def ids(self) -> tuple[int, ...]:
        """Every card of the pack, by card id, suit by suit in sequence order."""
        return tuple(c for run in self.suits for c in run)

    def cards(self) -> tuple[Card, ...]:
        """Every card of the pack, suit by suit in sequence order."""
        return tuple(CARDS[c] for c in self.ids())

    def at(self, suit: int, place: int) -> int | None:
        """The card at ``place`` of ``suit``, None off either end (the ace low only)."""
        if not 0 <= place < len(self.ranks) or not 0 <= suit < 4:
            return None
        return self.suits[suit][place]

    def above(self, cid: int) -> int | None:
        """The card that follows ``cid`` in a sequence, None after the top card."""
        c = self.up[cid]
        return None if c < 0 else c

    def below(self, cid: int) -> int | None:
        """The card that comes before ``cid`` in a sequence, None before the ace."""
        c = self.down[cid]
        return None if c < 0 else c

    def is_sequence(self, cids: Sequence[int]) -> bool:
        """Three or more cards of one suit in unbroken order (in any order given)."""
        if len(cids) < 3 or len({c % 4 for c in cids}) != 1:
            return False
        places = sorted(self.place[c] for c in cids)
        if places[0] < 0:
            return False
        return places[-1] - places[0] == len(places) - 1 == len(set(places)) - 1


def by_suit(cid: int) -> int:
    """The key a hand is held in: suit by suit (C D H S), each in sequence order."""
    return (cid & 3) << 6 | cid


ORDERS: dict[str, PackOrder] = {
    "forty": PackOrder(tuple(range(1, 11))),
    "spanish": PackOrder((1, 2, 3, 4, 5, 6, 7, 11, 12, 13)),
    "full": PackOrder(tuple(range(1, 14))),
}
