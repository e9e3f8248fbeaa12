"""A game of Tunk: deals until one player is left (K10, KO6-KO8, KO11).

>>> from games.engine.rules import make_rules
>>> g = TunkGame(make_rules("tunk", {}), 3, dealer=0)
>>> g.after((30, 101, 12)).scores, g.active, g.dealer
((30, 101, 12), (0, 2), 2)
>>> g.after((75, 0, 90)).over, g.winners
(True, (2,))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action
from ..cards import dealing_pack
from ..rules import Rules
from .deal import TunkDeal, in_game
from .scoring import OUT_AT


class TunkGame:
    """Each seat's score, who is still in, the next dealer and, at the end, the winners."""

    def __init__(self, rules: Rules, players: int, dealer: int = 0) -> None:
        self.rules = rules
        self.players = players
        self.scores: tuple[int, ...] = (0,) * players
        self.dealer = dealer
        self.deals = 0
        self.winners: tuple[int, ...] = ()

    @property
    def active(self) -> tuple[int, ...]:
        return in_game(self.scores)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def deal(self, *, seed: int | None = None) -> TunkDeal:
        """The next deal, for the players still in."""
        if self.over:
            raise ValueError("the game is over")
        pack, seed = dealing_pack(self.rules.spec.pack(self.rules), seed, None, "")
        return TunkDeal(self.rules, self.players, self.dealer, pack, seed, self.scores)

    def after(self, pips: Sequence[int]) -> TunkGame:
        """Add a deal's penalties (K9; a break adds nothing, KO6); who reaches 100 leaves
        (K10); the last left wins, or if every player left reaches 100 at once, the lowest
        score (KO8, a tie shares); the deal passes clockwise to a player still in (KO7)."""
        before = self.scores
        self.scores = tuple(s + p for s, p in zip(self.scores, pips, strict=True))
        self.deals += 1
        self.winners = winners(before, self.scores)
        if not self.winners:
            left = self.active
            after = [s for s in left if s > self.dealer] + [s for s in left if s <= self.dealer]
            self.dealer = after[0]
        return self


def winners(before: Sequence[int], after: Sequence[int]) -> tuple[int, ...]:
    """Who wins the game when the scores go from ``before`` to ``after`` with a deal:
    the last player left under 100 (K10), or if every player left reaches 100 at once,
    the lowest score of them (KO8, a tie shares); none while two or more are left.

    >>> winners((90, 40, 120), (104, 60, 120)), winners((90, 95), (110, 101)), winners((0, 0), (9, 3))
    ((1,), (1,), ())
    """
    left = in_game(after)
    if len(left) == 1:
        return left
    if left:
        return ()
    was = in_game(before)
    low = min(after[s] for s in was)
    return tuple(s for s in was if after[s] == low)


def play_game(
    rules: Rules,
    players: int,
    choose: Callable[[TunkDeal, int], Action],
    *,
    seed: int,
    limit: int = 500,
) -> tuple[TunkGame, list[TunkDeal]]:
    """A whole game, each move ``choose(deal, seat)``; each deal seeded from ``seed``."""
    rng = random.Random(seed)
    game = TunkGame(rules, players, dealer=rng.randrange(players))
    deals: list[TunkDeal] = []
    while not game.over and len(deals) < limit:
        d = game.deal(seed=rng.randrange(2**63))
        while not d.is_over():
            seat = d.to_move()
            assert seat is not None
            d.apply(choose(d, seat))
        out = d.outcome()
        assert out is not None
        game.after(out.pips)
        deals.append(d)
    return game, deals


__all__ = ["OUT_AT", "TunkGame", "play_game"]
