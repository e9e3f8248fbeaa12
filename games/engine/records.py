"""The deal log as records: what happened, typed, never a sentence (issue 39).

Each entry of a deal's log is a :class:`Record`: who (``seat``, ``None`` for the deal
itself), what (``kind``), the cards it names (codes, ``"7C"``; a joker placed as a card
``"JK=7C"``), the combination it touched, a number, and the law it follows. The words are
made from records in one place, :mod:`.words`; a computer player reads the records.

A record whose cards only its seat may see (a draw from the pack) is ``secret``:
:meth:`Record.seen_by` gives every other viewer the record without its cards.

>>> r = Record(2, Kind.DRAW_PACK, "L11", ("7C",), secret=True)
>>> r.seen_by(2).cards, r.seen_by(0).cards, r.seen_by(None).cards
(('7C',), (), ())
>>> Record.from_json(r.to_json()) == r
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple


class Kind(StrEnum):
    """What a log entry records. Shared by every game; a game uses the kinds it has."""

    # Foster's games (Foster, Foster for three, Colonel)
    DEAL = "deal"  # number: cards dealt each; cards: the stock's first card, if any
    DRAW_PACK = "draw-pack"  # cards: the card drawn (secret)
    DRAW_STOCK = "draw-stock"  # cards: the card drawn
    LAYOUT = "layout"  # cards: the combination laid out
    ADD = "add"  # cards: the card added; combination
    MOVE_JOKER = "move-joker"  # cards: the card played; combination
    DISCARD = "discard"  # cards: the card discarded on the stock
    OUT = "out"
    TAKE_BACK = "take-back"
    CHALLENGE = "challenge"
    ACCEPT = "accept"
    DECLINE = "decline"
    TURNOVER = "turnover"  # the stock turned over to become the pack (L25)
    ABANDONED = "abandoned"  # number: how many times the pack ran out
    EXHAUSTED = "exhausted"  # Colonel: the pack ran out
    # Conquián
    TURN_UP_DEAL = "turn-up-deal"  # cards: the dealer's 21st card, turned up
    TRADE = "trade"  # a card passed face down (not named)
    TURN_UP = "turn-up"  # cards: the card turned up from the pack
    REFUSE = "refuse"  # cards: the card in play
    TURN_DOWN = "turn-down"  # cards: the card refused a second time, dead
    USE = "use"  # cards: the card in play, then the hand's; borrowed; combination if added
    MELD = "meld"  # cards: the hand's; borrowed; combination if added to one
    FORCE = "force"  # cards: the card forced; combination
    THROW = "throw"  # cards: the card discarded beside the pack
    ELEVEN = "eleven"  # eleven cards down: the seat wins
    TABLEAU = "tableau"  # the pack exhausted: nobody won
    # Tonk (a draw from the pack, the discard, going out and the pack's end as above)
    TONK_CALL = "tonk-call"  # T4: calls Tonk on the deal
    NO_CALL = "no-call"  # TO5: the call round over with no call (seat None; a seat: before)
    DRAWN = "drawn"  # T4: number: the calls that drew the deal
    DROP = "drop"  # T9: number: the dropper's count
    PLUCK = "pluck"  # cards: the stock's top card taken
    SPREAD = "spread"  # cards: the spread laid; combination: its number
    HIT = "hit"  # cards: the card added; combination: the spread hit
    REFUSE_STOCK = "refuse-stock"  # T10: the pack empty, the stock refused: the deal ends
    # Tunk (the draw, the pluck and the discard as above)
    TUNK = "tunk-call"  # K7: cards: the Tunker's melds shown; number: his unmatched count
    SHOW = "show"  # K8: a last turn: cards: the melds laid down; number: the count left
    LAY_OFF = "lay-off"  # K8: cards: the card laid off; combination: the Tunker's meld
    BREAK = "break"  # K11: fewer cards in the pack than players: the deal is drawn


class Record(NamedTuple):
    """One entry of a deal's log (immutable; a tuple for the engine's speed)."""

    seat: int | None
    kind: Kind
    law: str
    cards: tuple[str, ...] = ()
    combination: int | None = None
    number: int | None = None
    borrowed: tuple[str, ...] = ()
    secret: bool = False

    def seen_by(self, viewer: int | None) -> Record:
        """The record as ``viewer`` (a seat, ``None``: a spectator) may see it."""
        if self.secret and viewer != self.seat:
            return self._replace(cards=(), borrowed=())
        return self

    def to_json(self) -> dict[str, Any]:
        """The view's and the replay file's form: only what the record has (a snapshot
        keeps the compact :meth:`to_row`)."""
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind.value, "law": self.law}
        if self.cards:
            out["cards"] = list(self.cards)
        if self.combination is not None:
            out["combination"] = self.combination
        if self.number is not None:
            out["number"] = self.number
        if self.borrowed:
            out["borrowed"] = list(self.borrowed)
        if self.secret:
            out["secret"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """The record :meth:`to_json` wrote (a view's entry, a replay file's); ``KeyError``
        or ``ValueError`` on a malformed one."""
        return cls.from_row(
            [
                data["seat"], data["kind"], data["law"], data.get("cards") or [],
                data.get("combination"), data.get("number"), data.get("borrowed") or [],
                data.get("secret") is True,
            ]
        )  # fmt: skip

    def to_row(self) -> list[Any]:
        """The snapshot's compact form: the fields in order, the trailing defaults left
        out (a stored deal is read and written at every action)."""
        if self.secret:
            return [self.seat, self.kind.value, self.law, list(self.cards), self.combination,
                    self.number, list(self.borrowed), True]  # fmt: skip
        if self.borrowed:
            return [self.seat, self.kind.value, self.law, list(self.cards), self.combination,
                    self.number, list(self.borrowed)]  # fmt: skip
        if self.number is not None:
            return [self.seat, self.kind.value, self.law, list(self.cards), self.combination,
                    self.number]  # fmt: skip
        if self.combination is not None:
            return [self.seat, self.kind.value, self.law, list(self.cards), self.combination]
        if self.cards:
            return [self.seat, self.kind.value, self.law, list(self.cards)]
        return [self.seat, self.kind.value, self.law]

    @classmethod
    def from_row(cls, row: list[Any]) -> Record:
        """The record :meth:`to_row` wrote (``ValueError`` on a malformed one)."""
        n = len(row) if type(row) is list else 0
        if not 3 <= n <= 8:
            raise ValueError(f"not a log record: {row!r}")
        seat, kind, law = row[0], _KINDS.get(row[1]), row[2]
        cards = _codes(row[3]) if n > 3 and row[3] else ()
        combination = row[4] if n > 4 else None
        number = row[5] if n > 5 else None
        borrowed = _codes(row[6]) if n > 6 and row[6] else ()
        if (
            kind is None
            or not (seat is None or type(seat) is int)
            or type(law) is not str
            or not (combination is None or type(combination) is int)
            or not (number is None or type(number) is int)
        ):
            raise ValueError(f"not a log record: {row!r}")
        return cls(seat, kind, law, cards, combination, number, borrowed, n > 7 and row[7] is True)


_KINDS = {k.value: k for k in Kind}


def _codes(codes: Any) -> tuple[str, ...]:
    out = tuple(codes)
    if not all(type(c) is str for c in out):
        raise ValueError(f"not card codes: {codes!r}")
    return out
