"""A rummy deal as a versioned JSON snapshot and back (:mod:`..snapshot`): cards by code,
no caches. :meth:`~.deal.RummyDeal.to_json` and ``from_json`` call these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import snapshot
from ..combinations import CARDS, cid_of
from ..records import Record
from ..rules import make_rules
from ..snapshot import check_version
from ..words import LogView
from .moves import RUMMY_ACTIONS
from .parts import _combination, _combination_json, _counted_codes, _counts, table_for

if TYPE_CHECKING:
    from .deal import RummyDeal


def write(deal: RummyDeal) -> dict[str, Any]:
    """The deal as a snapshot. ``read(RummyDeal, write(d), ...) == d``."""
    snap = deal._snapshot
    return deal.snapshot_header() | {
        "hands": [_counted_codes(c) for c in deal._cnt],
        "sizes": list(deal._size),
        "stock": [CARDS[i].code for i in deal._stock],
        "pack": [CARDS[i].code for i in deal._pack],
        "combinations": [_combination_json(c) for c in deal._combos],
        "turn": deal._turn,
        "phase": deal._phase,
        "shown": deal._shown,
        "taken_back_to": None
        if snap is None
        else {
            "hand": _counted_codes(snap[0]),
            "size": snap[1],
            "combinations": [_combination_json(c) for c in snap[2]],
        },
        "has_shown": list(deal._has_shown),
        "first_ratter": deal._first_ratter,
        "turnovers": deal._turnovers,
        "challenged": deal._challenged,
        "pack_out": deal._pack_out,
        "log": [r.to_row() for r in deal._log],
        "outcome": None if deal._outcome is None else deal._outcome.to_json(),
    }


def read(cls: type[RummyDeal], data: dict[str, Any], what: str) -> RummyDeal:
    """The deal a :func:`write` snapshot describes; :class:`SnapshotError` (naming ``what``
    and the version) for an unknown version or a malformed snapshot."""
    check_version(data, what)
    try:
        rules = make_rules(str(data["rules"]["variant"]), data["rules"]["options"])
        new = cls.__new__(cls)
        new.rules, new.table = rules, table_for(rules)
        new.players = n = int(data["players"])
        new.dealer = int(data["dealer"])
        new.seed = None if data["seed"] is None else int(data["seed"])
        new.pack_order = tuple(snapshot.card(c) for c in data["pack_order"])
        new._load_history(data["history"], n, what, RUMMY_ACTIONS)
        new.version = int(data["version"])
        new._cnt = [_counts(h) for h in data["hands"]]
        new._size = [int(s) for s in data["sizes"]]
        new._stock = [cid_of(snapshot.card(c)) for c in data["stock"]]
        new._pack = [cid_of(snapshot.card(c)) for c in data["pack"]]
        new._combos = [_combination(c) for c in data["combinations"]]
        new._turn = int(data["turn"])
        new._phase = str(data["phase"])
        new._shown = int(data["shown"])
        back = data["taken_back_to"]
        new._snapshot = (
            None
            if back is None
            else (
                _counts(back["hand"]),
                int(back["size"]),
                [_combination(c) for c in back["combinations"]],
            )
        )
        new._has_shown = [bool(x) for x in data["has_shown"]]
        ratter = data["first_ratter"]
        new._first_ratter = None if ratter is None else int(ratter)
        new._turnovers = int(data["turnovers"])
        new._challenged = bool(data["challenged"])
        new._pack_out = bool(data["pack_out"])
        new._log = [Record.from_row(e) for e in data["log"]]
        new._log_view = LogView()
        new._outcome = snapshot.outcome_from_json(data["outcome"])
    except snapshot.LOAD_ERRORS as e:
        raise snapshot.malformed(what, data, e) from None
    if new.history_len() != new.version or not (
        len(new._cnt) == len(new._size) == len(new._has_shown) == n
    ):
        raise snapshot.malformed(what, data, "its seats or its history do not match")
    new._legal_key, new._legal, new._legal_ids, new._legal_frozen = -1, [], frozenset(), None
    return new
