"""Combinations on the table: sequences and sets, wild cards and their names (L15-L18).

A card placed in a combination is a :class:`Placed`: the physical card and the card it
stands for. A natural card stands for itself (``"7H"``); a wild card is written with its
name, ``"JK=9H"`` (a joker named the nine of hearts, L17) or ``"2S=9H"`` when the two
spade twos are the jokers (Dalton's option). A 2S named as itself is simply the natural
two of spades.

Sequence positions run 1 (ace low) .. 13 (king) .. 14 (ace high), so ``A 2 3`` is 1-3
and ``Q K A`` is 12-14; nothing can go round the corner (``K A 2``, L16).

>>> Placed.from_code("JK=9H").code, Placed.from_code("7H").is_wild
('JK=9H', False)
>>> build([Placed.from_code(c) for c in "8H JK=9H 7H".split()], wild="jokers").code
'7H 8H JK=9H'
>>> build([Placed.from_code(c) for c in "KH AH 2H".split()], wild="jokers")
Traceback (most recent call last):
...
games.engine.errors.IllegalActionError: K A 2 goes round the corner; the ace is low (A 2 3) or high (Q K A) (L16)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import JOKER, SUITS, Card, Suit
from .errors import IllegalActionError, InvalidActionError
from .words import gettext

# Internal card ids: naturals (rank - 1) * 4 + suit index (C D H S), the joker 52.
JOKER_ID = 52
TWO_OF_SPADES_ID = 7
# The same Card objects as the parser returns, so that identity finds an id quickly.
CARDS: tuple[Card, ...] = tuple(
    Card.from_code(Card(r, s).code) for r in range(1, 14) for s in SUITS
) + (JOKER,)
CARD_ID: dict[Card, int] = {c: i for i, c in enumerate(CARDS)}
_ID_BY_IDENTITY: dict[int, int] = {id(c): i for i, c in enumerate(CARDS)}


def cid_of(card: Card) -> int:
    """The id of a card (by identity first: hashing a dataclass is slow)."""
    i = _ID_BY_IDENTITY.get(id(card))
    return CARD_ID[card] if i is None else i


def cids_of(cards: Sequence[Card]) -> list[int]:
    """The ids of ``cards`` (:func:`cid_of` of each, in one pass)."""
    by_identity = _ID_BY_IDENTITY.get
    out = [by_identity(id(c), -1) for c in cards]
    if -1 in out:
        return [cid_of(c) for c in cards]
    return out


SUIT_INDEX: dict[Suit, int] = {s: i for i, s in enumerate(SUITS)}
WILD_MODES = ("none", "jokers", "spade-twos")


def cid_at(suit: int, pos: int) -> int:
    """Card id at sequence position ``pos`` (1..14) of suit index ``suit``."""
    return ((pos - 1) % 13) * 4 + suit


@dataclass(frozen=True)
class SeqOrder:
    """A pack's sequence order (the rummy family's): its ranks from the ace up, each at a
    position 1 .. ``top``, the ace high at ``top + 1`` (Q K A in the full pack). The full
    pack's positions are its ranks (:data:`FULL_ORDER`); Colonel's 40-card packs
    (CL-opt-1) run A 2 .. 7 J Q K, the jack after the seven, or A 2 .. 10."""

    ranks: tuple[int, ...]

    @property
    def top(self) -> int:
        return len(self.ranks)

    def pos(self, rank: int) -> int:
        """The position of a rank (the ace low: 1); 0 for a rank not in the pack."""
        return self.ranks.index(rank) + 1 if rank in self.ranks else 0

    def cid_at(self, suit: int, pos: int) -> int:
        """Card id at position ``pos`` (1 .. top + 1, the ace again) of suit ``suit``."""
        if self.ranks is _FULL_RANKS:
            return cid_at(suit, pos)
        return (self.ranks[(pos - 1) % self.top] - 1) * 4 + suit

    def pos_bits(self) -> list[int]:
        """For each natural card id, the bits of its positions (the ace: 1 and top + 1)."""
        out = [0] * 52
        for i, r in enumerate(self.ranks):
            for s in range(4):
                out[(r - 1) * 4 + s] = (1 << (i + 1)) | ((1 << (self.top + 1)) if r == 1 else 0)
        return out


_FULL_RANKS = tuple(range(1, 14))
FULL_ORDER = SeqOrder(_FULL_RANKS)


def wild_id(wild: str) -> int:
    """Id of the physical wild card for a wild mode (-1 when nothing is wild)."""
    return JOKER_ID if wild == "jokers" else TWO_OF_SPADES_ID if wild == "spade-twos" else -1


@dataclass(frozen=True, slots=True)
class Placed:
    """A card as placed in a combination: ``card`` is what it is, ``named`` what it is."""

    card: Card
    named: Card

    @property
    def is_wild(self) -> bool:
        return self.card != self.named

    @property
    def code(self) -> str:
        return self.card.code if self.card == self.named else f"{self.card.code}={self.named.code}"

    @classmethod
    def from_code(cls, code: str) -> Placed:
        """``"7H"``, ``"JK=9H"`` or ``"2S=9H"``; a bare ``"JK"`` must be named (L17)."""
        if not isinstance(code, str):
            raise InvalidActionError(f"not a card: {code!r}")
        if "=" in code:
            left, _, right = code.partition("=")
            card, named = Card.from_code(left), Card.from_code(right)
            if named.is_joker:
                raise InvalidActionError(f"a wild card is named as a real card: {code!r}")
            return placed(CARD_ID[card], CARD_ID[named])
        card = Card.from_code(code)
        if card.is_joker:
            raise InvalidActionError("name the joker, e.g. JK=9H (L17)")
        return placed(CARD_ID[card], CARD_ID[card])

    def __str__(self) -> str:
        return self.code


_PLACED: dict[tuple[int, int], Placed] = {}


def placed(phys: int, named: int) -> Placed:
    """The shared :class:`Placed` for a pair of card ids (cached: actions are built often)."""
    key = (phys, named)
    p = _PLACED.get(key)
    if p is None:
        p = _PLACED[key] = Placed(CARDS[phys], CARDS[named])
    return p


@dataclass(frozen=True, slots=True)
class TableCard:
    """A card lying in a combination; ``crossways`` marks a joker moved once (L18)."""

    card: Card
    named: Card
    crossways: bool = False

    def to_json(self) -> dict[str, object]:
        return {"card": self.card.code, "as": self.named.code, "crossways": self.crossways}


@dataclass(frozen=True, slots=True)
class Combination:
    """A sequence (``suit`` index, positions ``lo``..``hi``) or a set (``rank``).

    Cards of a sequence are stored low to high. Combinations never shrink (L18: every
    card stays where it was placed, only an end joker may move once).
    """

    id: int
    owner: int
    kind: str  # "sequence" or "set"
    cards: tuple[TableCard, ...]
    suit: int = -1
    rank: int = 0
    lo: int = 0
    # The hash, kept once made (0: not yet): searches key their memos by the table's
    # combinations (Tunk's last turns), and hashing every card again cost a fifth of them.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        """The dataclass's own hash (of the compared fields, in order), made once."""
        h = self._hash
        if not h:
            h = hash((self.id, self.owner, self.kind, self.cards, self.suit, self.rank, self.lo))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> tuple[object, ...]:
        """Pickled without the kept hash: a string's hash differs from process to process."""
        return (self.id, self.owner, self.kind, self.cards, self.suit, self.rank, self.lo)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for name, value in zip(_COMBINATION_FIELDS, state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_hash", 0)

    @property
    def hi(self) -> int:
        return self.lo + len(self.cards) - 1

    @property
    def code(self) -> str:
        return " ".join(Placed(t.card, t.named).code for t in self.cards)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "owner": self.owner,
            "kind": self.kind,
            "cards": [t.to_json() for t in self.cards],
        }


_COMBINATION_FIELDS = ("id", "owner", "kind", "cards", "suit", "rank", "lo")


def is_wild_card(card: Card, wild: str) -> bool:
    return (wild == "jokers" and card.is_joker) or (
        wild == "spade-twos" and card.rank == 2 and card.suit is Suit.SPADES
    )


def check_wilds(cards: Sequence[Placed], wild: str) -> None:
    """Every card named other than itself must be a wild card of this deal (L17)."""
    for p in cards:
        if p.card.is_joker and wild != "jokers":
            raise IllegalActionError(gettext("there is no joker in this pack"), law="L1")
        if p.is_wild and not is_wild_card(p.card, wild):
            raise IllegalActionError(
                gettext("%(card)s is not wild; only a joker is named") % {"card": p.card.code},
                law="L17",
            )


def set_free_suit(mask: int) -> int:
    """The suit a wild card in a set is shown as: the first suit not yet in it (C D H S)."""
    for s in range(4):
        if not mask >> s & 1:
            return s
    return 0


def build(
    cards: Sequence[Placed],
    *,
    wild: str,
    owner: int = 0,
    cid: int = 0,
    named: bool = False,
    order: SeqOrder = FULL_ORDER,
) -> Combination:
    """Validate one new combination (L15-L17) and return it in canonical order.

    Sets are all one rank (wild cards shown as a free suit, or, ``named``, as the names
    given: the holder's, L17); sequences are one suit in unbroken order, the ace low or
    high but not both (L16).
    """
    check_wilds(cards, wild)
    if len(cards) < 3:
        raise IllegalActionError(gettext("a combination has at least three cards"), law="L15")
    names = [p.named for p in cards]
    if all(n.rank == names[0].rank for n in names):
        return _build_set(cards, wild, owner, cid, named)
    suit = names[0].suit
    if any(n.suit is not suit for n in names):
        raise IllegalActionError(
            gettext("not a combination: a sequence is in one suit, a set is of one rank"), law="L15"
        )
    assert suit is not None
    full = order is FULL_ORDER
    ranks = sorted(n.rank if full else order.pos(n.rank) for n in names)
    if not full and ranks[0] == 0:
        raise IllegalActionError(gettext("a card named there is not in this pack"), law="CL-opt-1")
    if len(set(ranks)) != len(ranks):
        raise IllegalActionError(gettext("a sequence cannot hold the same card twice"), law="L15")
    top, high = order.top, order.top + 1
    if ranks[0] == 1 and ranks[-1] - ranks[1] == len(ranks) - 2 and ranks[-1] == top:
        pos = sorted(high if r == 1 else r for r in ranks)  # ace high: Q K A
    elif ranks[0] == 1 and ranks[-1] == top and ranks[1] == 2:
        raise IllegalActionError(
            gettext("K A 2 goes round the corner; the ace is low (A 2 3) or high (Q K A)"),
            law="L16",
        )
    else:
        pos = ranks
    if pos[-1] - pos[0] != len(pos) - 1:
        raise IllegalActionError(gettext("a sequence has no gaps"), law="L15")
    by_pos = {
        high if (n.rank == 1 and pos[-1] == high) else (n.rank if full else order.pos(n.rank)): p
        for n, p in zip(names, cards, strict=True)
    }
    ordered = tuple(TableCard(by_pos[q].card, by_pos[q].named) for q in pos)
    return Combination(cid, owner, "sequence", ordered, suit=SUIT_INDEX[suit], lo=pos[0])


def _build_set(
    cards: Sequence[Placed], wild: str, owner: int, cid: int, named: bool = False
) -> Combination:
    rank = cards[0].named.rank
    naturals = sorted((p.card for p in cards if natural_in_set(p, wild)), key=CARD_ID.__getitem__)
    if not naturals:
        raise IllegalActionError(gettext("a combination needs a natural card"), law="L17")
    mask = 0
    for c in naturals:
        assert c.suit is not None
        mask |= 1 << SUIT_INDEX[c.suit]
    out = [TableCard(c, c) for c in naturals]
    for p in cards:
        if not natural_in_set(p, wild):
            if named:
                out.append(TableCard(p.card, p.named))
                continue
            s = set_free_suit(mask)
            mask |= 1 << s
            out.append(TableCard(p.card, CARDS[(rank - 1) * 4 + s]))
    return Combination(cid, owner, "set", tuple(out), rank=rank)


def natural_in_set(p: Placed, wild: str) -> bool:
    # A 2S named as any two is, in a set of twos, just a natural two.
    return not p.is_wild or (p.card.rank == 2 and p.named.rank == 2 and wild == "spade-twos")


def canonical_set_card(p: Placed, combo: Combination, wild: str) -> Placed:
    """The canonical form of a card added to a set (wild cards shown as a free suit)."""
    if natural_in_set(p, wild):
        return placed(CARD_ID[p.card], CARD_ID[p.card])
    mask = 0
    for t in combo.cards:
        assert t.named.suit is not None
        mask |= 1 << SUIT_INDEX[t.named.suit]
    return placed(CARD_ID[p.card], (combo.rank - 1) * 4 + set_free_suit(mask))


def canonical_layout(
    cards: Sequence[Placed], wild: str, order: SeqOrder = FULL_ORDER
) -> tuple[Placed, ...]:
    """Validate and return the canonical order of a layout (sequence low to high)."""
    combo = build(cards, wild=wild, order=order)
    out: list[Placed] = []
    for t in combo.cards:
        out.append(placed(CARD_ID[t.card], CARD_ID[t.named]))
    return tuple(out)
