"""What each seat may see: ``player_view`` / ``spectator_view`` (JSON-able dicts).

Never another seat's hand, never the pack order; a pack draw shows its card only to the
drawer. Hands are revealed in ``outcome`` once the deal is over (L23).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .deal import RummyDeal


def view(d: RummyDeal, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator)."""
    stock = [c.code for c in d.stock]
    if d.table.stock == "buried":
        stock = stock[-1:]
    out = d.outcome()
    log = d.log_view.of(d.log, seat)
    return {
        "variant": d.rules.variant,
        "options": dict(d.rules.options),
        "players": d.players,
        "seat": seat,
        "dealer": d.dealer,
        "version": d.version,
        "to_move": d.to_move(),
        "phase": d.phase,
        "hand": [] if seat is None else [c.code for c in d.hand(seat)],
        "hand_counts": [d.hand_size(s) for s in range(d.players)],
        "pack_count": d.pack_count,
        "stock": stock,
        "stock_count": len(d.stock),
        "stock_mode": d.table.stock,
        "combinations": [c.to_json() for c in d.combinations],
        "turnovers": d.turnovers,
        "shown_this_turn": d.shown_this_turn,
        # Why the player to move may not discard yet (Dalton's ratting), or None.
        "no_discard": d.discard_refusal(d.to_move() or 0) if d.phase == "play" else None,
        "log": log,
        "outcome": None if out is None else out.to_json(),
    }
