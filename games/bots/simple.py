"""The two floor levels: ``random`` (a uniformly random legal action) and ``greedy``
(lays out whatever it can at once, discards its highest-pip card that fits nothing).

Each game's greedy choice is its way of play's (:mod:`.styles`, named by the registry).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action

from .base import View
from .hands import took_back_this_turn


class RandomBot:
    """A uniformly random legal action: the floor every other level must beat.

    A take-back (which only undoes this turn's play) is left out unless it is the only
    choice, and after one the random player only discards, so it cannot lay out and take
    back for ever (Dalton's "no ratting" forbids a discard after a partial show).
    """

    name = "random"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        pool = [a for a in legal if a.type != "take-back"] or list(legal)
        if took_back_this_turn(view):
            pool = [a for a in pool if a.type == "discard"] or pool
        return pool[rng.randrange(len(pool))]


class GreedyBot:
    """Lays out whatever it can at once; discards its highest-pip card that fits nothing."""

    name = "greedy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The game's greedy choice (the registry names its way of play, :mod:`.styles`)."""
        from .styles import style_of

        return style_of(view).greedy(view, legal)
