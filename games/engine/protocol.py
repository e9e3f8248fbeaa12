"""What every variant's deal state offers (the web app, bots and CLI rely on exactly this)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .actions import Action
from .cards import Card
from .records import Record
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A payment on top of pips: splash bonus, ratting penalty, foul hand, carried tableau."""

    seat: int  # who receives (+) or pays (-) it
    points: int
    reason: str  # "splash", "ratting", "foul-hand", "tableau-carry", ...
    law: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended and what each seat wins or pays (``payments`` sum to zero).

    ``kind``: "out" (a player went out, L21), "tableau" (Conquian: pack exhausted, nothing
    paid, ``carried`` points go to the next deal's winner), "challenge" and "exhausted"
    (Colonel: lower hand wins).
    """

    kind: str
    winner: int | None
    hands: tuple[tuple[Card, ...], ...]
    pips: tuple[int, ...]
    payments: tuple[int, ...]
    adjustments: tuple[Adjustment, ...] = field(default=())
    carried: int = 0
    scoring: str = "pips"  # "pips" or "game-points"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winner": self.winner,
            "hands": [[c.code for c in h] for h in self.hands],
            "pips": list(self.pips),
            "payments": list(self.payments),
            "adjustments": [
                {"seat": a.seat, "points": a.points, "reason": a.reason, "law": a.law}
                for a in self.adjustments
            ],
            "carried": self.carried,
            "scoring": self.scoring,
        }


class PhasedDeal:
    """The end of a deal whose ``_phase`` is "over" once it has ended, its
    :class:`Outcome` kept in ``_outcome`` (the rummy family's deals and Conquián's)."""

    _phase: str
    _outcome: Outcome | None

    def is_over(self) -> bool:
        return self._phase == "over"

    def outcome(self) -> Outcome | None:
        return self._outcome


class DealState(Protocol):
    """One deal in play. ``apply`` mutates in place; ``copy`` is cheap (for bots' search)."""

    rules: Rules
    players: int
    dealer: int
    version: int  # number of actions applied so far
    pack_order: tuple[Card, ...]  # the shuffled pack as dealt (the replay's "pack")
    history: list[Action]  # the actions applied, in order
    carry_in: int  # what the previous deal carried into this one (0 where nothing carries)

    @property
    def log(self) -> list[Record]: ...  # the whole log, unredacted (records.py)
    def to_move(self) -> int | None: ...
    def legal_actions(self, seat: int) -> list[Action]: ...
    def is_legal(self, action: Action) -> bool: ...
    def apply(self, action: Action) -> None: ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def player_view(self, seat: int) -> dict[str, Any]: ...
    def spectator_view(self) -> dict[str, Any]: ...
    def copy(self) -> DealState: ...
    # A copy that shares no cache (the log's view) with this deal: it may be changed
    # while another thread reads this one; ``copy`` shares it, for the bots' playouts.
    def copy_apart(self) -> DealState: ...
    def to_json(self) -> dict[str, Any]: ...  # the versioned snapshot (snapshot.py)


class WildNames(Protocol):
    """A deal whose wild cards in a set are named by their holder (L17): every name the
    holder may give those of a legal action, the action itself first."""

    def namings(self, action: Action) -> list[Action]: ...


class CallRound(Protocol):
    """A deal whose game has a round every player answers, the answers resolved together
    (:attr:`~.variant.Capabilities.call_round`: Tonk's call round, TO5)."""

    def call_options(self, seat: int) -> list[Action]: ...
