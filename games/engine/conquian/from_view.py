"""A Conquián deal from one seat's view and the cards it hides (``ConquianDeal.from_view``;
the shared parts, :class:`~..from_view.Hidden` and the hands, are :mod:`..from_view`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from ..cards import Card
from ..combinations import CARDS
from ..from_view import Hidden, ViewMismatch, hands_of
from ..records import Kind
from ..rules import make_rules
from ..words import LogView
from .order import ORDERS, by_suit
from .snapshots import ConquianSnapshots


class ConquianFromView(ConquianSnapshots):
    """A deal rebuilt from a seat's view (:meth:`from_view`): a base of
    :class:`~.deal.ConquianDeal`, its method the deal's own."""

    @classmethod
    def from_view(cls, view: Mapping[str, Any], hidden: Hidden) -> Self:
        """A :class:`~.deal.ConquianDeal` that ``view`` (of a seat) is a view of, the
        other hand and the pack as ``hidden`` gives them."""
        phase = str(view.get("phase"))
        if phase not in ("say", "turn", "discard") or view.get("seat") is None:
            raise ViewMismatch(f"a state is built from a seat's view during play, not {phase!r}")
        rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
        order = ORDERS[str(rules.opt("pack"))]
        index = order.index
        seat = int(view["seat"])
        opp = 1 - seat

        def ids(cards: Sequence[Card], what: str) -> list[int]:
            try:
                return [index[c] for c in cards]
            except KeyError as e:
                raise ViewMismatch(f"{what}: {e.args[0]} is not in this pack") from None

        hands: list[list[int]] = [[], []]
        hands[seat] = sorted(
            ids([Card.from_code(c) for c in view.get("hand") or []], "hand"), key=by_suit
        )
        other = hands_of(view, hidden, 2, seat)[opp]
        hands[opp] = sorted(ids(other, "the other hand"), key=by_suit)
        if len(hands[opp]) != int(view["hand_counts"][opp]):
            raise ViewMismatch(
                f"seat {opp} holds {view['hand_counts'][opp]} cards, not {len(other)}"
            )
        pack = ids(hidden.pack, "the pack")[::-1]  # top card last, for pop()
        if len(pack) != int(view["pack_count"]):
            raise ViewMismatch(f"the pack holds {view['pack_count']} cards, not {len(pack)}")
        combos: dict[int, tuple[int, bool, tuple[int, ...]]] = {}
        where = [-1] * 52
        for c in view.get("combinations") or []:
            cs = tuple(
                sorted(ids([Card.from_code(x["card"]) for x in c["cards"]], "a combination"))
            )
            combos[int(c["id"])] = (int(c["owner"]), c["kind"] == "sequence", cs)
            for x in cs:
                where[x] = int(c["id"])
        log = list(view.get("log") or [])
        dead = [
            index[Card.from_code(e["cards"][0])] for e in log if e.get("kind") == Kind.TURN_DOWN
        ]
        if len(dead) != int(view.get("dead_count") or 0):
            raise ViewMismatch("the dead cards do not match the log")
        turned = view.get("turned")
        card = index[Card.from_code(turned)] if turned else -1
        placed = hands[0] + hands[1] + pack + dead + [x for _, _, cs in combos.values() for x in cs]
        if sorted(placed + ([card] if card >= 0 else [])) != sorted(order.ids()):
            raise ViewMismatch("the cards of the view and the hidden ones are not the deal's pack")
        last = log[-1].get("kind") if log else None
        say, turned_by = view.get("say"), view.get("turned_by")
        d = cls.__new__(cls)
        d.rules, d.dealer = rules, int(view["dealer"])
        d.version = int(view.get("version") or 0)
        d.carry_in = int(view.get("carry_in") or 0)
        # a game to a points total (C-opt-4): the points before the deal, as the view says
        d.scores_in = tuple(int(s) for s in view["scores"]) if rules.opt("target") else (0, 0)
        d.pack_order, d.seed = (), None
        d._init_history()
        d._order, d._cards, d._idx = order, CARDS, index
        d._hands = hands
        d._combos, d._where = combos, where
        d._next_id = max(combos, default=-1) + 1
        d._dead = dead
        d._card = card
        d._turned_by = -1 if turned_by is None else int(turned_by)
        d._say = -1 if say is None else int(say)
        d._refusals = 1 if (phase == "say" and last == Kind.REFUSE) else 0
        # the card in play's source: a refusal of a discard (the option "demand") keeps it one
        turned = (Kind.TURN_UP, Kind.TURN_UP_DEAL, Kind.THROW)
        source = next((e.get("kind") for e in reversed(log) if e.get("kind") in turned), None)
        d._from_pack = source != Kind.THROW if phase == "say" else last != Kind.THROW
        d._trade = [-1, -1]
        d._outcome = None
        d._log, d._log_view = [], LogView()
        d._cache_v, d._cache = -1, []
        d._phase = d._after_trade = phase
        d._mover = int(view["to_move"])
        d._pack = pack
        return d
