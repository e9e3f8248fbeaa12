"""The Cooncan Club rules engine: pure Python, standard library only.

>>> from games.engine import make_rules, new_deal
>>> d = new_deal(make_rules("foster-three"), 3, 0, seed=2)
>>> d.to_move(), d.player_view(1)["hand_counts"]
(1, [7, 7, 7])
"""

from .actions import Action, ActionTable
from .cards import JOKER, Card, PackKind, Suit, make_pack, parse_cards
from .combinations import Combination, Placed, TableCard
from .conquian import actions as _conquian_actions  # noqa: F401 - registers Conquián's action types
from .deal import deal_from_view, new_deal
from .errors import IllegalActionError, InvalidActionError
from .from_view import Hidden, ViewMismatch
from .protocol import Adjustment, DealState, Outcome
from .replay import ReplayResult, record, replay
from .rules import VARIANTS, Rules, make_rules
from .rummy.deal import RummyDeal
from .rummy.moves import Accept, Add, Challenge, Decline, Discard, Draw, Layout, MoveJoker, TakeBack
from .variant import Capabilities, OptionSpec, PlayerRange, Variant, find_variant, registered

__all__ = [
    "JOKER",
    "VARIANTS",
    "Accept",
    "Capabilities",
    "OptionSpec",
    "PlayerRange",
    "Variant",
    "find_variant",
    "registered",
    "Action",
    "ActionTable",
    "Add",
    "Adjustment",
    "Card",
    "Challenge",
    "Combination",
    "DealState",
    "Decline",
    "Discard",
    "Draw",
    "IllegalActionError",
    "InvalidActionError",
    "Layout",
    "MoveJoker",
    "Outcome",
    "PackKind",
    "Placed",
    "ReplayResult",
    "Rules",
    "RummyDeal",
    "Suit",
    "TableCard",
    "TakeBack",
    "Hidden",
    "ViewMismatch",
    "deal_from_view",
    "make_pack",
    "make_rules",
    "new_deal",
    "parse_cards",
    "record",
    "replay",
]
