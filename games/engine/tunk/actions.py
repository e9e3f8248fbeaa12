"""Tunk's actions and their notation (K5, K7; KO9).

A turn is a draw (from the pack, or plucking the stock) and then a discard, or the Tunk
call with its discard as one move (KO9):

>>> TUNK_ACTIONS.from_text("1 tunk 9H").to_json()
{'type': 'tunk', 'seat': 1, 'card': '9H'}
>>> TUNK_ACTIONS.from_json({"type": "pluck", "seat": 0}).text
'0 pluck'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, ActionTable, BareAction, CardAction, Role, register_bare
from ..cards import Card
from ..errors import InvalidActionError
from ..i18n import gettext_noop
from ..rummy.moves import Discard, discard_from_json, discard_from_text
from ..words import gettext as _

__all__ = ["TUNK_ACTIONS", "Discard", "DrawPack", "Pluck", "Tunk"]

#: Tunk's action notation.
TUNK_ACTIONS = ActionTable("Tunk")


@dataclass(frozen=True, slots=True)
class DrawPack(BareAction):
    """K5: draw the top card of the pack."""

    type: ClassVar[str] = "draw"
    label: ClassVar[str] = gettext_noop("Draw from the pack")
    verb: ClassVar[str] = gettext_noop("draws from the pack")


@dataclass(frozen=True, slots=True)
class Pluck(BareAction):
    """K5: take the top card of the stock; it may not be this turn's discard."""

    type: ClassVar[str] = "pluck"
    label: ClassVar[str] = gettext_noop("Take the top card of the stock")
    verb: ClassVar[str] = gettext_noop("takes the top card of the stock")


register_bare(TUNK_ACTIONS, DrawPack)
register_bare(TUNK_ACTIONS, Pluck)
# K5: the discard is the rummy games' own action, in Tunk's notation too.
TUNK_ACTIONS.register(discard_from_json, discard_from_text)(Discard)


def _tunk_text(seat: int, args: list[str]) -> Action:
    if len(args) != 1:
        raise InvalidActionError("tunk CARD (the discard that goes with the call)")
    return Tunk(seat, Card.from_code(args[0]))


@TUNK_ACTIONS.register(lambda d: Tunk(d["seat"], Card.from_code(d["card"])), _tunk_text)
@dataclass(frozen=True, slots=True)
class Tunk(CardAction):
    """K7, KO3, KO9: call Tunk and discard ``card``: the seven cards left are shown,
    their unmatched count five or less; every other player then has his last turn."""

    type: ClassVar[str] = "tunk"
    ROLE: ClassVar[Role] = Role.DECISION
    risks: ClassVar[str] = gettext_noop(
        "The seven cards you keep are shown, melds apart, and every other player has a "
        "last turn, laying down their melds and laying off on yours (K8). Your unmatched "
        "cards are your points; if anyone ends lower, they are doubled (K9)."
    )

    def hand_codes(self) -> list[str]:
        return [self.card.code]

    def describe(self) -> str:
        return _("calls Tunk, discarding %(card)s") % {"card": self.card.code}

    def button(self) -> str:
        return _("Tunk, discarding %(card)s") % {"card": self.card.code}
