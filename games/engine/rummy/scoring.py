"""Settling a deal: pips (L23-L24 or Colonel's values), splash and ratting (Dalton).

Payments always sum to zero: the winner receives what the others pay (losers do not pay
each other, L23). Colonel's challenge and exhausted pack pay the lower hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card
from ..combinations import CARDS
from ..protocol import Adjustment, Outcome

if TYPE_CHECKING:
    from .deal import RummyDeal

RATTING_PENALTY = 30


def hand_pips(cards: list[int], pips: str) -> int:
    """L24: joker 15, ace 11, K Q J 10, others face; Colonel: courts 10, ace 1.

    >>> hand_pips([0, 52, 48], "foster"), hand_pips([0, 48], "colonel")
    (36, 11)
    """
    values = _FOSTER_PIPS if pips == "foster" else _COLONEL_PIPS
    return sum(map(values.__getitem__, cards))


_FOSTER_PIPS = [c.pips for c in CARDS]
_COLONEL_PIPS = [min(c.rank, 10) for c in CARDS]


def score(d: RummyDeal, kind: str, winner: int | None) -> Outcome:
    """The :class:`Outcome` of a finished deal (``kind``: out, challenge, exhausted, abandoned)."""
    n, t = d.players, d.table
    ids = [d.hand_ids(s) for s in range(n)]
    hands: tuple[tuple[Card, ...], ...] = tuple(tuple(CARDS[c] for c in h) for h in ids)
    pips = tuple(hand_pips(h, t.pips) for h in ids)
    pay = [0] * n
    adj: list[Adjustment] = []
    if kind == "out":
        assert winner is not None
        for s in range(n):
            if s != winner:
                pay[s] -= pips[s]
                pay[winner] += pips[s]
        if t.splash and not d.had_shown(winner):
            # Book p.11: a splash wins a bonus from each other player on top of pips.
            for s in range(n):
                if s != winner:
                    adj.append(Adjustment(s, -t.splash, "splash", "book p.11"))
            adj.append(Adjustment(winner, t.splash * (n - 1), "splash", "book p.11"))
        rat = d.first_ratter()
        if t.ratting == "penalty30" and rat is not None and rat != winner:
            # Dalton: the first to rat pays 30 more if he does not win the deal.
            adj.append(Adjustment(rat, -RATTING_PENALTY, "ratting", "Dalton"))
            adj.append(Adjustment(winner, RATTING_PENALTY, "ratting", "Dalton"))
    elif kind in ("challenge", "exhausted"):
        # Colonel: the lower hand wins the other's pips (a challenge) or the difference
        # (an exhausted pack). Equal hands: nobody wins, nothing is paid.
        a, b = pips
        if a != b:
            winner = 0 if a < b else 1
            loser = 1 - winner
            amount = pips[loser] if kind == "challenge" else abs(a - b)
            pay[winner], pay[loser] = amount, -amount
    for x in adj:
        pay[x.seat] += x.points
    assert sum(pay) == 0
    return Outcome(kind, winner, hands, pips, tuple(pay), tuple(adj))
