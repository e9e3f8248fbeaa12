"""What a seat (or a spectator) sees of a Conquián deal: its own hand, never the other
hand or the pack order. :class:`ConquianViews` is a base of :class:`~.deal.ConquianDeal`
(kept apart for the deal module's size): its methods are the deal's own."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidActionError
from .snapshots import ConquianSnapshots


class ConquianViews(ConquianSnapshots):
    """The deal's views: a seat's (:meth:`player_view`) and a spectator's."""

    def to_move(self) -> int | None:
        raise NotImplementedError

    def player_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: his own hand, never the other hand or the pack order."""
        if seat not in (0, 1):
            raise InvalidActionError(f"bad seat {seat!r}")
        view = self._view(seat)
        if self._phase == "trade" and self._trade[seat] >= 0:
            view["trade_card"] = self._cards[self._trade[seat]].code
        return view

    def spectator_view(self) -> dict[str, Any]:
        return self._view(None)

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see of the deal; the trade card is
        added by :meth:`player_view`."""
        cards = self._cards
        c = self._card
        in_play = cards[c].code if c >= 0 else None
        beside = c >= 0 and (self._refusals > 0 or not self._from_pack)
        combos = [
            {
                "id": cid,
                "owner": o,
                "kind": "sequence" if is_seq else "set",
                "cards": [{"card": cards[x].code, "as": None, "crossways": False} for x in cs],
            }
            for cid, (o, is_seq, cs) in sorted(self._combos.items())
        ]
        out = self._outcome
        # a game to a points total (C-opt-4): each seat's points won before this deal
        game = {"scores": list(self.scores_in), "out_at": self.target} if self.target else {}
        return {
            "variant": "conquian",
            "options": dict(self.rules.options),
            "players": 2,
            "seat": seat,
            "dealer": self.dealer,
            "version": self.version,
            "to_move": self.to_move(),
            "phase": self._phase,
            "hand": [cards[x].code for x in self._hands[seat]] if seat is not None else [],
            "hand_counts": [len(h) for h in self._hands],
            "down_counts": [
                sum(len(cs) for o, _, cs in self._combos.values() if o == s) for s in (0, 1)
            ],  # fmt: skip
            "pack_count": len(self._pack),
            "stock": [in_play] if beside else [],
            "stock_count": 1 if beside else 0,
            "combinations": combos,
            "log": self._log_view.of(self._log, seat),
            "outcome": out.to_json() if out is not None else None,
            "turned": in_play,
            "say": self._say if self._phase == "say" else None,
            "turned_by": self._turned_by if c >= 0 else None,
            "dead_count": len(self._dead),
            "carry_in": self.carry_in,
            "trade_done": [t >= 0 for t in self._trade] if self._phase == "trade" else None,
            **game,
        }
