"""The ``club`` player for Conquián, after Foster's suggestions for two players.

- Watch the cards passed and buried: a combination whose fitting cards are dead, on the
  table or held by nobody is blocked; "it is useless to hold combinations that are
  blocked". Count the cards still to come (the pack and the adversary's hand are the
  only places an unseen card can be).
- Judicious forcing: "if he refuses the card himself, it is invariably good play to force
  him with it" -- it breaks up the two cards he is holding.
- Blocking: use a card the adversary wants when one can (the player who turns it has the
  first say); never discard a card that fits his combinations.
- Hold combinations in the hand rather than show them: nothing can be forced on what is
  not shown, and the hand melds them down with the winning card (under pips scoring the
  held cards are paid for, so they go down).
- With a hopeless hand play for a tableau: use nothing, so as to discard nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.combinations import CARDS
from games.engine.conquian import actions as conquian
from games.engine.conquian.order import ORDERS, PackOrder, by_suit
from games.engine.records import Kind

from .base import View

# What the log says of the cards refused, turned down and discarded (read by kind).
_SAID = (Kind.TURN_DOWN, Kind.REFUSE, Kind.THROW)

# Tunings, measured against greedy.
LEFT_WEIGHT = 10.0  # each card that still needs a partner
CHANCE_WEIGHT = 7.0  # ... less its chance of finding one
FEED_PENALTY = 9.0  # discarding a card that fits an adversary's combination
NEAR_PENALTY = 2.5  # discarding a card near what the adversary took in
BLOCK_BONUS = 4.0  # using a card the adversary could use
HAND_WEIGHT = 2.0  # each card still in the hand (fewer is nearer eleven down)
FINISH_BONUS = 3.0  # nothing left that cannot go down
FINISH_OUTS = 0.3  # ... and each unseen card that would finish


def _order(view: View) -> PackOrder:
    return ORDERS[str((view.get("options") or {}).get("pack") or "forty")]


@dataclass
class Combo:
    owner: int
    is_seq: bool
    cards: tuple[int, ...]
    id: int = -1


@dataclass
class Ctx:
    view: View
    order: PackOrder
    seat: int
    hand: list[int]
    combos: list[Combo]
    dead: set[int]
    in_play: int
    unseen: set[int]
    refused_by_opp: set[int] = field(default_factory=set)
    passed_by_opp: set[int] = field(default_factory=set)
    thrown_by_opp: set[int] = field(default_factory=set)
    pips_scoring: bool = False

    def idx(self, card: Card) -> int:
        return self.order.index[card]

    @property
    def opp(self) -> int:
        return 1 - self.seat


def make_ctx(view: View) -> Ctx:
    order = _order(view)
    index = order.index
    seat = int(view["seat"])
    hand = sorted((index[Card.from_code(c)] for c in view.get("hand") or []), key=by_suit)
    combos = [
        Combo(
            c["owner"],
            c["kind"] == "sequence",
            tuple(sorted(index[Card.from_code(x["card"])] for x in c["cards"])),
            c["id"],
        )  # fmt: skip
        for c in view.get("combinations") or []
    ]
    turned = view.get("turned")
    in_play = index[Card.from_code(turned)] if turned else -1
    dead: set[int] = set()
    refused: set[int] = set()
    passed: set[int] = set()
    thrown: set[int] = set()
    for e in view.get("log") or []:
        said = e.get("kind")
        if said not in _SAID:
            continue
        s = e.get("seat")
        x = index[Card.from_code(e["cards"][0])]
        if said == Kind.TURN_DOWN:
            dead.add(x)
            if s != seat:
                refused.add(x)
        elif said == Kind.REFUSE and s != seat:
            refused.add(x)
            passed.add(x)
        elif said == Kind.THROW and s != seat:
            thrown.add(x)
    seen = set(hand) | dead | {x for c in combos for x in c.cards}
    if in_play >= 0:
        seen.add(in_play)
    unseen = set(order.ids()) - seen
    pips = (view.get("options") or {}).get("scoring") == "pips"
    return Ctx(
        view, order, seat, hand, combos, dead, in_play, unseen, refused, passed, thrown, pips
    )


# ------------------------------------------- combinations on the engine's card ids
# A card is its id, (rank - 1) * 4 + suit; a pack's sequence order is its PackOrder
# (the Spanish jack after the seven, the ace low only).


def fits(card: int, combo: Combo, order: PackOrder) -> bool:
    cs = combo.cards
    if not combo.is_seq:
        return len(cs) < 4 and card >> 2 == cs[0] >> 2
    return order.up[cs[-1]] == card or order.down[cs[0]] == card


def _is_seq(cards: Sequence[int]) -> bool:
    return len({y >> 2 for y in cards}) > 1


def _melds_in(hand: Sequence[int], order: PackOrder) -> list[tuple[int, ...]]:
    """Every combination (3+ cards) inside a hand."""
    hs = set(hand)
    out: list[tuple[int, ...]] = []
    place, up, down = order.place, order.up, order.down
    for r in {place[c] for c in hand}:
        same = [x for x in (order.suits[s][r] for s in range(4)) if x in hs]
        if len(same) >= 3:
            out.append(tuple(same))
            if len(same) == 4:
                for drop in same:
                    out.append(tuple(x for x in same if x != drop))
    for c in hand:
        if down[c] not in hs:  # start of a run (-1, before the ace, is never held)
            run = [c]
            while up[run[-1]] in hs:
                run.append(up[run[-1]])
            for i in range(len(run)):
                for j in range(i + 3, len(run) + 1):
                    out.append(tuple(run[i:j]))
    return out


def cover(
    hand: Sequence[int], own: Sequence[Combo], order: PackOrder
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Most hand cards that can go down with no other card: combinations inside the hand,
    then cards that extend one's own combinations (chained along a sequence)."""
    melds = _melds_in(hand, order)
    best: tuple[int, list[tuple[int, ...]]] = (0, [])

    def search(rest: frozenset[int], chosen: list[tuple[int, ...]], start: int) -> None:
        nonlocal best
        n = sum(len(m) for m in chosen)
        if n > best[0]:
            best = (n, list(chosen))
        for i in range(start, len(melds)):
            m = melds[i]
            if all(x in rest for x in m):
                chosen.append(m)
                search(rest - set(m), chosen, i + 1)
                chosen.pop()

    search(frozenset(hand), [], 0)
    melded = best[1]
    left = [c for c in hand if not any(c in m for m in melded)]
    combos = [Combo(c.owner, c.is_seq, c.cards) for c in own] + [
        Combo(-1, _is_seq(m), m) for m in melded
    ]
    progress = True
    while progress and left:
        progress = False
        for c in list(left):
            for cb in combos:
                if fits(c, cb, order):
                    cb.cards = tuple(sorted((*cb.cards, c)))
                    left.remove(c)
                    progress = True
                    break
    return melded, left


def outs(card: int, hand: Sequence[int], own: Sequence[Combo], ctx: Ctx) -> int:
    """Unseen cards that would let ``card`` go down (with a partner in the hand, or by
    bridging to one's own combination)."""
    hs = set(hand)
    want: set[int] = set()
    order = ctx.order
    r, s, at = card >> 2, card & 3, order.place[card]
    if any(x >> 2 == r and x != card for x in hs):
        want.update(r * 4 + t for t in range(4))
    for d in (-2, -1, 1, 2):
        o = order.at(s, at + d)
        if o is None:
            continue
        partner = o in hs or any(o in cb.cards and cb.is_seq for cb in own)
        if not partner:
            continue
        lo, hi = min(card, o), max(card, o)  # one suit: sorted by id is sequence order
        if abs(d) == 1:
            want.update(x for x in (order.down[lo], order.up[hi]) if x >= 0)
        else:
            want.add(order.up[lo])
    return len(want & ctx.unseen)


def value(hand: Sequence[int], own: Sequence[Combo], ctx: Ctx) -> float:
    """How close the hand is to eleven down: cards that cannot go down count against it,
    less their chance of finding a partner among the unseen cards."""
    _, left = cover(hand, own, ctx.order)
    unseen = max(1, len(ctx.unseen))
    pack = int(ctx.view.get("pack_count") or 0)
    looks = max(1.0, pack * 1.2)
    v = 0.0
    for c in left:
        n = outs(c, hand, own, ctx)
        p = 1.0 - (1.0 - n / unseen) ** looks if n else 0.0
        v -= LEFT_WEIGHT - CHANCE_WEIGHT * p
        if ctx.pips_scoring:
            v -= (ctx.order.place[c] + 1) * 0.3
    if not left:
        # every card can go down: any card fitting a combination wins (eleven down)
        melded, _ = cover(hand, own, ctx.order)
        shown = [c.cards for c in own] + melded
        fitting = sum(
            1 for x in ctx.unseen
            if any(fits(x, Combo(-1, _is_seq(cs), cs), ctx.order) for cs in shown)
        )  # fmt: skip
        v += FINISH_BONUS + FINISH_OUTS * fitting
    return v - HAND_WEIGHT * len(hand)


def opp_wants(card: int, ctx: Ctx) -> float:
    """How much the adversary would like ``card``: it fits his combination, or he has not
    refused cards like it."""
    theirs = [c for c in ctx.combos if c.owner == ctx.opp]
    if any(fits(card, c, ctx.order) for c in theirs):
        return FEED_PENALTY
    score = 0.0
    if card in ctx.refused_by_opp:
        return 0.0
    place = ctx.order.place
    r, s, at = card >> 2, card & 3, place[card]
    refused_near = any(x >> 2 == r or (x & 3 == s and abs(place[x] - at) <= 1)
                       for x in ctx.refused_by_opp | ctx.thrown_by_opp)  # fmt: skip
    live_partners = sum(
        1 for x in ctx.unseen if x >> 2 == r or (x & 3 == s and abs(place[x] - at) <= 2)
    )
    score += NEAR_PENALTY * min(1.0, live_partners / 4)
    if refused_near:
        score -= NEAR_PENALTY * 0.6
    return max(0.0, score)


def _own(ctx: Ctx) -> list[Combo]:
    return [c for c in ctx.combos if c.owner == ctx.seat]


def best_throw(hand: Sequence[int], own: Sequence[Combo], ctx: Ctx) -> tuple[float, int]:
    """The discard that leaves the best hand, less what it gives the adversary."""
    best: tuple[float, int] | None = None
    for d in sorted(set(hand), key=by_suit):
        rest = [x for x in hand if x != d]
        v = value(rest, own, ctx) - opp_wants(d, ctx)
        if ctx.pips_scoring:
            v += (ctx.order.place[d] + 1) * 0.3
        if best is None or v > best[0]:
            best = (v, d)
    assert best is not None
    return best


def winning(hand: Sequence[int], own: Sequence[Combo], order: PackOrder) -> bool:
    return not cover(hand, own, order)[1]


class ConquianClub:
    """Foster's suggestions for two players."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        ctx = make_ctx(view)
        trades = [a for a in legal if isinstance(a, conquian.TradeAction)]
        if trades:
            _, d = best_throw(ctx.hand, _own(ctx), ctx)
            card = CARDS[d]
            return next((a for a in trades if a.card == card), trades[0])
        if view.get("phase") == "say":
            return self._say(ctx, legal)
        return self._after_placing(ctx, legal)

    # -- the say to a card in play ---------------------------------------------------

    def _say(self, ctx: Ctx, legal: Sequence[Action]) -> Action:
        x = ctx.in_play
        own = _own(ctx)
        uses = [a for a in legal if isinstance(a, conquian.UseAction)]
        forces = [a for a in legal if isinstance(a, conquian.ForceAction)]
        passes = [a for a in legal if isinstance(a, conquian.PassAction)]
        first_say = ctx.view.get("turned_by") == ctx.seat
        # Pass: if I turned it, the adversary gets the say; he may use it.
        pass_value = value(ctx.hand, own, ctx)
        if first_say:
            pass_value -= opp_wants(x, ctx) * 0.8
        best: tuple[float, Action] | None = (pass_value, passes[0]) if passes else None
        for u in uses:
            hand, combos = self.after_use(ctx, u)
            if winning(hand, combos, ctx.order):
                return u
            v, _ = best_throw(hand, combos, ctx) if hand else (1000.0, -1)
            v += min(opp_wants(x, ctx), FEED_PENALTY) * 0.4 + (
                BLOCK_BONUS if first_say and opp_wants(x, ctx) >= FEED_PENALTY else 0.0
            )
            if best is None or v > best[0]:
                best = (v, u)
        for f in forces:
            if self._force_ok(ctx, x, f, from_hand=False):
                return f
        assert best is not None
        return best[1]

    def after_use(self, ctx: Ctx, u: conquian.UseAction) -> tuple[list[int], list[Combo]]:
        hand = [c for c in ctx.hand if CARDS[c] not in u.hand]
        own = [Combo(c.owner, c.is_seq, c.cards, c.id) for c in _own(ctx)]
        x = ctx.in_play
        if u.to is not None:
            for c in own:
                if c.id == u.to:
                    c.cards = tuple(sorted((*c.cards, x)))
        else:
            borrowed = {ctx.idx(b) for b in u.borrow}
            for c in own:
                c.cards = tuple(y for y in c.cards if y not in borrowed)
            new = tuple(sorted({x, *(ctx.idx(h) for h in u.hand), *borrowed}))
            own = [c for c in own if len(c.cards) >= 3] + [Combo(ctx.seat, _is_seq(new), new)]
        return hand, own

    def _force_ok(self, ctx: Ctx, card: int, f: conquian.ForceAction, *, from_hand: bool) -> bool:
        """Foster: force a card the adversary refused himself -- it breaks his hand --
        unless he is so near the end that it would put him down."""
        counts = ctx.view.get("hand_counts") or [10, 10]
        if counts[ctx.opp] <= 2:
            return False
        return card in ctx.passed_by_opp or card in ctx.thrown_by_opp

    # -- after using a card: meld, then discard or force ------------------------------

    def _after_placing(self, ctx: Ctx, legal: Sequence[Action]) -> Action:
        own = _own(ctx)
        melds = [a for a in legal if isinstance(a, conquian.MeldAction)]
        throws = [a for a in legal if isinstance(a, conquian.ThrowAction)]
        forces = [a for a in legal if isinstance(a, conquian.ForceAction)]
        melded, left = cover(ctx.hand, own, ctx.order)
        if melds and (not left or ctx.pips_scoring):
            plan = self._meld_plan(ctx, melds, melded, left)
            if plan is not None:
                return plan
        if not throws:
            return (forces or melds or list(legal))[0]
        _, d = best_throw(ctx.hand, own, ctx)
        card = CARDS[d]
        for f in forces:
            if f.card == card and self._force_ok(ctx, d, f, from_hand=True):
                return f
        return next((a for a in throws if a.card == card), throws[0])

    def _meld_plan(
        self,
        ctx: Ctx,
        melds: list[conquian.MeldAction],
        melded: list[tuple[int, ...]],
        left: list[int],
    ) -> Action | None:
        cards = CARDS
        for m in melded:
            want = tuple(
                sorted(
                    (cards[x] for x in m), key=lambda c: (c.suit.value if c.suit else "", c.rank)
                )
            )
            for a in melds:
                if a.to is None and not a.borrow and set(a.hand) == set(want):
                    return a
        for a in melds:
            if a.to is not None and ctx.idx(a.hand[0]) not in left:
                return a
        for a in melds:
            if a.to is not None:
                return a
        return None


def ranked_alternatives(view: View, legal: Sequence[Action], k: int) -> list[Action]:
    """The club player's ``k`` best-looking actions (for the expert's search)."""
    ctx = make_ctx(view)
    own = _own(ctx)
    scored: list[tuple[float, int, Action]] = []
    if view.get("phase") == "say":
        x = ctx.in_play
        first_say = view.get("turned_by") == ctx.seat
        for i, a in enumerate(legal):
            if isinstance(a, conquian.PassAction):
                v = value(ctx.hand, own, ctx) - (opp_wants(x, ctx) * 0.8 if first_say else 0.0)
            elif isinstance(a, conquian.UseAction):
                hand, combos = ConquianClub().after_use(ctx, a)
                v = best_throw(hand, combos, ctx)[0] if hand else 1000.0
            else:
                v = value(ctx.hand, own, ctx) - 3.0
            scored.append((v, -i, a))
    else:
        for i, a in enumerate(legal):
            if isinstance(a, (conquian.ThrowAction, conquian.ForceAction)):
                d = ctx.idx(a.card)
                rest = [c for c in ctx.hand if c != d]
                v = value(rest, own, ctx) - opp_wants(d, ctx)
                if isinstance(a, conquian.ForceAction):
                    v -= 1.0
                scored.append((v, -i, a))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [a for _, _, a in scored[:k]]
