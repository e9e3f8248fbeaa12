"""What a seat (or a spectator) sees of a Conquián deal: its own hand, never the other
hand or the pack order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .deal import ConquianDeal


def view(deal: ConquianDeal, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may see of ``deal``; the trade card is added
    by :meth:`~.deal.ConquianDeal.player_view`."""
    cards = deal._cards
    c = deal._card
    in_play = cards[c].code if c >= 0 else None
    beside = c >= 0 and (deal._refusals > 0 or not deal._from_pack)
    combos = [
        {
            "id": cid,
            "owner": o,
            "kind": "sequence" if is_seq else "set",
            "cards": [{"card": cards[x].code, "as": None, "crossways": False} for x in cs],
        }
        for cid, (o, is_seq, cs) in sorted(deal._combos.items())
    ]
    out = deal._outcome
    # a game to a points total (C-opt-4): each seat's points won before this deal
    game = {"scores": list(deal.scores_in), "out_at": deal.target} if deal.target else {}
    return {
        "variant": "conquian",
        "options": dict(deal.rules.options),
        "players": 2,
        "seat": seat,
        "dealer": deal.dealer,
        "version": deal.version,
        "to_move": deal.to_move(),
        "phase": deal._phase,
        "hand": [cards[x].code for x in deal._hands[seat]] if seat is not None else [],
        "hand_counts": [len(h) for h in deal._hands],
        "down_counts": [
            sum(len(cs) for o, _, cs in deal._combos.values() if o == s) for s in (0, 1)
        ],  # fmt: skip
        "pack_count": len(deal._pack),
        "stock": [in_play] if beside else [],
        "stock_count": 1 if beside else 0,
        "combinations": combos,
        "log": deal._log_view.of(deal._log, seat),
        "outcome": out.to_json() if out is not None else None,
        "turned": in_play,
        "say": deal._say if deal._phase == "say" else None,
        "turned_by": deal._turned_by if c >= 0 else None,
        "dead_count": len(deal._dead),
        "carry_in": deal.carry_in,
        "trade_done": [t >= 0 for t in deal._trade] if deal._phase == "trade" else None,
        **game,
    }
