"""The ``club`` level: Foster's "Suggestions for good play", one module per family."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action

from .base import View


class ClubBot:
    """Plays like a good club player (see :mod:`.rummy_club`, :mod:`.conquian_club`,
    :mod:`.tonk_play` and :mod:`.tunk_play`)."""

    name = "club"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The game's club player (the registry names its way of play, :mod:`.styles`)."""
        from .styles import style_of

        return style_of(view).club.choose(view, legal, rng)
