"""Why a Conquián action is not legal now: a reason and the law it breaks.

Only called after an action was found missing from ``legal_actions`` (which is the
definition of legality), so every branch here merely explains; it never decides.
:class:`ConquianWhy` is a base of :class:`~.self.ConquianDeal` (kept apart for the deal
module's size): its methods are the deal's own.
"""

from __future__ import annotations

from ..actions import Action
from ..cards import Card
from ..words import gettext
from . import actions as conquian
from .melds import borrow_ok, fits, is_combination
from .views import ConquianViews

L_PACK = "L1 (two players)"
L_TOUCH = "L11 (two players)"
L_NEVER = "L12 (two players)"
L_ELEVEN = "L21 (two players)"


class ConquianWhy(ConquianViews):
    """The deal's explanations of a refused action."""

    def why_illegal(self, a: Action) -> tuple[str, str]:
        """The reason ``a`` is not legal now, and the law it breaks."""
        phase = self._phase
        if phase == "over":
            return gettext("the deal is over"), L_ELEVEN
        mover = self.to_move()
        if a.seat != mover:
            return gettext("it is seat %(seat)s's move, not seat %(seat2)s's") % {
                "seat": mover,
                "seat2": a.seat,
            }, "book p.51"
        idx, order = self._idx, self._order
        for c in _cards_of(a):
            if c not in idx:
                return gettext("%(card)s is not in this pack") % {"card": c.code}, L_PACK
        seat = a.seat
        hand = self._hands[seat]
        if phase == "trade":
            if not isinstance(a, conquian.TradeAction):
                return gettext("first each player passes one card face down"), "how-to (card trade)"
            return gettext("%(card)s is not in your hand") % {
                "card": a.card.code
            }, "how-to (card trade)"
        if phase == "turn":
            return gettext("the card was turned down: turn up the next card of the pack"), L_TOUCH
        if phase == "say":
            if isinstance(a, conquian.TurnAction):
                return gettext("say to the card in play first (use, force or pass it)"), L_TOUCH
            if isinstance(a, (conquian.ThrowAction, conquian.MeldAction, conquian.TradeAction)):
                return (gettext("a turned card is never taken into the hand: use it, force it or "
                        "pass it"), L_NEVER)  # fmt: skip
            assert isinstance(a, (conquian.UseAction, conquian.PassAction, conquian.ForceAction))
            if idx[a.card] != self._card:
                return gettext("%(card)s is not the card in play") % {"card": a.card.code}, L_NEVER
            card = self._card
        else:  # discard
            if isinstance(
                a,
                (
                    conquian.UseAction,
                    conquian.PassAction,
                    conquian.TurnAction,
                    conquian.TradeAction,
                ),
            ):
                return (
                    gettext(
                        "you have placed a card: discard one from your hand (or meld, or force)"
                    ),
                    "book p.50",
                )
            if isinstance(a, conquian.MeldAction):
                card = -1
            else:
                assert isinstance(a, (conquian.ThrowAction, conquian.ForceAction))
                if idx[a.card] not in hand:
                    return gettext("%(card)s is not in your hand") % {
                        "card": a.card.code
                    }, "book p.50"
                card = idx[a.card]
        if isinstance(a, conquian.ForceAction):
            combo = self._combos.get(a.to)
            if combo is None or combo[0] == seat:
                return gettext("one forces only onto an adversary's combination"), "L19"
            if card >= 0 and fits(card, combo, order) and not fits(card, combo, order, self.cap):
                return gettext("a sequence holds %(cap)s cards at most") % {
                    "cap": self.cap
                }, "C-opt-5"
            return gettext("%(card)s does not fit combination %(to)s") % {
                "card": a.card.code,
                "to": a.to,
            }, "L19"
        if isinstance(a, (conquian.UseAction, conquian.MeldAction)):
            return self._why_place(seat, card, a)
        return gettext("not allowed now"), "book p.51"

    def _why_place(
        self, seat: int, card: int, a: conquian.UseAction | conquian.MeldAction
    ) -> tuple[str, str]:
        idx, order = self._idx, self._order
        hand = self._hands[seat]
        if a.to is not None:
            combo = self._combos.get(a.to)
            if combo is None or combo[0] != seat:
                return (gettext("you add only to your own combinations; the adversary's take a card "
                        "only by forcing"), "book p.48")  # fmt: skip
            x = card if isinstance(a, conquian.UseAction) else idx[a.hand[0]]
            if isinstance(a, conquian.MeldAction) and x not in hand:
                return gettext("%(card)s is not in your hand") % {"card": a.hand[0].code}, "L15"
            if fits(x, combo, order) and not fits(x, combo, order, self.cap):
                return gettext("a sequence holds %(cap)s cards at most") % {
                    "cap": self.cap
                }, "C-opt-5"
            if not fits(x, combo, order):
                return gettext("%(card)s does not fit combination %(to)s") % {
                    "card": self._cards[x].code,
                    "to": a.to,
                }, "L15"
            return gettext("not allowed now"), "L15"
        hs = [idx[c] for c in a.hand]
        bs = [idx[c] for c in a.borrow]
        for x, c in zip(hs, a.hand, strict=True):
            if x not in hand:
                return gettext("%(card)s is not in your hand") % {"card": c.code}, "L15"
        for x, c in zip(bs, a.borrow, strict=True):
            cid = self._where[x]
            if cid < 0 or self._combos[cid][0] != seat:
                return (
                    gettext("%(card)s is not in your own combinations: you borrow only from them")
                    % {"card": c.code},
                    "book p.54",
                )
        cards = hs + bs + ([card] if card >= 0 else [])
        if not is_combination(cards, order):
            if len(cards) < 3:
                return gettext("a combination has at least three cards"), "L15"
            if len({x & 3 for x in cards}) == 1:
                return gettext("not a sequence (the ace is low only: no K-A-2)"), "L16"
            return gettext("not a set of one rank or a sequence in suit"), "L15"
        if self.cap and len(cards) > self.cap and len({x & 3 for x in cards}) == 1:
            return gettext("a sequence holds three to %(cap)s cards") % {"cap": self.cap}, "C-opt-5"
        if not borrow_ok(bs, self._where, self._combos, order):
            return gettext("borrowing would leave an incomplete or broken combination"), "book p.54"
        return gettext("not allowed now"), "L15"


def _cards_of(a: Action) -> list[Card]:
    out: list[Card] = []
    for name in ("card", "hand", "borrow"):
        v = getattr(a, name, None)
        if isinstance(v, Card):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(v)
    return out
