"""Cards, their text notation, and the packs of every variant.

Notation: rank then suit, ``AS``, ``10H``, ``QD``; the joker is ``JK``. Ranks are
``A 2 .. 10 J Q K`` (``T`` is not accepted: ``10`` is written out). Suits are
``C D H S``. Anything else is rejected with :class:`InvalidActionError`.

>>> Card.from_code("10H")
Card.from_code('10H')
>>> Card.from_code("JK").is_joker, Card.from_code("AS").pips
(True, 11)
>>> Card.from_code("1H")
Traceback (most recent call last):
...
games.engine.errors.InvalidActionError: not a card: '1H'
"""

from __future__ import annotations

import _random
import random
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter

from .errors import InvalidActionError

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
JOKER_RANK = 0


class Suit(Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_RANK_CODES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_FROM_CODE = {"A": 1, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 11)}
_SUIT_FROM_CODE = {s.value: s for s in SUITS}
_RANK_NAMES = {
    0: "joker", 1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
    7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king",
}  # fmt: skip


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card by value. Duplicates in a double pack are equal (they are interchangeable).

    ``rank`` is 1 (ace) .. 13 (king), or 0 for the joker (whose ``suit`` is None).
    """

    rank: int
    suit: Suit | None
    # Where the card sorts in a hand ordered by rank, then suit (C D H S); the joker
    # first. Kept on the card (a slot, read in C by ``attrgetter``) because sorting a
    # hand by a Python key function was a large part of a short deal's cost (Tonk).
    order: int = field(init=False, repr=False, compare=False)
    # The card's code ("10H", "JK"), made once: every record of a move names its cards.
    code: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit is not None:
                raise InvalidActionError("a joker has no suit")
        elif not (1 <= self.rank <= 13) or self.suit is None:
            raise InvalidActionError(f"not a card: rank {self.rank!r} suit {self.suit!r}")
        suit = 0 if self.suit is None else SUITS.index(self.suit)
        object.__setattr__(self, "order", self.rank * 4 + suit)
        code = (
            "JK"
            if self.suit is None
            else _RANK_CODES.get(self.rank, str(self.rank)) + self.suit.value
        )
        object.__setattr__(self, "code", code)

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse ``AS``, ``10H``, ``JK`` (case-sensitive, no spaces)."""
        card = _PARSED.get(code) if isinstance(code, str) else None
        if card is None:
            raise InvalidActionError(f"not a card: {code!r}")
        return card

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def pips(self) -> int:
        """Foster's paying value (L24): joker 15, ace 11, K Q J 10, others face value."""
        if self.suit is None:
            return 15
        if self.rank == ACE:
            return 11
        return min(self.rank, 10)

    @property
    def cut_rank(self) -> int:
        """Cutting order (L2): K highest (13) .. 2, then A (1), the joker lowest (0)."""
        return self.rank

    @property
    def name(self) -> str:
        """Accessible name: ``"seven of hearts"``, ``"joker"``."""
        if self.suit is None:
            return "joker"
        return f"{_RANK_NAMES[self.rank]} of {self.suit.name.lower()}"

    def __hash__(self) -> int:
        # ``order`` is unique to a rank and suit, and equal cards share it. The hash a
        # dataclass makes builds a tuple and hashes the suit through Enum's Python-level
        # __hash__; cards are hashed in every set of legal actions and every cached view.
        return self.order

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"


#: The key that sorts cards by rank, then suit (C D H S): ``sorted(hand, key=IN_ORDER)``.
IN_ORDER = attrgetter("order")

JOKER = Card(JOKER_RANK, None)
_ALL = [Card(r, s) for s in SUITS for r in range(1, 14)]
_PARSED: dict[str, Card] = {c.code: c for c in _ALL} | {"JK": JOKER}


def parse_cards(codes: str) -> list[Card]:
    """Parse a space-separated list: ``parse_cards("AS 2S 3S")``."""
    return [Card.from_code(c) for c in codes.split()]


class PackKind(Enum):
    """The packs the sources use."""

    DOUBLE_WITH_JOKERS = "double"  # L1: two packs and two jokers, 106 cards
    DOUBLE_NO_JOKERS = "double-no-jokers"  # Dalton: use the two 2S as jokers
    SINGLE = "single"  # three players (special law 1), Colonel: 52 cards
    SINGLE_WITH_JOKER = "single-joker"  # three players with one joker: 53 cards
    FORTY_FOSTER = "forty"  # Conquian, Foster: A..10 of each suit
    FORTY_SPANISH = "forty-spanish"  # Conquian, Spanish: A..7 J Q K (J follows 7)


def make_pack(kind: PackKind) -> list[Card]:
    """A fresh pack in a fixed, documented order (suits C D H S, ranks A..K; jokers last).

    >>> [len(make_pack(k)) for k in PackKind]
    [106, 104, 52, 53, 40, 40]
    """
    single = list(_ALL)
    if kind is PackKind.DOUBLE_WITH_JOKERS:
        return single + single + [JOKER, JOKER]
    if kind is PackKind.DOUBLE_NO_JOKERS:
        return single + single
    if kind is PackKind.SINGLE:
        return single
    if kind is PackKind.SINGLE_WITH_JOKER:
        return single + [JOKER]
    if kind is PackKind.FORTY_FOSTER:
        return [c for c in single if c.rank <= 10]
    return [c for c in single if c.rank <= 7 or c.rank >= JACK]


def shuffle_seeded[T](items: list[T], seed: int | None) -> list[T]:
    """``random.Random(seed).shuffle(items)``, the same order card for card, with the
    generator's C calls made here rather than through ``Random._randbelow`` for every
    card (the rummy games and Conquián deal so; their golden logs hold the order). The
    loop is CPython's own (3.12 and 3.13): ``j`` drawn below ``i + 1`` from
    ``getrandbits(k)``, ``k`` the bit length of ``i + 1``, drawn again while too large.

    >>> import random
    >>> a, b = list(range(52)), list(range(52))
    >>> random.Random(9).shuffle(a); a == shuffle_seeded(b, 9)
    True
    """
    bits = _generator(seed).getrandbits
    for i, k in _steps(len(items)):  # j >= i + 1 is j > i
        j = bits(k)
        while j > i:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
    return items


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """The shuffle's steps for ``size`` items: each place ``i`` from the last down to 1,
    with the bit length of ``i + 1`` (made once a size: a pack's size is one of six)."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def shuffled(pack: list[Card], seed: int) -> list[Card]:
    """The pack shuffled by ``seed`` (the one-pack games, Tonk's and Tunk's): Fisher-Yates drawing each place from the seeded
    generator's ``random()`` (its C call, where ``Random.shuffle`` asks a Python method
    for every card: about twice as fast, a short deal's largest single cost). The float's
    53 bits make the bias of ``int(random() * n)`` for n <= 52 immeasurable.

    >>> [c.code for c in shuffled(make_pack(PackKind.SINGLE), 7)[:5]]
    ['QC', '10C', 'AC', '3S', '4H']
    """
    draw = _generator(seed).random
    for i, n in _places(len(pack)):
        j = int(draw() * n)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def _places(size: int) -> tuple[tuple[int, int], ...]:
    """Each place ``i`` of :func:`shuffled`'s loop, from the last down to 1, with ``i + 1``
    (made once a size)."""
    places = _PLACES.get(size)
    if places is None:
        places = _PLACES[size] = tuple((i, i + 1) for i in range(size - 1, 0, -1))
    return places


_PLACES: dict[int, tuple[tuple[int, int], ...]] = {}


def _generator(seed: int | None) -> random.Random | _random.Random:
    """``random.Random(seed)`` for drawing, or for an int its C base made directly: the
    same generator seeded the same way (``Random.seed`` hands an int straight to it),
    without the Python ``__init__`` and ``seed`` around it."""
    if type(seed) is int:
        return _random.Random(seed)
    return random.Random(seed)


def dealing_pack(
    whole: list[Card], seed: int | None, pack: list[Card] | None, what: str
) -> tuple[list[Card], int | None]:
    """The order a deal is dealt from, and its seed: ``pack`` as given (refused unless
    it is ``whole`` reordered: ``what`` says what it must be), or ``whole`` shuffled by
    ``seed`` (a fresh seed when none)."""
    if pack is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        return shuffled(whole, seed), seed
    if Counter(pack) != Counter(whole):
        raise InvalidActionError(f"{what}, each once")
    return list(pack), seed
