"""Conquián as a registry entry: its laws, options and capabilities (:class:`Conquian`),
registered under the name stored deals carry. Its deal is :class:`~.deal.ConquianDeal`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card, PackKind, make_pack
from ..i18n import gettext_noop
from ..protocol import DealState
from ..rules import Rules
from ..variant import (
    Capabilities,
    DealStart,
    Law,
    OptionSpec,
    PlayerRange,
    Variant,
    cut_option,
    register,
)
from .actions import CONQUIAN_NOTATION
from .deal import (
    LAW_BORROW,
    LAW_DEAL,
    LAW_DISCARD,
    LAW_ELEVEN,
    LAW_FORCE,
    LAW_NEVER_IN_HAND,
    LAW_PACK,
    LAW_SAY,
    ConquianDeal,
    new_conquian_deal,
)
from .melds import KINDS

__all__ = ["CONQUIAN", "Conquian"]


class Conquian(Variant):
    """Conquián for two (Foster's laws for two players), as a registry entry."""

    name = "conquian"
    order = 3
    play_style = "say"
    deal_class = ConquianDeal
    display_name = gettext_noop("Conquián")
    description = gettext_noop("two players, forty cards")
    actions = CONQUIAN_NOTATION
    players = PlayerRange(2, 2, 2)
    seats = PlayerRange(2, 2, 2)
    cut_law = "C-opt-2"
    game_law = "C-opt-4"
    game_caption = gettext_noop(
        "The game before this deal: points won, the game to {out_at} (C-opt-4)"
    )
    options = (
        OptionSpec("pack", ("forty", "spanish", "full"), "forty",
                   gettext_noop("A-10 of each suit (Foster), the Spanish 40, A-7 J Q K with J "
                   "following 7, or the full 52, A-K (the ace low only in each, CO1)"),
                   gettext_noop("2-hand law 1, encyclopedia"), gettext_noop("Pack"),
                   (("forty", gettext_noop("A–10 of each suit")), ("spanish", gettext_noop("Spanish: A–7, J Q K")),
                    ("full", gettext_noop("the full 52: A–K")))),
        OptionSpec("upcard", (True, False), True,
                   gettext_noop("the 21st card turned up, or no initial upcard (the pone turns the "
                   "first card)"), gettext_noop("book p.49, how-to"), gettext_noop("Turn up the 21st card")),
        OptionSpec("trade", (False, True), False,
                   gettext_noop("each player passes one card face down before the first turn"),
                   gettext_noop("how-to"), gettext_noop("Card trade")),
        OptionSpec("scoring", ("game-points", "pips"), "game-points",
                   gettext_noop("one game point a deal, or the loser's pips"), gettext_noop("book p.55"), gettext_noop("Scoring"),
                   (("game-points", gettext_noop("a game point a deal")), ("pips", gettext_noop("the loser's pips")))),
        OptionSpec("carry", (True, False), True,
                   gettext_noop("a tableau's point goes to the next deal's winner (each tableau "
                   "raises the next win by one)"), gettext_noop("2-hand law 21, how-to"), gettext_noop("Tableaux carry")),
        OptionSpec("deal", ("pairs", "singly"), "pairs",
                   gettext_noop("ten cards each two at a time, the pone first (Foster), or one at a "
                   "time (C-opt-1)"), gettext_noop("2-hand law 8; seed 004"), gettext_noop("Deal"),
                   (("pairs", gettext_noop("two at a time (Foster)")), ("singly", gettext_noop("one at a time")))),
        OptionSpec("court_pips", ("ten", "spanish", "ace-fifteen"), "ten",
                   gettext_noop("what the Spanish pack's cards pay under pips scoring: courts 10 each, "
                   "or the sota 10, caballo 11, rey 12 (C-opt-3), or, counted as the French "
                   "pack without its 8, 9 and 10, courts 10 each and the ace 15 (seed 003, "
                   "line 80); the forty A-10 pay face value and the full 52's courts 10 "
                   "each whichever is chosen"),
                   gettext_noop("encyclopedia; seed 003"), gettext_noop("Spanish courts' pips"),
                   (("ten", gettext_noop("10 each")), ("spanish", gettext_noop("sota 10, caballo 11, rey 12")),
                    ("ace-fifteen", gettext_noop("courts 10, the ace 15 (French without 8–10)")))),
        cut_option(cut_law, gettext_noop("L2-L3; C-opt-2, seed 004"), gettext_noop("the lowest deals"),
                   gettext_noop("for seats and the first deal the highest cut chooses a seat and deals "
                   "(L2-L3), or the lowest (C-opt-2)")),
        OptionSpec("eight_cap", (False, True), False,
                   gettext_noop("a sequence holds three to eight cards (C-opt-5); off, as Foster sets "
                   "no cap (CO2)"), gettext_noop("seed 003"), gettext_noop("Sequences of eight at most")),
        OptionSpec("target", (0, 5, 10, 50, 100), 0,
                   gettext_noop("deals go on until a player has won an agreed points total (C-opt-4); "
                   "off, each deal is a game (Foster)"), gettext_noop("seed 003"), gettext_noop("Play to a points total"),
                   ((0, gettext_noop("off: each deal is a game")), (5, gettext_noop("to 5 points")), (10, gettext_noop("to 10 points")),
                    (50, gettext_noop("to 50 points")), (100, gettext_noop("to 100 points")))),
        OptionSpec("upcard_refused", ("dealer", "pone"), "dealer",
                   gettext_noop("when both refuse the 21st card, the dealer, the second to refuse, "
                   "turns the next card (Foster, book p.52), or the pone does (seed 003, "
                   "line 64)"), gettext_noop("book p.52; seed 003"), gettext_noop("After both refuse the upcard"),
                   (("dealer", gettext_noop("the dealer turns next (Foster)")),
                    ("pone", gettext_noop("the pone turns next")))),
        OptionSpec("demand", (False, True), False,
                   gettext_noop("a discard its player's opponent turns down although it fits one of "
                   "their own combinations may be demanded: the discarder forces it onto "
                   "that combination and the opponent must discard (seed 004, line 17; "
                   "seed 003, line 74); off, as Foster, a refused discard is turned down"),
                   gettext_noop("seed 004; seed 003"), gettext_noop("A refused discard may be demanded")),
    )  # fmt: skip
    named_sets = (
        # Foster's laws for two players as the book gives them: the options' defaults
        ("Foster's Conquián", {}),
        # seed 004, the game as played today: the Spanish forty, no upcard (the pone turns
        # the first card), ten dealt one at a time
        ("Conquián as played today", {"pack": "spanish", "upcard": False, "deal": "singly"}),
    )
    summary = gettext_noop(
        "Forty cards, ten each; turned cards are used at once or passed, never taken "
        "into the hand; eleven down wins."
    )
    # The laws the deal cites, cited by the same names (its LAW_ constants)
    laws = (
        Law(LAW_PACK, gettext_noop("Forty cards: ace to ten of each suit (or the Spanish forty, "
                                "or the full 52 of the encyclopedia's options).")),
        Law(LAW_DEAL, gettext_noop("Ten cards each, two at a time, the pone first; the 21st card "
                                "is turned up and the pone has the first say to it.")),
        Law(LAW_NEVER_IN_HAND, gettext_noop("A turned card is never taken into the hand: the player with "
                                 "the say uses it at once with cards from their hand, or adds it "
                                 "to one of their own combinations, or passes it.")),
        Law(LAW_SAY, gettext_noop("A card both players refuse is turned down; the second to refuse "
                         "turns up the next card and has the first say to it.")),
        Law(LAW_DISCARD, gettext_noop("Using a card obliges a discard, to which the adversary has the say.")),
        Law(LAW_FORCE, gettext_noop("Forcing: a player may put the card in play on the adversary's combination "
                   "it fits; the adversary must accept it and discard.")),
        Law(LAW_BORROW, gettext_noop("Borrowing: cards may move between a player's own combinations when "
                         "every combination left is still complete.")),
        Law(LAW_ELEVEN, gettext_noop("Eleven cards down wins. If the pack runs out first the deal "
                                 "is a tableau, and the next deal's winner scores it too.")),
        Law(gettext_noop("C-opt-4 (seed 003)"), gettext_noop("Played to a points total, deals go on until a player has "
                                  "won that many points in the game (game points, or pips "
                                  "under pips scoring); that player wins the game.")),
        Law("CO2", gettext_noop("Three or four players (C-opt-6) are not offered: the source names them "
                   "but its list of changes is lost, so their rules cannot be built yet.")),
    )  # fmt: skip

    def capabilities(self, rules: Rules) -> Capabilities:
        return Capabilities(say=True, forcing=True, carries=rules.opt("carry") is True)

    def pack(self, rules: Rules) -> list[Card]:
        return make_pack(KINDS[str(rules.opt("pack"))])

    def cutting_pack(self, rules: Rules) -> list[str]:
        """Conquián tables cut with Foster's forty (ace to ten), whatever pack they deal."""
        return [c.code for c in make_pack(PackKind.FORTY_FOSTER)]

    def hand_size(self, rules: Rules, players: int) -> int:
        return 10

    def deal(self, rules: Rules, players: int, dealer: int, start: DealStart) -> ConquianDeal:
        return new_conquian_deal(
            rules, dealer, seed=start.seed, pack=start.pack, carry_in=start.carry_in,
            scores_in=start.scores_in,
        )  # fmt: skip

    # -- a game to a points total (C-opt-4, seed 003) -------------------------------------
    def game_target(self, options: Mapping[str, Any] | None) -> int:
        return int((options or {}).get("target") or 0)

    def scores_in(self, state: DealState) -> tuple[int, ...]:
        """C-opt-4: the points before the deal, in a game to a points total only (each
        deal a game, there are none to record: issue 80)."""
        return _points_in(state)

    def scores_after(self, state: DealState) -> tuple[int, ...]:
        """C-opt-4: each seat's points won in the game, the deal's added; empty where each
        deal is a game, and once the game is over (the next deal begins a new one)."""
        after = _points_after(state)
        return after if after and max(after) < _target(state) else ()

    def ends_game(self, state: DealState) -> bool | None:
        """C-opt-4: the game is over when a player's points reach the total; None where
        each deal is a game (the club's rule at two players, L5)."""
        if not _target(state):
            return None
        return bool(self.game_winners(state))

    def game_winners(self, state: DealState) -> tuple[int, ...]:
        """C-opt-4: the player whose points reach the total (one wins a deal, so one)."""
        after = _points_after(state)
        target = _target(state)
        return tuple(s for s, p in enumerate(after) if p >= target) if target else ()


def _target(state: DealState) -> int:
    assert isinstance(state, ConquianDeal)
    return state.target


def _points_in(state: DealState) -> tuple[int, ...]:
    assert isinstance(state, ConquianDeal)
    return tuple(state.scores_in) if state.target else ()


def _points_after(state: DealState) -> tuple[int, ...]:
    """The points each seat has won in the game after ``state`` (finished); empty where
    each deal is a game or the deal is not over."""
    assert isinstance(state, ConquianDeal)
    out = state.outcome()
    if not state.target or out is None:
        return ()
    return tuple(s + max(0, int(p)) for s, p in zip(state.scores_in, out.payments, strict=True))


CONQUIAN = register(Conquian())
