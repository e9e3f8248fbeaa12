"""Each game's way of play for the computer players (issue 80, item 5): the registry's
entry names it (:attr:`~games.engine.variant.Variant.play_style`), and this table gives
its club player and its greedy one. The bots ask the registry, never a ladder of the
game's capabilities."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine.actions import Action
from games.engine.variant import find_variant

from . import conquian_club, rummy_club, tonk_play, tunk_play
from .base import Bot, View
from .greedy_conquian import greedy_conquian
from .greedy_rummy import greedy_rummy


@dataclass(frozen=True)
class Style:
    """A way of play: the ``club`` level's player, the ``greedy`` level's choice, and
    the club player's ``searched`` best-looking actions the expert plays out
    (``alternatives``)."""

    club: Bot
    greedy: Callable[[View, Sequence[Action]], Action]
    alternatives: Callable[[View, Sequence[Action], int], list[Action]]
    searched: int


STYLES: dict[str, Style] = {
    # Foster's games and Colonel
    "rummy": Style(rummy_club.RummyClub(), greedy_rummy, rummy_club.ranked_alternatives, 3),
    # Conquián's: every card turned is said to, used at once or passed (L12)
    "say": Style(
        conquian_club.ConquianClub(), greedy_conquian, conquian_club.ranked_alternatives, 5
    ),
    # Tonk's: a low hand may drop (T9)
    "drop": Style(tonk_play.TonkClub(), tonk_play.greedy_tonk, tonk_play.ranked_alternatives, 4),
    # Tunk's: a low hand knocks, the others have a last turn (K7)
    "knock": Style(tunk_play.TunkClub(), tunk_play.greedy_tunk, tunk_play.ranked_alternatives, 4),
}


def style_of(view: View) -> Style:
    """The way of play of the view's game."""
    return STYLES[find_variant(str(view.get("variant"))).play_style]
