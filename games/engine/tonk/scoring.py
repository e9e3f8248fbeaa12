"""What each player wins or pays at the end of a Tonk deal (T4, T8, T9, T10; TO3, TO4,
TO12), in game points, summing to zero.

TO3: each award is paid by every other player; a caught dropper alone pays the 2s; the
lowest's bonus is paid 1 by each player outside the lowest count.

>>> from games.engine.cards import parse_cards
>>> settle("drop", 0, [parse_cards("AS 2C"), parse_cards("KH"), parse_cards("9D")], 3).payments
(2, -1, -1)
>>> settle("drop", 0, [parse_cards("9S"), parse_cards("KH"), parse_cards("5D")], 3).payments
(-5, 1, 4)
"""

from __future__ import annotations

from ..cards import Card
from ..protocol import Outcome
from ..spreads import count


def _award(n: int, seat: int, points: int) -> list[int]:
    """``seat`` wins ``points`` from every other player."""
    pay = [-points] * n
    pay[seat] = points * (n - 1)
    return pay


def settle(kind: str, seat: int | None, hands: list[list[Card]], n: int) -> Outcome:
    """The outcome of a deal that ended as ``kind`` (``seat``: the caller, the player out
    or the dropper), the hands as they are left."""
    counts = tuple(count(h) for h in hands)
    pay, winner, kind = payments(kind, seat, counts, n)
    return Outcome(
        kind, winner, tuple(tuple(h) for h in hands), counts, tuple(pay), scoring="game-points"
    )


def payments(
    kind: str, seat: int | None, counts: tuple[int, ...], n: int
) -> tuple[list[int], int | None, str]:
    """What each player wins or pays for a deal that ended as ``kind``, the winner (none
    for a drawn deal or a drop caught on an equal count) and the ending as it turned out
    (a drop may be caught; an exhausted pack with a tie for lowest draws). A physical
    table's result is scored here too, from the counts the secretary enters.

    >>> payments("exhausted", None, (12, 30, 12), 3)
    ([0, 0, 0], None, 'drawn')
    >>> payments("out", 1, (), 4)
    ([-2, 6, -2, -2], 1, 'out')
    """
    winner: int | None = seat
    if kind in ("tonk", "out"):  # T4: a lone call; T8: Tonking out; 2 from each (TO3)
        assert seat is not None
        pay = _award(n, seat, 2)
    elif kind == "discard-out":  # T8: out by the discard, 1 from each
        assert seat is not None
        pay = _award(n, seat, 1)
    elif kind == "drop":
        assert seat is not None
        pay, winner, kind = _drop(seat, counts, n)
    elif kind == "exhausted":  # T10: the lowest count earns 1 from each; a tie draws
        low = min(counts)
        lowest = [s for s in range(n) if counts[s] == low]
        if len(lowest) == 1:
            winner = lowest[0]
            pay = _award(n, winner, 1)
        else:
            winner, kind, pay = None, "drawn", [0] * n
    elif kind == "drawn":  # T4: two or more calls
        winner, pay = None, [0] * n
    else:
        raise ValueError(f"no such end of a Tonk deal: {kind!r}")
    assert sum(pay) == 0
    return pay, winner, kind


def _drop(dropper: int, counts: tuple[int, ...], n: int) -> tuple[list[int], int | None, str]:
    """T9: strictly lowest, the dropper wins 1 from each; else he is caught and pays 2 to
    each (TO3); a player strictly below him earns the lowest's bonus besides (TO12): 1
    from each player outside the lowest count, the lowest sharing it when tied."""
    mine = counts[dropper]
    others = [s for s in range(n) if s != dropper]
    if all(counts[s] > mine for s in others):
        return _award(n, dropper, 1), dropper, "drop"
    pay = [2] * n
    pay[dropper] = -2 * (n - 1)
    low = min(counts[s] for s in others)
    if low == mine:  # TO4: caught on an equal count: just the 2s, no winner
        return pay, None, "caught"
    lowest = [s for s in others if counts[s] == low]
    for s in range(n):
        pay[s] += (n - len(lowest)) if s in lowest else -len(lowest)
    return pay, (lowest[0] if len(lowest) == 1 else None), "caught"
