"""The actions of the rummy variants (foster, foster-three, colonel).

Every action has a JSON form and a one-line text form ``"<seat> <type> <args>"``:

>>> a = action_from_text("2 layout 7H 8H JK=9H")
>>> a.to_json()
{'type': 'layout', 'seat': 2, 'cards': ['7H', '8H', 'JK=9H']}
>>> action_from_json({"type": "add", "seat": 0, "combination": 3, "card": "JK=10H"}).text
'0 add 3 JK=10H'
>>> action_from_text("1 draw stock 7H").describe()
'draws 7H from the stock'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import (
    Action,
    ActionTable,
    BareAction,
    HandCardAction,
    NewCombination,
    Role,
    register_bare,
)
from ..cards import Card
from ..combinations import Placed
from ..errors import InvalidActionError
from ..i18n import gettext_noop
from ..words import combination_words, name_of
from ..words import gettext as _

__all__ = [
    "Accept",
    "Add",
    "Challenge",
    "Decline",
    "Discard",
    "Draw",
    "Layout",
    "MoveJoker",
    "RUMMY_ACTIONS",
    "TakeBack",
    "action_from_json",
    "action_from_text",
]

#: The rummy family's action notation (Foster's games and Colonel).
RUMMY_ACTIONS = ActionTable("the rummy games")
register = RUMMY_ACTIONS.register
action_from_json = RUMMY_ACTIONS.from_json
action_from_text = RUMMY_ACTIONS.from_text

ENDS = ("low", "high")


def _end(value: object) -> str | None:
    if value is None or isinstance(value, str) and value in ENDS:
        return value
    raise InvalidActionError(f"end is 'low' or 'high', not {value!r}")


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidActionError(f"bad {what} {value!r}")
    return value


def _draw_json(d: dict[str, Any]) -> Action:
    card = d.get("card")
    return Draw(d["seat"], d["source"], None if card is None else Card.from_code(card))


def _draw_text(seat: int, args: list[str]) -> Action:
    if len(args) not in (1, 2):
        raise InvalidActionError("draw pack | draw stock [CARD]")
    return Draw(seat, args[0], Card.from_code(args[1]) if len(args) == 2 else None)


@register(_draw_json, _draw_text)
@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw the top of the pack or of the stock (L11); ``card`` names an exposed stock card."""

    type: ClassVar[str] = "draw"

    def button(self) -> str:
        if self.source == "pack":
            return _("Draw from the pack")
        if self.card is not None:
            return _("Take %(card)s from the stock") % {"card": name_of(self.card.code, the=True)}
        return _("Take the top of the stock")

    source: str = "pack"
    card: Card | None = None

    def __post_init__(self) -> None:
        if self.source not in ("pack", "stock"):
            raise InvalidActionError(f"draw from 'pack' or 'stock', not {self.source!r}")
        if self.card is not None and (self.source != "stock" or not isinstance(self.card, Card)):
            raise InvalidActionError("only a stock draw names a card")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, "seat": self.seat, "source": self.source}
        if self.card is not None:
            d["card"] = self.card.code
        return d

    @property
    def text(self) -> str:
        return f"{self.seat} draw {self.source}" + (f" {self.card.code}" if self.card else "")

    def describe(self) -> str:
        if self.card is not None:
            return _("draws %(card)s from the stock") % {"card": self.card.code}
        return _("draws from the pack") if self.source == "pack" else _("draws from the stock")


def _layout_json(d: dict[str, Any]) -> Action:
    cards = d["cards"]
    if not isinstance(cards, list):
        raise InvalidActionError("cards is a list")
    return Layout(d["seat"], tuple(Placed.from_code(c) for c in cards))


@register(_layout_json, lambda seat, args: Layout(seat, tuple(Placed.from_code(c) for c in args)))
@dataclass(frozen=True, slots=True)
class Layout(NewCombination):
    """Lay out one combination from the hand (L15); wild cards named (L17)."""

    type: ClassVar[str] = "layout"
    verb: ClassVar[str] = gettext_noop("lays out")

    def __post_init__(self) -> None:
        if not self.cards or not all(isinstance(p, Placed) for p in self.cards):
            raise InvalidActionError("a layout lists its cards")


def _one_card(d: dict[str, Any]) -> Placed:
    if "card" in d:
        return Placed.from_code(d["card"])
    cards = d["cards"]
    if not isinstance(cards, list) or len(cards) != 1:
        raise InvalidActionError("cards are added one at a time")
    return Placed.from_code(cards[0])


def _add_json(d: dict[str, Any]) -> Action:
    return Add(d["seat"], _int(d["combination"], "combination"), _one_card(d), _end(d.get("end")))


def _add_text(seat: int, args: list[str]) -> Action:
    if len(args) not in (2, 3):
        raise InvalidActionError("add COMBINATION CARD [low|high]")
    end = _end(args[2]) if len(args) == 3 else None
    return Add(seat, _int(int(args[0]), "combination"), Placed.from_code(args[1]), end)


@dataclass(frozen=True, slots=True)
class OntoCombination(Action):
    """One card from the hand played onto a combination on the table (``target``):
    ``end`` ("low"/"high") only where the card would fit either end."""

    combination: int
    card: Placed
    end: str | None = None
    needs: ClassVar[str] = ""  # what a selection must be, said when it is not

    def hand_codes(self) -> list[str]:
        return [self.card.card.code]

    def target(self) -> int | None:
        return self.combination

    @classmethod
    def from_selection(cls, seat: int, cards: list[str], target: int | None) -> Action:
        if target is None or len(cards) != 1:
            raise InvalidActionError(cls.needs)
        return cls(seat, target, Placed.from_code(cards[0]))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": self.type,
            "seat": self.seat,
            "combination": self.combination,
            "card": self.card.code,
        }
        if self.end is not None:
            d["end"] = self.end
        return d

    @property
    def text(self) -> str:
        tail = f" {self.end}" if self.end else ""
        return f"{self.seat} {self.type} {self.combination} {self.card.code}{tail}"


@register(_add_json, _add_text)
@dataclass(frozen=True, slots=True)
class Add(OntoCombination):
    """Add one card to any combination on the table (L15, L19).

    ``end`` ("low"/"high") is given only when the card fits both ends (an ace on 2..K).
    """

    type: ClassVar[str] = "add"
    ROLE: ClassVar[Role] = Role.ADD
    needs: ClassVar[str] = "one card onto one combination"

    def describe(self) -> str:
        return _("adds %(card)s to %(combination)s") % {
            "card": self.card.code,
            "combination": combination_words(self.combination),
        }


def _move_json(d: dict[str, Any]) -> Action:
    return MoveJoker(
        d["seat"], _int(d["combination"], "combination"), _one_card(d), _end(d.get("end"))
    )


def _move_text(seat: int, args: list[str]) -> Action:
    if len(args) not in (2, 3):
        raise InvalidActionError("move-joker COMBINATION CARD [low|high]")
    end = _end(args[2]) if len(args) == 3 else None
    return MoveJoker(seat, _int(int(args[0]), "combination"), Placed.from_code(args[1]), end)


@register(_move_json, _move_text)
@dataclass(frozen=True, slots=True)
class MoveJoker(OntoCombination):
    """L18: move an end joker of a sequence to the other end and play ``card`` that fits.

    The card goes where the joker was or just beyond its new place; which joker moves
    follows from that. ``end`` (where the card lands) is given only when ambiguous.
    """

    type: ClassVar[str] = "move-joker"
    ROLE: ClassVar[Role] = Role.MOVE_JOKER
    needs: ClassVar[str] = "one card where the joker stands"

    def describe(self) -> str:
        return _("moves the joker of %(combination)s and plays %(card)s") % {
            "card": self.card.code,
            "combination": combination_words(self.combination),
        }


def discard_from_text(seat: int, args: list[str]) -> Action:
    if len(args) != 1:
        raise InvalidActionError("discard CARD")
    return Discard(seat, Card.from_code(args[0]))


def discard_from_json(d: dict[str, Any]) -> Action:
    return Discard(d["seat"], Card.from_code(d["card"]))


@register(discard_from_json, discard_from_text)
@dataclass(frozen=True, slots=True)
class Discard(HandCardAction):
    """Discard one card face up on the stock, ending the turn (L15, L21)."""

    type: ClassVar[str] = "discard"
    ROLE: ClassVar[Role] = Role.DISCARD

    def describe(self) -> str:
        return _("discards %(card)s") % {"card": self.card.code}


@dataclass(frozen=True, slots=True)
class TakeBack(BareAction):
    """L20-style correction before the discard: the cards laid out or added this turn
    (and any joker moved) go back as they were; the player may then play again."""

    type: ClassVar[str] = "take-back"
    label: ClassVar[str] = gettext_noop("Take back this turn's cards")
    verb: ClassVar[str] = gettext_noop("takes back this turn's cards")


@dataclass(frozen=True, slots=True)
class Challenge(BareAction):
    """Colonel: challenge the opponent, on one's turn before drawing."""

    type: ClassVar[str] = "challenge"
    ROLE: ClassVar[Role] = Role.DECISION
    label: ClassVar[str] = gettext_noop("Challenge the opponent")
    risks: ClassVar[str] = gettext_noop(
        "If your opponent accepts, the deal ends at once: both hands are counted, and the "
        "lower hand wins the other's points (equal hands score nothing). Your hand counts "
        "{pips}. If your opponent declines, play goes on and you draw as usual."
    )
    verb: ClassVar[str] = gettext_noop("challenges")


@dataclass(frozen=True, slots=True)
class Accept(BareAction):
    """Colonel: accept a challenge; the lower hand wins the other's pips."""

    type: ClassVar[str] = "accept"
    label: ClassVar[str] = gettext_noop("Accept the challenge")
    verb: ClassVar[str] = gettext_noop("accepts the challenge")


@dataclass(frozen=True, slots=True)
class Decline(BareAction):
    """Colonel: decline a challenge; the challenger plays on."""

    type: ClassVar[str] = "decline"
    label: ClassVar[str] = gettext_noop("Decline the challenge")
    verb: ClassVar[str] = gettext_noop("declines the challenge")


for _cls in (TakeBack, Challenge, Accept, Decline):
    register_bare(RUMMY_ACTIONS, _cls)
