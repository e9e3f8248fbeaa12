"""A deal's engine state kept in the web process for the renders that only read it.

Every phone at a table fetches its live part after each move: four reads of the same
deal at the same version, each decoding the deal's snapshot into an engine state (a
sixth of a refresh's CPU, issue 59). A state at a version never changes, so this process
keeps the last one it read or made for each deal, keyed by the deal's id, seed (a restore
from a backup brings the same id and version back with another seed) and version, and
every render of that version in this process reads it.

The engine memoises inside a state (its log as each viewer sees it, the legal moves of
the player to move), so a kept state is reached only through :class:`KeptState`, whose
every call holds the state's lock: threads of one process never run the engine on it at
once. Nothing that changes a state (a move) is offered: a move loads its own
(:func:`games.play.reading.load_state`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from games.engine.actions import Action
from games.engine.protocol import DealState

from ..models import Deal
from .reading import load_state

# A deal is kept at its latest version only; the oldest-used go first past this many.
KEPT_DEALS = 2048


class KeptState:
    """Read-only access to a kept engine state, one thread at a time."""

    __slots__ = ("_lock", "_state", "players")

    def __init__(self, state: DealState) -> None:
        self._state = state
        self._lock = threading.Lock()
        self.players: int = state.players

    def player_view(self, seat: int) -> dict[str, Any]:
        with self._lock:
            return self._state.player_view(seat)

    def spectator_view(self) -> dict[str, Any]:
        with self._lock:
            return self._state.spectator_view()

    def legal_actions(self, seat: int) -> list[Action]:
        with self._lock:
            return list(self._state.legal_actions(seat))

    def for_move(self) -> DealState:
        """A copy to apply a move to, sharing nothing with the kept state (which other
        threads go on reading as the deal's at its version): the move need not decode the
        deal's snapshot again (issue 59)."""
        with self._lock:
            return self._state.copy_apart()

    def is_over(self) -> bool:
        with self._lock:
            return self._state.is_over()

    def call_options(self, seat: int) -> list[Action]:
        """Tonk's call round (TO5): what ``seat`` may answer (games.play.call_round)."""
        with self._lock:
            return list(self._state.call_options(seat))  # type: ignore[attr-defined]


_kept: OrderedDict[int, tuple[int, int, KeptState]] = OrderedDict()
_guard = threading.Lock()


def state_of(deal: Deal) -> KeptState:
    """The deal's state at its version, for reading: kept, else loaded and kept."""
    with _guard:
        hit = _kept.get(deal.pk)
        if hit is not None and hit[0] == deal.seed and hit[1] == deal.version:
            _kept.move_to_end(deal.pk)
            return hit[2]
    return keep(deal, load_state(deal))


def keep(deal: Deal, state: DealState) -> KeptState:
    """Keep ``state`` as the deal's at its version (the state a move made, or one just
    loaded); the caller hands it over and reads it only through what is returned."""
    kept = KeptState(state)
    if state.version != deal.version:
        return kept  # not the deal's version (a replay stopped short): not kept
    with _guard:  # the latest kept wins: a deal restored from a backup is kept anew
        _kept[deal.pk] = (deal.seed, deal.version, kept)
        _kept.move_to_end(deal.pk)
        while len(_kept) > KEPT_DEALS:
            _kept.popitem(last=False)
    return kept


def forget() -> None:
    """Keep nothing (tests that restore a database under a running process)."""
    with _guard:
        _kept.clear()
