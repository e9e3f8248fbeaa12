"""Tonk's actions and their notation (its own: "draw" here is not the rummy games').

Every action has a JSON form and a one-line text form ``"<seat> <type> <args>"``:

>>> a = TONK_ACTIONS.from_text("2 spread 7H 8H 2C=9H")
>>> a.to_json()
{'type': 'spread', 'seat': 2, 'cards': ['7H', '8H', '2C=9H']}
>>> TONK_ACTIONS.from_json({"type": "hit", "seat": 0, "spread": 3, "card": "10H"}).text
'0 hit 3 10H'
>>> TONK_ACTIONS.from_text("1 pluck").describe()
'plucks the top card of the stock'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import Action, ActionTable, BareAction, NewCombination, Role, register_bare
from ..combinations import Placed
from ..errors import InvalidActionError
from ..i18n import gettext_noop
from ..rummy.moves import Discard, discard_from_json, discard_from_text
from ..words import pgettext, spread_words

__all__ = ["TONK_ACTIONS", "Call", "Discard", "DrawPack", "Drop", "Hit", "NoCall", "Pluck",
           "Refuse", "Spread"]  # fmt: skip

#: Tonk's action notation.
TONK_ACTIONS = ActionTable("Tonk")
register = TONK_ACTIONS.register


def _bare(cls: type[BareAction]) -> type[BareAction]:
    return register_bare(TONK_ACTIONS, cls)


@_bare
@dataclass(frozen=True, slots=True)
class Call(BareAction):
    """T4: call Tonk on the deal (a dealt hand of courts, TO5)."""

    type: ClassVar[str] = "call"
    label: ClassVar[str] = gettext_noop("Call Tonk")
    verb: ClassVar[str] = gettext_noop("calls Tonk")


@_bare
@dataclass(frozen=True, slots=True)
class NoCall(BareAction):
    """TO5: let the chance to call Tonk on the deal go by."""

    type: ClassVar[str] = "no-call"
    label: ClassVar[str] = gettext_noop("Do not call Tonk")
    verb: ClassVar[str] = gettext_noop("does not call Tonk")


@_bare
@dataclass(frozen=True, slots=True)
class Drop(BareAction):
    """T9: at the start of the turn, before drawing, show the hand and end the deal."""

    type: ClassVar[str] = "drop"
    ROLE: ClassVar[Role] = Role.DECISION
    label: ClassVar[str] = gettext_noop("Drop")
    risks: ClassVar[str] = gettext_noop(
        "The deal ends at once and every hand is counted. If yours is the lowest, lower "
        "than every other, you win 1 point from each player; if another's is as low or "
        "lower, you are caught and pay 2 to each, and a player lower than you wins 1 more "
        "from each. Your hand counts {pips}."
    )
    verb: ClassVar[str] = gettext_noop("drops")


@_bare
@dataclass(frozen=True, slots=True)
class DrawPack(BareAction):
    """T5: draw the top card of the pack."""

    type: ClassVar[str] = "draw"
    label: ClassVar[str] = gettext_noop("Draw from the pack")
    verb: ClassVar[str] = gettext_noop("draws from the pack")


@_bare
@dataclass(frozen=True, slots=True)
class Pluck(BareAction):
    """T5: take the top card of the stock ("plucking"); it may not be this turn's
    discard (TO6, TO10)."""

    type: ClassVar[str] = "pluck"
    label: ClassVar[str] = gettext_noop("Pluck the top card of the stock")
    verb: ClassVar[str] = gettext_noop("plucks the top card of the stock")


@_bare
@dataclass(frozen=True, slots=True)
class Refuse(BareAction):
    """T10, TO13: with the pack empty, decline the stock's top card: the deal ends."""

    type: ClassVar[str] = "refuse"
    label: ClassVar[str] = gettext_noop("Refuse the stock: end the deal")
    verb: ClassVar[str] = gettext_noop("refuses the stock: the deal ends")


def _placed(cards: object) -> tuple[Placed, ...]:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise InvalidActionError("cards is a list of card codes")
    return tuple(Placed.from_code(c) for c in cards)


@register(
    lambda d: Spread(d["seat"], _placed(d["cards"])),
    lambda seat, args: Spread(seat, _placed(args)),
)
@dataclass(frozen=True, slots=True)
class Spread(NewCombination):
    """T6: lay a set or a run from the hand face up (a wild two named: ``2C=9H``, TO7)."""

    type: ClassVar[str] = "spread"
    selection: ClassVar[str] = gettext_noop("Spread the selected cards")
    verb: ClassVar[str] = gettext_noop("spreads")

    def __post_init__(self) -> None:
        if len(self.cards) < 3:
            raise InvalidActionError("a spread is three cards or more (TO2)")


def _index(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidActionError(f"bad spread {value!r}")
    return value


def _hit_text(seat: int, args: list[str]) -> Action:
    if len(args) != 2:
        raise InvalidActionError("hit SPREAD CARD")
    return Hit(seat, _index(int(args[0])), Placed.from_code(args[1]))


@register(lambda d: Hit(d["seat"], _index(d["spread"]), Placed.from_code(d["card"])), _hit_text)
@dataclass(frozen=True, slots=True)
class Hit(Action):
    """T7: add one card from the hand to any spread on the table."""

    type: ClassVar[str] = "hit"
    aim: ClassVar[str] = gettext_noop("Hit")
    ROLE: ClassVar[Role] = Role.ADD

    def hand_codes(self) -> list[str]:
        return [self.card.card.code]

    def target(self) -> int | None:
        return self.spread

    spread: int
    card: Placed

    @classmethod
    def from_selection(cls, seat: int, cards: list[str], target: int | None) -> Action:
        if target is None or len(cards) != 1:
            raise InvalidActionError("one card onto one spread")
        return cls(seat, target, Placed.from_code(cards[0]))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "spread": self.spread, "card": self.card.code}

    @property
    def text(self) -> str:
        return f"{self.seat} hit {self.spread} {self.card.code}"

    def describe(self) -> str:
        return pgettext("game term", "hits %(spread)s with %(card)s") % {
            "card": self.card.code,
            "spread": spread_words(self.spread),
        }


# T5: the discard is the rummy games' own action (one card onto the stock, ending the
# turn), in Tonk's notation too; emptying the hand by it goes out (T8).
register(discard_from_json, discard_from_text)(Discard)
