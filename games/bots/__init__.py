"""Computer players behind one small interface (pure Python: no Django here).

>>> import random
>>> from games.engine.deal import new_deal
>>> from games.engine.rules import make_rules
>>> from games.engine.variant import VARIANTS
>>> for name in VARIANTS:  # every game in the registry, each through the same interface
...     deal = new_deal(make_rules(name), make_rules(name).spec.default_players, 0, seed=3)
...     seat = deal.to_move()
...     a = choose("greedy", deal.player_view(seat), deal.legal_actions(seat), random.Random(1))
...     assert deal.is_legal(a), name

Levels: ``random`` (the floor), ``greedy`` (lays out at once, sheds its highest useless
card), ``club`` (Foster's "suggestions for good play") and ``expert`` (club plus
determinised playouts within a time budget). A bot sees only ``player_view(seat)`` and
``legal_actions(seat)``; a seeded ``random.Random`` makes every choice reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action

from .base import Bot, View
from .club import ClubBot
from .expert import ExpertBot
from .simple import GreedyBot, RandomBot

__all__ = ["LEVELS", "Bot", "choose", "configure", "get_bot"]

LEVELS: dict[str, Bot] = {
    "random": RandomBot(),
    "greedy": GreedyBot(),
    "club": ClubBot(),
    "expert": ExpertBot(),
}


def configure(*, budget_ms: float | None = None) -> None:
    """Process-wide settings: the expert's time budget per decision (milliseconds)."""
    if budget_ms is not None:
        expert = LEVELS.get("expert")
        if expert is not None and hasattr(expert, "budget_ms"):
            expert.budget_ms = budget_ms


def get_bot(level: str) -> Bot:
    """The bot of a level; ``KeyError`` names the levels there are."""
    try:
        return LEVELS[level]
    except KeyError:
        raise KeyError(f"unknown bot level {level!r}; one of {', '.join(LEVELS)}") from None


class BotError(RuntimeError):
    """A computer player that could not choose a legal action (a bug in it): its caller
    decides what the table shows; nothing is played in its place."""


def choose(level: str, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
    """The action the bot of ``level`` plays, one of ``legal``.

    ``view`` is the seat's ``player_view`` and ``legal`` its ``legal_actions``. With no
    legal action there is nothing to choose, and a bot that picks an action not in
    ``legal`` is broken: both raise :class:`BotError`.
    """
    if not legal:
        raise BotError("no legal action to choose from")
    action = get_bot(level).choose(view, legal, rng)
    if action not in legal:
        raise BotError(f"the {level} computer player chose {action!r}, which is not legal")
    return action
