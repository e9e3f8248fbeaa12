"""Fast playout policies for the expert's search.

A playout runs inside a determinised world the expert built for itself (its own sample
of the hidden cards), so the simulated players may read that world's state directly:
no hidden information of the real deal is involved. Reading the state instead of
building a ``player_view`` at every step makes a rummy playout several times quicker.
"""

from __future__ import annotations

import random

from games.engine.actions import Action
from games.engine.combinations import CARD_ID, CARDS, wild_id
from games.engine.protocol import DealState
from games.engine.rummy.deal import RummyDeal
from games.engine.rummy.moves import Accept, Add, Decline, Discard, Draw, Layout, MoveJoker

from .base import Bot

MAX_PLAYOUT_STEPS = 3000


def _partnered(cid: int, cnt: list[int], wid: int) -> bool:
    """A card with another of its rank, or one of its suit within two places."""
    if cid == wid:
        return True
    rank, suit = cid // 4, cid % 4
    for s in range(4):
        other = rank * 4 + s
        if other != wid and cnt[other] - (other == cid) > 0:
            return True
    for d in (-2, -1, 1, 2):
        r = rank + d
        if 0 <= r < 13:
            other = r * 4 + suit
            if other != wid and cnt[other]:
                return True
    return rank in (0, 1, 11, 12) and any(
        cnt[r * 4 + suit] for r in ((11, 12) if rank <= 1 else (0,)) if r * 4 + suit != wid
    )


def greedy_on_state(d: RummyDeal, seat: int, legal: list[Action], hold: bool = False) -> Action:
    """The greedy player of :mod:`.greedy_rummy`, reading the sampled state. With
    ``hold``, it times its laying out as the club player does (:func:`_lays_now`)."""
    wid = wild_id(d.table.wild)
    cnt = [0] * 53
    for cid in d.hand_ids(seat):
        cnt[cid] += 1
    draws = [a for a in legal if isinstance(a, Draw)]
    if draws:
        stock = d.stock
        for a in draws:
            if a.source == "stock":
                card = a.card if a.card is not None else (stock[-1] if stock else None)
                if card is None:
                    continue
                cid = CARD_ID[card]
                if cid == wid or _completes(cid, cnt, wid):
                    return a
        return next((a for a in draws if a.source == "pack"), draws[0])
    if any(isinstance(a, Accept) for a in legal):
        small = sum(min(CARDS[c].rank, 10) for c in d.hand_ids(seat)) <= 10
        return next(a for a in legal if isinstance(a, Accept if small else Decline))
    best_lay: Layout | None = None
    add: Action | None = None
    discard: Discard | None = None
    best_key = (-1, -1, -1)
    for act in legal:
        if isinstance(act, Layout):
            if best_lay is None or len(act.cards) > len(best_lay.cards):
                best_lay = act
        elif isinstance(act, (Add, MoveJoker)):
            if add is None or (not act.card.is_wild and isinstance(act, Add)):
                add = act
        elif isinstance(act, Discard):
            cid = CARD_ID[act.card]
            key = (int(not _partnered(cid, cnt, wid)), int(cid != wid), act.card.pips)
            if key > best_key:
                best_key, discard = key, act
    took_back = _took_back(d, seat)
    if best_lay is not None and not took_back and (not hold or _lays_now(d, seat, best_lay)):
        return best_lay
    if add is not None and not took_back:
        return add
    if discard is not None:
        return discard
    return next((a for a in legal if a.type == "take-back"), legal[0])


def _lays_now(d: RummyDeal, seat: int, lay: Layout) -> bool:
    """The club player's timing (``ClubBot``'s, in games/bots/rummy_club.py) in a form cheap
    enough for playouts: once he has begun putting cards down this turn he goes on, and
    he adds to the table's combinations (sheds) freely; a new combination he holds
    unless it takes him out, someone is near going out, the pack is nearly spent, or it
    holds many pips ("these large cards are expensive things to be left with")."""
    if d.shown_this_turn:
        return True
    size, n = d.hand_size(seat), len(lay.cards)
    if size - n <= 1:
        return True
    if min(d.hand_size(s) for s in range(d.players) if s != seat) <= 4 or d.pack_count < 8:
        return True
    covered = sum(min(p.card.pips, 10) for p in lay.cards)
    return covered >= 30 or (size - n - 1 >= 3 and covered >= 15)


def _took_back(d: RummyDeal, seat: int) -> bool:
    hist = d.history
    for a in reversed(hist):
        if a.seat != seat:
            return False
        if a.type == "take-back":
            return True
        if a.type == "draw":
            return False
    return False


def _completes(cid: int, cnt: list[int], wid: int) -> bool:
    rank, suit = cid // 4, cid % 4
    wilds = cnt[wid] if wid >= 0 else 0
    same = sum(cnt[rank * 4 + s] for s in range(4) if rank * 4 + s != wid)
    if same + min(wilds, 1) >= 2:
        return True
    have = {r for r in range(13) if cnt[r * 4 + suit] and r * 4 + suit != wid}
    for lo in range(rank - 2, rank + 1):
        missing = sum(1 for r in range(lo, lo + 3) if r != rank and r not in have)
        if lo >= 0 and lo + 2 <= 12 and missing <= min(wilds, 1) and missing < 2:
            return True
    return False


def playout(
    state: DealState, seat: int, policy: Bot, rng: random.Random, hold: bool = False
) -> float:
    """Play ``state`` to the end; ``seat``'s payment. A rummy deal is played by the
    greedy player reading the state (holding its combinations with ``hold``); Conquián by
    ``policy`` through views."""
    steps = 0
    fast = isinstance(state, RummyDeal)
    while not state.is_over() and steps < MAX_PLAYOUT_STEPS:
        s = state.to_move()
        assert s is not None
        legal = state.legal_actions(s)
        if len(legal) == 1:
            a = legal[0]
        elif fast:
            assert isinstance(state, RummyDeal)
            a = greedy_on_state(state, s, legal, hold)
        else:
            a = policy.choose(state.player_view(s), legal, rng)
        state.apply(a)
        steps += 1
    out = state.outcome()
    if out is None:
        return 0.0
    return float(out.payments[seat])
