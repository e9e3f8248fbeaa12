"""The ``club`` level: Foster's "Suggestions for good play", one module per family."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action

from .base import View, caps


class ClubBot:
    """Plays like a good club player (see :mod:`.rummy_club`, :mod:`.conquian_club`,
    :mod:`.tonk_play` and :mod:`.tunk_play`)."""

    name = "club"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if caps(view).knock:
            from .tunk_play import TunkClub

            return TunkClub().choose(view, legal, rng)
        if caps(view).drop:
            from .tonk_play import TonkClub

            return TonkClub().choose(view, legal, rng)
        if caps(view).say:
            from .conquian_club import ConquianClub

            return ConquianClub().choose(view, legal, rng)
        from .rummy_club import RummyClub

        return RummyClub().choose(view, legal, rng)
