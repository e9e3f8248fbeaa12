"""Conquián deals as versioned JSON snapshots (:mod:`..snapshot`): cards by code, no
caches; :meth:`.deal.ConquianDeal.to_json` and ``from_json`` call these. A game to a
points total (C-opt-4) keeps its points before the deal as ``scores_in``; snapshots from
before it, or of a deal that is its own game, have none."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import snapshot
from ..combinations import CARDS
from ..records import Record
from ..rules import make_rules
from ..snapshot import SNAPSHOT_VERSION, check_version
from ..words import LogView
from .actions import CONQUIAN_NOTATION
from .order import ORDERS

if TYPE_CHECKING:
    from .deal import ConquianDeal


def deal_to_json(deal: ConquianDeal) -> dict[str, Any]:
    """The deal as a versioned JSON snapshot (games/engine/snapshot.py): cards by
    code, no caches. ``ConquianDeal.from_json(d.to_json()) == d``."""
    cards = deal._cards

    def codes(xs: list[int] | tuple[int, ...]) -> list[str]:
        return [cards[x].code for x in xs]

    target = {"scores_in": list(deal.scores_in)} if deal.target else {}
    return {
        "snapshot": SNAPSHOT_VERSION,
        "rules": deal.rules.to_json(),
        "players": 2,
        "dealer": deal.dealer,
        "seed": deal.seed,
        "carry_in": deal.carry_in,
        **target,
        "pack_order": [c.code for c in deal.pack_order],
        "history": deal.history_json(),
        "version": deal.version,
        "hands": [codes(h) for h in deal._hands],
        "combos": [
            {"id": cid, "owner": owner, "sequence": seq, "cards": codes(xs)}
            for cid, (owner, seq, xs) in deal._combos.items()
        ],
        "next_id": deal._next_id,
        "dead": codes(deal._dead),
        "card": None if deal._card < 0 else cards[deal._card].code,
        "turned_by": deal._turned_by,
        "say": deal._say,
        "refusals": deal._refusals,
        "from_pack": deal._from_pack,
        "trade": [None if x < 0 else cards[x].code for x in deal._trade],
        "outcome": None if deal._outcome is None else deal._outcome.to_json(),
        "log": [r.to_row() for r in deal._log],
        "phase": deal._phase,
        "after_trade": deal._after_trade,
        "mover": deal._mover,
        "pack": codes(deal._pack),
    }


def deal_from_json(cls: type[ConquianDeal], data: dict[str, Any], what: str) -> ConquianDeal:
    """The deal a :meth:`to_json` snapshot describes; :class:`SnapshotError` (naming
    ``what`` and the version) for an unknown version or a malformed snapshot."""
    check_version(data, what)
    try:
        rules = make_rules(str(data["rules"]["variant"]), data["rules"]["options"])
        new = cls.__new__(cls)
        new.rules = rules
        new._order = ORDERS[str(rules.opt("pack"))]
        new._cards = CARDS
        new._idx = idx = new._order.index

        def ints(xs: list[str]) -> list[int]:
            return [idx[snapshot.card(c)] for c in xs]

        new.dealer = int(data["dealer"])
        new.seed = None if data["seed"] is None else int(data["seed"])
        new.carry_in = int(data["carry_in"])
        new.scores_in = tuple(int(s) for s in data.get("scores_in", (0, 0)))
        new.pack_order = tuple(snapshot.card(c) for c in data["pack_order"])
        new._load_history(data["history"], 2, what, CONQUIAN_NOTATION)
        new.version = int(data["version"])
        new._hands = [ints(h) for h in data["hands"]]
        new._combos = {}
        new._where = [-1] * 52
        for c in data["combos"]:
            xs = tuple(ints(c["cards"]))
            new._combos[int(c["id"])] = (int(c["owner"]), bool(c["sequence"]), xs)
            for x in xs:
                new._where[x] = int(c["id"])
        new._next_id = int(data["next_id"])
        new._dead = ints(data["dead"])
        new._card = -1 if data["card"] is None else idx[snapshot.card(data["card"])]
        new._turned_by = int(data["turned_by"])
        new._say = int(data["say"])
        new._refusals = int(data["refusals"])
        new._from_pack = bool(data["from_pack"])
        new._trade = [-1 if c is None else idx[snapshot.card(c)] for c in data["trade"]]
        new._outcome = snapshot.outcome_from_json(data["outcome"])
        new._log = [Record.from_row(e) for e in data["log"]]
        new._log_view = LogView()
        new._phase = str(data["phase"])
        new._after_trade = str(data["after_trade"])
        new._mover = int(data["mover"])
        new._pack = ints(data["pack"])
    except snapshot.LOAD_ERRORS as e:
        raise snapshot.malformed(what, data, e) from None
    new._cache_v, new._cache = -1, []
    if new.history_len() != new.version or len(new._hands) != 2 or len(new.scores_in) != 2:
        raise snapshot.malformed(what, data, "its history does not match its version")
    return new
