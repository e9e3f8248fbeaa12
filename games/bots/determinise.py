"""Determinisation: a full engine state consistent with what one seat has seen.

The expert samples the cards it has not seen into the other hands (sizes from
``hand_counts``) and the pack (``pack_count``), keeping the cards it knows another seat
holds (picked up from the stock) in that seat's hand, and builds an engine state from
its view plus that sample, to play candidate actions out.

The engine offers no constructor from a view, so this adapter deals a throw-away deal
with :func:`games.engine.new_deal` and then sets the dealt state's fields from the view
and the sample. It reads the engine's private fields by name, so the bots' tests check
that ``state.player_view(seat)`` of a determinised state matches the view it came from
(hand, table, counts, stock, whose move); if the engine changes, those tests fail first.
The hook the engine should offer instead: ``DealState.from_view(view, hidden)`` taking a
player_view and an assignment of the hidden cards (other hands, pack order).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.cards import Card, PackKind
from games.engine.combinations import CARD_ID
from games.engine.conquian import ConquianDeal, new_conquian_deal
from games.engine.conquian_melds import pack_cards
from games.engine.deal import new_deal
from games.engine.foster import RummyDeal
from games.engine.protocol import DealState
from games.engine.records import Kind
from games.engine.rules import make_rules

from .base import View, caps
from .rummy_knowledge import read_log, table_combinations, unseen_counts


class CannotDeterminise(Exception):
    """A position this adapter does not model (a phase without search, a deal that is
    over): the expert plays its prior (the club player's choice) there."""


class InconsistentView(RuntimeError):
    """The view contradicts itself or its log (the cards seen do not fit the counts): a
    bug in the view or in this adapter, raised, never played round."""


def determinise(view: View, rng: random.Random) -> DealState:
    """A state consistent with ``view``: the seat's own cards and everything public as
    seen, the unseen cards shuffled into the other hands and the pack."""
    if caps(view).say:
        return _conquian(view, rng)
    return _rummy(view, rng)


# ---------------------------------------------------------------- rummy variants


def _rummy(view: View, rng: random.Random) -> RummyDeal:
    phase = view.get("phase")
    if phase not in ("draw", "play", "challenge"):
        raise CannotDeterminise(f"phase {phase!r}")
    rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
    n = int(view["players"])
    seat = int(view["seat"])
    d = new_deal(rules, n, int(view["dealer"]), seed=0)
    assert isinstance(d, RummyDeal)
    know = read_log(view)
    hand = [CARD_ID[Card.from_code(c)] for c in view.get("hand") or []]
    unseen = unseen_counts(view, know, hand)
    pool = [cid for cid, k in enumerate(unseen) for _ in range(k)]
    rng.shuffle(pool)
    counts = list(view["hand_counts"])
    cnt = [[0] * 53 for _ in range(n)]
    for cid in hand:
        cnt[seat][cid] += 1
    for s in range(n):
        if s == seat:
            continue
        for card, k in know.known.get(s, Counter()).items():
            if k > 0:
                cnt[s][CARD_ID[card]] += k
        need = counts[s] - sum(cnt[s])
        if need < 0 or need > len(pool):
            raise InconsistentView("known cards do not fit the hand counts")
        for _ in range(need):
            cnt[s][pool.pop()] += 1
    if len(pool) != int(view["pack_count"]):
        raise InconsistentView(f"{len(pool)} unseen cards for a pack of {view['pack_count']}")
    stock = [CARD_ID[c] for c in know.stock]
    if len(stock) != int(view.get("stock_count") or 0):
        raise InconsistentView("stock does not match the log")
    to_move = view.get("to_move")
    if to_move is None:
        raise CannotDeterminise("the deal is over")
    fields: dict[str, Any] = {
        "_cnt": cnt,
        "_size": counts,
        "_stock": stock,
        "_pack": pool,
        "_combos": table_combinations(view),
        "_turn": (int(to_move) - 1) % n if phase == "challenge" else int(to_move),
        "_phase": phase,
        "_shown": int(view.get("shown_this_turn") or 0),
        "_turnovers": int(view.get("turnovers") or 0),
        "version": int(view.get("version") or 0),
    }
    shown_before = _shown_seats(view)
    fields["_has_shown"] = [s in shown_before for s in range(n)]
    fields["_first_ratter"] = _first_ratter(view)
    fields["_challenged"] = _challenged_this_turn(view)
    fields["_pack_out"] = not d.table.turnover and phase == "play" and int(view["pack_count"]) == 0
    if fields["_shown"]:
        # a take-back restores the start of the turn; the hand is rebuilt from the log
        fields["_snapshot"] = _snapshot(view, cnt[seat], counts[seat], fields["_combos"])
    for name, val in fields.items():
        setattr(d, name, val)
    d._log = []
    d.history = []
    d._legal_key = -1
    return d


_SHOWS = (Kind.LAYOUT, Kind.ADD, Kind.MOVE_JOKER)


def _shown_seats(view: View) -> set[int]:
    """Seats that put cards on the table in an earlier turn (then discarded)."""
    out: set[int] = set()
    pending: dict[int, bool] = {}
    for e in view.get("log") or []:
        s, kind = e.get("seat"), e.get("kind")
        if s is None:
            continue
        if kind in _SHOWS:
            pending[s] = True
        elif kind == Kind.TAKE_BACK:
            pending[s] = False
        elif kind == Kind.DISCARD:
            if pending.get(s):
                out.add(s)
            pending[s] = False
    return out


def _first_ratter(view: View) -> int | None:
    pending: dict[int, bool] = {}
    for e in view.get("log") or []:
        s, kind = e.get("seat"), e.get("kind")
        if s is None:
            continue
        if kind in _SHOWS:
            pending[s] = True
        elif kind == Kind.TAKE_BACK:
            pending[s] = False
        elif kind == Kind.DISCARD and pending.get(s):
            return int(s)
    return None


def _challenged_this_turn(view: View) -> bool:
    for e in reversed(view.get("log") or []):
        kind = e.get("kind")
        if kind == Kind.DECLINE or kind == Kind.CHALLENGE:
            return True
        if kind == Kind.DISCARD:
            return False
    return False


def _snapshot(
    view: View, cnt: list[int], size: int, combos: list[Any]
) -> tuple[list[int], int, list[Any]]:
    back = list(cnt)
    seat = view.get("seat")
    added = 0
    for e in reversed(view.get("log") or []):
        if e.get("seat") != seat:
            break
        kind = e.get("kind")
        if kind == Kind.DRAW_PACK or kind == Kind.DRAW_STOCK:
            break
        codes: list[str] = list(e.get("cards") or ()) if kind in _SHOWS else []
        for code in codes:
            back[CARD_ID[Card.from_code(code.split("=")[0])]] += 1
            added += 1
    # the table before the turn is not rebuilt: a take-back in a playout keeps it
    return back, size + added, list(combos)


# ---------------------------------------------------------------- Conquián


def _conquian(view: View, rng: random.Random) -> ConquianDeal:
    phase = view.get("phase")
    if phase not in ("say", "turn", "discard"):
        raise CannotDeterminise(f"phase {phase!r}")
    rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
    kind = PackKind.FORTY_SPANISH if rules.opt("pack") == "spanish" else PackKind.FORTY_FOSTER
    cards = pack_cards(kind)
    index = {c: i for i, c in enumerate(cards)}
    seat = int(view["seat"])
    opp = 1 - seat
    d = new_conquian_deal(
        rules, int(view["dealer"]), seed=0, carry_in=int(view.get("carry_in") or 0)
    )
    hand = sorted(index[Card.from_code(c)] for c in view.get("hand") or [])
    combos: dict[int, tuple[int, bool, tuple[int, ...]]] = {}
    where = [-1] * 40
    for c in view.get("combinations") or []:
        cs = tuple(sorted(index[Card.from_code(x["card"])] for x in c["cards"]))
        combos[int(c["id"])] = (int(c["owner"]), c["kind"] == "sequence", cs)
        for x in cs:
            where[x] = int(c["id"])
    dead: list[int] = []
    last = None
    for e in view.get("log") or []:
        kind = e.get("kind")
        if kind == Kind.TURN_DOWN:
            dead.append(index[Card.from_code(e["cards"][0])])
        last = kind
    if len(dead) != int(view.get("dead_count") or 0):
        raise InconsistentView("dead cards do not match the log")
    turned = view.get("turned")
    card = index[Card.from_code(turned)] if turned else -1
    seen = set(hand) | set(dead) | {x for _, _, cs in combos.values() for x in cs}
    if card >= 0:
        seen.add(card)
    pool = [x for x in range(40) if x not in seen]
    rng.shuffle(pool)
    need = int(view["hand_counts"][opp])
    if need + int(view["pack_count"]) != len(pool):
        raise InconsistentView("unseen cards do not match the counts")
    hands: list[list[int]] = [[], []]
    hands[seat] = hand
    hands[opp] = sorted(pool[:need])
    say = view.get("say")
    turned_by = view.get("turned_by")
    from_pack = last != Kind.THROW
    refusals = 1 if (phase == "say" and last == Kind.REFUSE) else 0
    fields: dict[str, Any] = {
        "version": int(view.get("version") or 0),
        "history": [],
        "_hands": hands,
        "_combos": combos,
        "_where": where,
        "_next_id": max(combos, default=-1) + 1,
        "_dead": dead,
        "_card": card,
        "_turned_by": -1 if turned_by is None else int(turned_by),
        "_say": -1 if say is None else int(say),
        "_refusals": refusals,
        "_from_pack": from_pack,
        "_trade": [-1, -1],
        "_outcome": None,
        "_log": [],
        "_cache_v": -1,
        "_cache": [],
        "_phase": phase,
        "_mover": int(view["to_move"]),
        "_pack": pool[need:],
    }
    for k, v in fields.items():
        setattr(d, k, v)
    return d
