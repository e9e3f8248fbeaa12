"""A Tunk deal's scores (K9, K11) and what each player pays for them.

K9: each player adds his unmatched count to his score, the Tunker too; if any other
player ends lower than the Tunker, the Tunker's points for the deal are doubled. The
scores are penalty points (K10: at 100 a player leaves the game).

The washbook's line for the deal (zero-sum) is each pair of players settling the
difference of their penalties: a player pays every other player still in his penalty
less theirs, so he receives ``total - n * own``. A break (K11) scores nothing.

>>> from games.engine.cards import parse_cards
>>> out = settle(0, (4, 10, 0), [[], [], []], (0, 1, 2), 3)
>>> out.kind, out.pips, out.payments, out.winner
('tunk-doubled', (8, 10, 0), (-6, -12, 18), 2)
>>> settle(1, (0, 3, 9), [[], [], []], (0, 1, 2), 3).pips  # seat 0 ended lower: doubled
(0, 6, 9)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..protocol import Outcome

OUT_AT = 100  # K10: a score of 100 or more leaves the game


def penalties(tunker: int, counts: Sequence[int], active: Sequence[int]) -> tuple[int, ...]:
    """K9: each player's unmatched count; the Tunker's doubled when another player still
    in ends lower."""
    out = list(counts)
    if any(counts[s] < counts[tunker] for s in active if s != tunker):
        out[tunker] *= 2
    return tuple(out)


def payments(pens: Sequence[int], active: Sequence[int]) -> tuple[int, ...]:
    """Each pair of players still in settles the difference of their penalties."""
    total = sum(pens[s] for s in active)
    n = len(active)
    return tuple(total - n * p if s in active else 0 for s, p in enumerate(pens))


def settle(
    tunker: int | None,
    counts: tuple[int, ...] | None,
    hands: Sequence[Sequence[Card]],
    active: Sequence[int],
    players: int,
) -> Outcome:
    """The outcome of a deal: a Tunk (``tunker``, every player's unmatched count) or a
    break (K11: ``counts`` None, nothing scored)."""
    shown = tuple(tuple(h) for h in hands)
    if tunker is None or counts is None:
        zero = (0,) * players
        return Outcome("break", None, shown, zero, zero, scoring="penalty-points")
    pens = penalties(tunker, counts, active)
    low = min(pens[s] for s in active)
    lowest = [s for s in active if pens[s] == low]
    kind = "tunk-doubled" if pens[tunker] != counts[tunker] else "tunk"
    return Outcome(
        kind,
        lowest[0] if len(lowest) == 1 else None,
        shown,
        pens,
        payments(pens, active),
        scoring="penalty-points",
    )
