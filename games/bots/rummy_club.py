"""The ``club`` player for the rummy variants (foster, foster-three, colonel).

It follows Foster's "Suggestions for good play" (four or five players, three players):

- keep the cards with the most live chances: a pair of a rank fills from every copy
  still to show (eight with a double pack), a two-card sequence only from its ends, a
  gap from one card; cards under the stock or known in another hand are not live;
- discard what fits nothing, the most expensive first ("these large cards are expensive
  things to be left with");
- draw from the pack rather than take a stock card of no positive value;
- do not lay out early: what is shown can be fattened by the others. Lay out when going
  out, when someone is close to going out ("running when someone has laid down eight"),
  or when the hand clearly cannot go down within two or three rounds (cut the losses);
- a joker goes inside a sequence, not at an open end, where another may move it (L18).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.combinations import CARD_ID, CARDS, FULL_ORDER, Combination, SeqOrder, wild_id
from games.engine.rummy import generate, moves

from .base import View, caps, wild_mode
from .hands import seq_order, took_back_this_turn
from .rummy_knowledge import Knowledge, read_log, table_combinations, unseen_counts

# Tunings (measured against greedy; see tests/bots and the duel benchmark).
KEEP_BIAS = 20.0  # a useless card is shed before a cheap card with a chance
LEFTOVER_WEIGHT = 3.0  # each card still to place costs this much in a hand's value
PACK_OPTION = 5.0  # what a blind draw from the pack is worth over keeping the hand
DRAWS_AHEAD = 4.0  # own draws expected before someone goes out, while nobody is close
TABLE_FIT = 0.85  # chance of getting rid of a card that fits a combination on the table


def pips_of(cid: int, view: View) -> int:
    card = CARDS[cid]
    if caps(view).low_aces:
        return min(card.rank, 10)
    return card.pips


@dataclass
class Context:
    view: View
    seat: int
    wild: str
    wid: int
    combos: list[Combination]
    know: Knowledge
    unseen: list[int]
    unseen_total: int
    draws_left: float
    order: SeqOrder = FULL_ORDER  # the pack's sequence order (Colonel's forty, CL-opt-1)


@dataclass
class Analysis:
    cover: list[moves.Layout]
    leftover: list[int]
    chance: dict[int, float]
    loss: float

    def value(self, ctx: Context) -> float:
        """Minus the expected pips at risk and the cards still to place (after adding
        what fits the table), one of which can be the last discard."""
        rest = len(place_on_table(ctx, self)[1])
        return -self.loss - LEFTOVER_WEIGHT * max(0, rest - 1)


def make_context(view: View) -> Context:
    seat = int(view["seat"])
    wild = wild_mode(view)
    know = read_log(view)
    hand = [CARD_ID[Card.from_code(c)] for c in view.get("hand") or []]
    unseen = unseen_counts(view, know, hand)
    counts = view.get("hand_counts") or []
    others = [n for s, n in enumerate(counts) if s != seat]
    closest = min(others) if others else 10
    draws = DRAWS_AHEAD if closest > 4 else 2.0 if closest > 2 else 1.0
    pack = int(view.get("pack_count") or 0)
    if caps(view).low_aces:
        draws = min(draws, pack / 2 + 0.5)
    return Context(
        view, seat, wild, wild_id(wild), table_combinations(view), know, unseen,
        max(1, sum(unseen)), draws, seq_order(view),
    )  # fmt: skip


def hand_counts(cards: Sequence[int]) -> list[int]:
    cnt = [0] * 53
    for c in cards:
        cnt[c] += 1
    return cnt


def _layout_ids(lay: moves.Layout) -> list[int]:
    return [CARD_ID[p.card] for p in lay.cards]


def _layout_score(lay: moves.Layout, combos_wild_end: bool) -> tuple[int, int]:
    return (len(lay.cards), -int(combos_wild_end))


def _wild_at_open_end(lay: moves.Layout) -> bool:
    cards = lay.cards
    if len(cards) < 3 or cards[0].named.rank == cards[1].named.rank:
        return False
    return cards[0].is_wild or cards[-1].is_wild


def best_cover(ctx: Context, cnt: list[int]) -> tuple[list[moves.Layout], list[int]]:
    """Disjoint combinations from the hand covering the most cards (then the most pips),
    a joker preferably inside a sequence (Foster: not at an open end)."""
    size = sum(cnt)
    lays = generate.layouts(ctx.seat, cnt, size, ctx.wild, ctx.order)
    items = [(lay, hand_counts(_layout_ids(lay))) for lay in lays]
    by_card: dict[int, list[tuple[moves.Layout, list[int]]]] = {}
    for lay, need in items:
        for cid in set(_layout_ids(lay)):
            by_card.setdefault(cid, []).append((lay, need))
    memo: dict[tuple[int, ...], tuple[tuple[int, int, int], list[moves.Layout]]] = {}
    view = ctx.view

    def solve(cur: list[int]) -> tuple[tuple[int, int, int], list[moves.Layout]]:
        key = tuple(cur)
        got = memo.get(key)
        if got is not None:
            return got
        first = next((i for i in range(53) if cur[i]), -1)
        if first < 0:
            return (0, 0, 0), []
        cur[first] -= 1
        best_score, best = solve(cur)
        cur[first] += 1
        for lay, need in by_card.get(first, []):
            if all(cur[i] >= n for i, n in enumerate(need) if n):
                for i, n in enumerate(need):
                    cur[i] -= n
                sc, rest = solve(cur)
                for i, n in enumerate(need):
                    cur[i] += n
                pips = sum(pips_of(i, view) * n for i, n in enumerate(need) if n)
                score = (sc[0] + len(lay.cards), sc[1] + pips, sc[2] - _wild_at_open_end(lay))
                if score > best_score:
                    best_score, best = score, [lay, *rest]
        memo[key] = (best_score, best)
        return best_score, best

    _, cover = solve(list(cnt))
    left = list(cnt)
    for lay in cover:
        for cid in _layout_ids(lay):
            left[cid] -= 1
    leftover = [i for i in range(53) for _ in range(left[i])]
    return cover, leftover


def _positions(cid: int, order: SeqOrder) -> tuple[int, ...]:
    rank = cid // 4 + 1
    return (1, order.top + 1) if rank == 1 else (order.pos(rank),)


def fits_table(cid: int, ctx: Context, combos: Sequence[Combination] | None = None) -> int:
    """The id of a table combination the natural card ``cid`` fits, or -1."""
    if cid == ctx.wid:
        return -1
    suit, rank = cid % 4, cid // 4 + 1
    for c in combos if combos is not None else ctx.combos:
        if c.kind == "set":
            if c.rank == rank and not (not caps(ctx.view).double_pack and len(c.cards) >= 4):
                return c.id
            continue
        if c.suit != suit:
            continue
        for p in _positions(cid, ctx.order):
            if (p == c.lo - 1 and p >= 1) or (p == c.hi + 1 and p <= ctx.order.top + 1):
                return c.id
    return -1


def outs(cid: int, cnt: Sequence[int], ctx: Context) -> int:
    """Live cards that would make a combination of ``cid`` with a partner in the hand."""
    suit, rank = cid % 4, cid // 4 + 1
    want: set[int] = set()
    base = (rank - 1) * 4
    if any(cnt[base + s] - (1 if base + s == cid else 0) > 0 for s in range(4)
           if base + s != ctx.wid):  # fmt: skip
        want.update(base + s for s in range(4))
    high, at = ctx.order.top + 1, ctx.order.cid_at
    for p in _positions(cid, ctx.order):
        for q in (p - 2, p - 1, p + 1, p + 2):
            if not 1 <= q <= high:
                continue
            other = at(suit, q)
            if other == ctx.wid or not cnt[other]:
                continue
            lo, hi = min(p, q), max(p, q)
            if hi - lo == 1:
                for x in (lo - 1, hi + 1):
                    if 1 <= x <= high:
                        want.add(at(suit, x))
            else:
                want.add(at(suit, lo + 1))
    n = sum(ctx.unseen[w] for w in want if w != ctx.wid)
    if want and ctx.wid >= 0:
        n += ctx.unseen[ctx.wid]
    return n


def analyse(ctx: Context, cards: Sequence[int]) -> Analysis:
    cnt = hand_counts(cards)
    cover, leftover = best_cover(ctx, cnt)
    chance: dict[int, float] = {}
    loss = 0.0
    for cid in leftover:
        if cid == ctx.wid:
            chance[cid] = 1.0
            continue
        n = outs(cid, cnt, ctx)
        p = 1.0 - (1.0 - n / ctx.unseen_total) ** ctx.draws_left
        if fits_table(cid, ctx) >= 0:
            p = max(p, TABLE_FIT)
        chance[cid] = p
        loss += (1.0 - p) * pips_of(cid, ctx.view)
    return Analysis(cover, leftover, chance, loss)


def discard_choice(ctx: Context, an: Analysis, cards: Sequence[int]) -> int:
    """The card to discard: least chance, most expensive; never a wild card if avoidable."""
    view = ctx.view
    nxt = (ctx.seat + 1) % int(view.get("players") or 2)
    wanted = {CARD_ID[c] for c in ctx.know.taken.get(nxt, [])}
    pool = [c for c in an.leftover if c != ctx.wid]
    if not pool:
        # every card is in a combination: break the one that costs least to break
        pool = [c for c in cards if c != ctx.wid] or list(cards)

        def broken(c: int) -> tuple[float, int]:
            rest = list(cards)
            rest.remove(c)
            return (analyse(ctx, rest).value(ctx), pips_of(c, view))

        return max(pool, key=broken)

    def score(c: int) -> tuple[float, int]:
        s = (1.0 - an.chance.get(c, 0.0)) * (pips_of(c, view) + KEEP_BIAS)
        # Foster (three players): note what the next player takes in; do not feed him.
        if any(w // 4 == c // 4 or (w % 4 == c % 4 and abs(w // 4 - c // 4) <= 2) for w in wanted):
            s -= 3.0
        return (s, c)

    return max(pool, key=score)


def hand_value_after_discard(ctx: Context, cards: list[int]) -> tuple[float, bool]:
    """Value of a hand of n+1 cards once its best card is discarded; and whether the
    hand can go out at once."""
    an = analyse(ctx, cards)
    if can_go_out(ctx, an):
        return 1000.0, True
    d = discard_choice(ctx, an, cards)
    rest = list(cards)
    rest.remove(d)
    return analyse(ctx, rest).value(ctx), False


def can_go_out(ctx: Context, an: Analysis) -> bool:
    return len(place_on_table(ctx, an)[1]) <= 1


def place_on_table(ctx: Context, an: Analysis) -> tuple[list[tuple[int, int]], list[int]]:
    """Leftover cards that can go onto table combinations (chaining along sequences):
    (card, combination id) pairs, and the cards still left."""
    combos = list(ctx.combos)
    left = [c for c in an.leftover]
    placed: list[tuple[int, int]] = []
    progress = True
    while progress:
        progress = False
        for c in sorted(left, key=lambda x: (x == ctx.wid, x)):
            if c == ctx.wid:
                continue
            cid = fits_table(c, ctx, combos)
            if cid < 0:
                continue
            placed.append((c, cid))
            left.remove(c)
            combos = [_extended(cb, c, ctx.order) if cb.id == cid else cb for cb in combos]
            progress = True
            break
    if left and all(c == ctx.wid for c in left) and combos and len(left) <= 2:
        target = combos[0]
        for c in list(left):
            placed.append((c, target.id))
            left.remove(c)
    return placed, left


def _extended(c: Combination, cid: int, order: SeqOrder) -> Combination:
    if c.kind == "set":
        return c
    rank = cid // 4 + 1
    pos = [p for p in _positions(cid, order) if p in (c.lo - 1, c.hi + 1)]
    if not pos:
        return c
    if pos[0] == c.lo - 1:
        return Combination(c.id, c.owner, c.kind, c.cards[:1] + c.cards, suit=c.suit, lo=c.lo - 1)
    _ = rank
    return Combination(c.id, c.owner, c.kind, c.cards + c.cards[-1:], suit=c.suit, lo=c.lo)


class RummyClub:
    """Foster's principles for foster, foster-three and colonel."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        ctx = make_context(view)
        hand = [CARD_ID[Card.from_code(c)] for c in view.get("hand") or []]
        if any(isinstance(a, moves.Accept) for a in legal):
            return self._answer_challenge(ctx, hand, legal)
        draws = [a for a in legal if isinstance(a, moves.Draw)]
        if draws:
            ch = [a for a in legal if isinstance(a, moves.Challenge)]
            if ch and self._should_challenge(ctx, hand):
                return ch[0]
            return self._draw(ctx, hand, draws)
        return self._play(ctx, hand, legal)

    # -- colonel's challenge ---------------------------------------------------------

    def _opponent_pips(self, ctx: Context) -> float:
        counts = ctx.view.get("hand_counts") or [10, 10]
        opp = counts[1 - ctx.seat]
        total = sum(n * pips_of(i, ctx.view) for i, n in enumerate(ctx.unseen))
        avg = total / ctx.unseen_total
        return float(opp) * avg * 0.7  # he keeps his low cards and his combinations

    def _answer_challenge(self, ctx: Context, hand: list[int], legal: Sequence[Action]) -> Action:
        mine = sum(pips_of(c, ctx.view) for c in hand)
        want = moves.Accept if mine < self._opponent_pips(ctx) * 0.8 else moves.Decline
        return next(a for a in legal if isinstance(a, want))

    def _should_challenge(self, ctx: Context, hand: list[int]) -> bool:
        mine = sum(pips_of(c, ctx.view) for c in hand)
        return mine <= 5 or mine < self._opponent_pips(ctx) * 0.35

    # -- drawing ----------------------------------------------------------------------

    def _draw(self, ctx: Context, hand: list[int], draws: list[moves.Draw]) -> Action:
        pack = [a for a in draws if a.source == "pack"]
        stock = [a for a in draws if a.source == "stock"]
        if not stock:
            return pack[0]
        if not pack:
            return stock[0]
        base = analyse(ctx, hand).value(ctx) + PACK_OPTION
        best: tuple[float, moves.Draw] | None = None
        top = ctx.view.get("stock") or []
        for a in stock:
            card = a.card if a.card is not None else (Card.from_code(top[-1]) if top else None)
            if card is None:
                continue
            v, out = hand_value_after_discard(ctx, [*hand, CARD_ID[card]])
            if best is None or v > best[0]:
                best = (v, a)
        if best is not None and best[0] > base:
            return best[1]
        return pack[0]

    # -- laying out and discarding ------------------------------------------------------

    def _play(self, ctx: Context, hand: list[int], legal: Sequence[Action]) -> Action:
        view = ctx.view
        discards = {CARD_ID[a.card]: a for a in legal if isinstance(a, moves.Discard)}
        layouts = [a for a in legal if isinstance(a, moves.Layout)]
        adds = [a for a in legal if isinstance(a, moves.Add)]
        back = [a for a in legal if isinstance(a, moves.TakeBack)]
        an = analyse(ctx, hand)
        if took_back_this_turn(view):
            layouts, adds = [], []
        placed, left = place_on_table(ctx, an)
        going_out = len(left) <= 1
        if going_out or self._lay_now(ctx, an, hand):
            for lay in an.cover:
                if lay in layouts:
                    return lay
            for c, combo in placed:
                if not going_out and an.chance.get(c, 0.0) > 0.5 and c != ctx.wid:
                    continue
                a = _find_add(adds, c, combo)
                if a is not None:
                    return a
        elif self._may_shed(ctx):
            for c, combo in placed:
                if c == ctx.wid:
                    continue
                a = _find_add(adds, c, combo)
                if a is not None:
                    return a
        if discards:
            d = discard_choice(ctx, an, hand)
            if d in discards:
                return discards[d]
            return max(discards.values(), key=lambda a: pips_of(CARD_ID[a.card], view))
        if back:
            return back[0]
        other = [a for a in legal if not isinstance(a, moves.MoveJoker)]
        return (other or list(legal))[0]

    def _may_shed(self, ctx: Context) -> bool:
        ratting = (ctx.view.get("options") or {}).get("ratting", "free")
        return ratting in ("free", "penalty30") or bool(ctx.view.get("shown_this_turn"))

    def _lay_now(self, ctx: Context, an: Analysis, hand: list[int]) -> bool:
        """Foster: hold the combinations unless someone is near going out, or the hand
        cannot go down within two or three rounds and holds many pips."""
        view = ctx.view
        if not an.cover:
            return False
        opts = view.get("options") or {}
        ratting = opts.get("ratting", "free")
        if ratting == "none":
            return False
        shown = sum(len(lay.cards) for lay in an.cover)
        if ratting == "six" and shown < 6 and not self._has_shown(ctx):
            return False
        seat = ctx.seat
        counts = view.get("hand_counts") or []
        closest = min((n for s, n in enumerate(counts) if s != seat), default=10)
        if closest <= 4:
            return True
        if ratting == "penalty30" and not ctx.combos:
            return False
        covered = sum(pips_of(c, view) for lay in an.cover for c in _layout_ids(lay))
        rounds = len(an.leftover) - 1
        pack = int(view.get("pack_count") or 0)
        if caps(view).low_aces:
            return pack <= 6 or rounds >= 3
        return (rounds >= 3 and covered >= 15) or covered >= 30 or pack < 8

    def _has_shown(self, ctx: Context) -> bool:
        return any(c.owner == ctx.seat for c in ctx.combos)


def _find_add(adds: list[moves.Add], cid: int, combo: int) -> moves.Add | None:
    card = CARDS[cid]
    best: moves.Add | None = None
    for a in adds:
        if a.combination == combo and a.card.card == card and (best is None or not a.card.is_wild):
            best = a
    return best


def ranked_alternatives(view: View, legal: Sequence[Action], k: int) -> list[Action]:
    """The club player's ``k`` best-looking draws or discards (for the expert's search)."""
    draws = [a for a in legal if isinstance(a, moves.Draw)]
    if draws:
        return list[Action](draws[:k])
    discards = {CARD_ID[a.card]: a for a in legal if isinstance(a, moves.Discard)}
    if not discards:
        return []
    ctx = make_context(view)
    hand = [CARD_ID[Card.from_code(c)] for c in view.get("hand") or []]
    an = analyse(ctx, hand)

    def score(c: int) -> tuple[float, int]:
        if c == ctx.wid:
            return (-100.0, c)
        return ((1.0 - an.chance.get(c, 1.0)) * (pips_of(c, view) + KEEP_BIAS), c)

    order = sorted(discards, key=score, reverse=True)
    return [discards[c] for c in order[:k]]
