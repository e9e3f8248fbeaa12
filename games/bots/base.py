"""What every bot shares: the interface, and small readings of a ``player_view``.

A bot sees exactly what its seat may see: the ``player_view`` dict and the seat's legal
actions. It never receives the deal state. Every choice is a pure function of
``(view, legal, rng)``, so a seeded ``random.Random`` makes it reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.rules import make_rules
from games.engine.variant import Capabilities

View = Mapping[str, Any]

# Keys a player_view may hold (protocol.py, conquian.py). A bot reads nothing else.
VIEW_KEYS = frozenset(
    {
        "variant", "options", "players", "seat", "dealer", "version", "to_move", "phase",
        "hand", "hand_counts", "pack_count", "stock", "stock_count", "combinations", "log",
        "outcome", "stock_mode", "turnovers", "shown_this_turn", "no_discard",
        # Conquián
        "turned", "say", "turned_by", "dead_count", "down_counts", "carry_in", "trade_done",
        "trade_card",
        # Tonk
        "waits", "quiet", "played", "plucked", "callers", "calls", "asked", "no_drop",
    }
)  # fmt: skip


class Bot(Protocol):
    """A computer player: ``choose`` returns one of ``legal`` (never anything else)."""

    name: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action: ...


def cards_of(codes: Sequence[str]) -> list[Card]:
    return [Card.from_code(c) for c in codes]


def caps(view: View) -> Capabilities:
    """What the view's game has under its options (the variant's capabilities): asked
    instead of testing the game's name."""
    options = view.get("options") or {}
    return _caps(str(view.get("variant")), tuple(sorted(options.items())))


@lru_cache(maxsize=256)
def _caps(variant: str, options: tuple[tuple[str, Any], ...]) -> Capabilities:
    rules = make_rules(variant, dict(options))
    return rules.spec.capabilities(rules)


def wild_mode(view: View) -> str:
    """``"jokers"``, ``"spade-twos"`` or ``"none"``: which cards are wild in this deal."""
    return caps(view).wild


def is_wild(card: Card, wild: str) -> bool:
    if wild == "jokers":
        return card.is_joker
    if wild == "spade-twos":
        return card.rank == 2 and card.suit is not None and card.suit.value == "S"
    return False
