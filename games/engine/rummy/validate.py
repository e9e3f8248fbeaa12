"""Checking one action against a deal, with the reason and the law when it is refused.

:func:`canonical` is the slow path of ``apply``: it explains why an action is illegal
(``IllegalActionError`` naming the law) or returns its canonical form (sequence low to
high, set wild cards shown as a free suit, ``end`` only where an ace is ambiguous).
The fast enumeration in :mod:`.generate` must agree with it; the tests check that.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..actions import Action
from ..cards import PackKind
from ..combinations import (
    CARD_ID,
    Placed,
    build,
    canonical_layout,
    canonical_set_card,
    check_wilds,
    natural_in_set,
)
from ..errors import IllegalActionError, InvalidActionError
from ..i18n import gettext_noop
from ..words import gettext
from .generate import joker_options
from .moves import Accept, Add, Challenge, Decline, Discard, Draw, Layout, MoveJoker, TakeBack

if TYPE_CHECKING:
    from .deal import RummyDeal

_KINDS = (Accept, Add, Challenge, Decline, Discard, Draw, Layout, MoveJoker, TakeBack)


def canonical(d: RummyDeal, a: Action) -> Action:
    """The canonical form of ``a`` if it is legal in ``d`` now; else raise."""
    t = d.table
    if not isinstance(a, _KINDS):
        raise InvalidActionError(f"{a.type!r} is not an action of {t.variant}")
    if not 0 <= a.seat < d.players:
        raise InvalidActionError(f"there is no seat {a.seat}")
    if d.is_over():
        raise IllegalActionError(gettext("the deal is over"), law="L21")
    mover = d.to_move()
    if d.phase == "challenge":
        if not isinstance(a, Accept | Decline):
            raise IllegalActionError(gettext("the challenge must be answered first"), law="Colonel")
        if a.seat != mover:
            raise IllegalActionError(gettext("only the challenged player answers"), law="Colonel")
        return type(a)(a.seat)
    if a.seat != mover:
        raise IllegalActionError(gettext("it is not your turn"), law="L14")
    if isinstance(a, Accept | Decline):
        raise IllegalActionError(gettext("there is no challenge to answer"), law="Colonel")
    if isinstance(a, Challenge):
        if not t.challenge:
            raise IllegalActionError(gettext("there is no challenge in this variant"), law="L15")
        if d.phase != "draw":
            raise IllegalActionError(
                gettext("challenge on your turn, before drawing"), law="Colonel"
            )
        if d.challenged:
            raise IllegalActionError(gettext("one challenge a turn"), law="Colonel")
        return Challenge(a.seat)
    if isinstance(a, Draw):
        return _draw(d, a)
    if d.phase != "play":
        raise IllegalActionError(gettext("draw a card first"), law="L13")
    if isinstance(a, TakeBack):
        if not d.shown_this_turn:
            raise IllegalActionError(gettext("nothing laid out or added this turn"), law="L20")
        return TakeBack(a.seat)
    if isinstance(a, Discard):
        return _discard(d, a)
    if isinstance(a, Layout):
        check_wilds(a.cards, t.wild)
        _hold(d, a.seat, a.cards)
        return _stranding(d, Layout(a.seat, canonical_layout(a.cards, t.wild, t.order)))
    assert isinstance(a, Add | MoveJoker)
    return _stranding(d, _on_combination(d, a))


def _on_combination(d: RummyDeal, a: Add | MoveJoker) -> Action:
    t = d.table
    combo = d.combination(a.combination)
    if combo is None:
        raise IllegalActionError(
            gettext("there is no combination %(combination)s") % {"combination": a.combination},
            law="L15",
        )
    check_wilds((a.card,), t.wild)
    _hold(d, a.seat, (a.card,))
    if isinstance(a, MoveJoker):
        return _move(d, a)
    named = a.card.named
    if combo.kind == "set":
        if named.rank != combo.rank:
            raise IllegalActionError(
                gettext("%(card)s does not fit a set of that rank") % {"card": a.card.code},
                law="L15",
            )
        return Add(a.seat, combo.id, canonical_set_card(a.card, combo, t.wild))
    if named.suit is None or CARD_ID[named] % 4 != combo.suit:
        raise IllegalActionError(
            gettext("%(card)s is not of the sequence's suit") % {"card": a.card.code}, law="L15"
        )
    order = t.order
    top = order.top
    fits = [e for p, e in ((combo.lo - 1, "low"), (combo.hi + 1, "high"))
            if 1 <= p <= top + 1 and order.cid_at(combo.suit, p) == CARD_ID[named]]  # fmt: skip
    if not fits:
        if (order.pos(named.rank) == top and combo.lo == 1) or (
            named.rank == 2 and combo.hi == top + 1
        ):
            raise IllegalActionError(gettext("that would go round the corner (K A 2)"), law="L16")
        raise IllegalActionError(
            gettext("%(card)s does not fit either end") % {"card": a.card.code}, law="L15"
        )
    if len(fits) == 2:
        if a.end is None:
            raise InvalidActionError("the card fits both ends: say low or high")
        return Add(a.seat, combo.id, a.card, a.end)
    if a.end is not None and a.end != fits[0]:
        raise _wrong_end(a, *_NOT_AT_END["add"], law="L15")
    return Add(a.seat, combo.id, a.card)


def _draw(d: RummyDeal, a: Draw) -> Action:
    if d.phase != "draw":
        raise IllegalActionError(gettext("you have already drawn this turn"), law="L11")
    if a.source == "pack":
        if not d.pack_count:
            raise IllegalActionError(gettext("the pack is empty"), law="L25")
        return Draw(a.seat, "pack")
    stock = d.stock
    if not stock:
        raise IllegalActionError(gettext("the stock is empty"), law="L11")
    if d.table.stock == "exposed":
        card = stock[-1] if a.card is None else a.card
        if card not in stock:
            raise IllegalActionError(
                gettext("%(card)s is not in the stock") % {"card": card.code},
                law=gettext_noop("3-hand, book p.36"),
            )
        return Draw(a.seat, "stock", card)
    if a.card is not None and a.card != stock[-1]:
        raise IllegalActionError(gettext("only the top card of the stock may be taken"), law="L11")
    return Draw(a.seat, "stock")


def _discard(d: RummyDeal, a: Discard) -> Action:
    if d.count_of(a.seat, CARD_ID[a.card]) == 0:
        raise IllegalActionError(
            gettext("you do not hold %(card)s") % {"card": a.card.code}, law="L15"
        )
    refusal = d.discard_refusal(a.seat)
    if refusal is not None:
        raise IllegalActionError(refusal, law="Dalton")
    return Discard(a.seat, a.card)


def _stranding(d: RummyDeal, a: Action) -> Action:
    """A show after which only a take-back could end the turn is refused (Dalton)."""
    if d.show_strands(a.seat, a):
        if d.table.ratting == "none":
            raise IllegalActionError(
                gettext("no ratting (Dalton): these cards cannot lead to laying out the whole hand "
                "this turn"), law="Dalton"
            )  # fmt: skip
        raise IllegalActionError(
            gettext("a first show is at least six cards (Dalton): after these cards, six cannot be "
            "shown this turn"), law="Dalton"
        )  # fmt: skip
    return a


def _hold(d: RummyDeal, seat: int, cards: tuple[Placed, ...]) -> None:
    need = Counter(CARD_ID[p.card] for p in cards)
    for cid, k in need.items():
        if d.count_of(seat, cid) < k:
            missing = next(p.card.code for p in cards if CARD_ID[p.card] == cid)
            raise IllegalActionError(
                gettext("you do not hold %(card)s") % {"card": missing}
                if k == 1
                else gettext("you do not hold %(card)s x%(count)s") % {"card": missing, "count": k},
                law="L15",
            )


def _move(d: RummyDeal, a: MoveJoker) -> Action:
    combo = d.combination(a.combination)
    assert combo is not None
    if combo.kind != "sequence":
        raise IllegalActionError(gettext("a joker in a set never moves"), law="L18")
    ends = (combo.cards[0], combo.cards[-1])
    wild_ends = [e for e in ends if e.card != e.named]
    if not wild_ends:
        raise IllegalActionError(gettext("no joker at an open end of that sequence"), law="L18")
    if all(e.crossways for e in wild_ends):
        raise IllegalActionError(
            gettext("a joker that has been moved never moves again"), law="L18"
        )
    opts = joker_options(combo, [d.count_of(a.seat, c) for c in range(53)], d.table.wild)
    match = [o for o in opts if (o[0], o[1]) == (CARD_ID[a.card.card], CARD_ID[a.card.named])]
    if not match:
        raise IllegalActionError(
            gettext("%(card)s does not fit where the joker was or beyond its new place")
            % {"card": a.card.code},
            law="L18",
        )
    if len(match) > 1:
        if a.end is None:
            raise InvalidActionError("the card fits both ends: say low or high")
        match = [o for o in match if o[2] == a.end]
        return MoveJoker(a.seat, combo.id, a.card, match[0][2])
    if a.end is not None and a.end != match[0][2]:
        raise _wrong_end(a, *_NOT_AT_END["move"], law="L18")
    return MoveJoker(a.seat, combo.id, a.card)


# What a card named for the wrong end is told, adding it (L15) or moving a joker (L18).
_NOT_AT_END = {
    "add": (
        gettext_noop("%(card)s does not fit the low end"),
        gettext_noop("%(card)s does not fit the high end"),
    ),
    "move": (
        gettext_noop("%(card)s would not land at the low end"),
        gettext_noop("%(card)s would not land at the high end"),
    ),
}


def _wrong_end(a: Add | MoveJoker, low: str, high: str, *, law: str) -> IllegalActionError:
    """The refusal of a card named for the end it does not go to."""
    message = low if a.end == "low" else high
    return IllegalActionError(gettext(message) % {"card": a.card.code}, law=law)


_ = build


def as_named(d: RummyDeal, canon: Action, held: Action) -> Action:
    """L17: a wild card in a set stands for the card its holder named whenever that card
    may stand there: one of the set's rank, in a double pack of any suit (even one the
    holder also holds: 7H 7H JK=7H), in a single pack of a suit the set does not show.
    ``canon`` is the legal form of ``held`` (its wild cards shown as a free suit); the
    holder's names are put back in it, else it is returned as it is. A sequence's wild
    cards are named by their place, so their names are already the holder's."""
    double = d.table.pack in (PackKind.DOUBLE_WITH_JOKERS, PackKind.DOUBLE_NO_JOKERS)
    wild = d.table.wild
    if isinstance(canon, Layout) and isinstance(held, Layout):
        ranks = {p.named.rank for p in canon.cards}
        if len(ranks) != 1 or not any(p.is_wild for p in canon.cards):
            return canon
        names = [p.named for p in held.cards if not natural_in_set(p, wild)]
        shown = [p.named.suit for p in canon.cards if natural_in_set(p, wild)]
        cards, i = [], 0
        for p in canon.cards:
            if natural_in_set(p, wild):
                cards.append(p)
                continue
            name = names[i] if i < len(names) else p.named
            i += 1
            if name.rank != p.named.rank or (not double and name.suit in shown):
                name = p.named
            shown.append(name.suit)
            cards.append(Placed(p.card, name))
        return Layout(canon.seat, tuple(cards))
    if isinstance(canon, Add) and isinstance(held, Add) and canon.card.is_wild:
        combo = next(c for c in d.combinations if c.id == canon.combination)
        name = held.card.named
        if combo.kind != "set" or natural_in_set(canon.card, wild) or name.rank != combo.rank:
            return canon
        if not double and any(t.named.suit is name.suit for t in combo.cards):
            return canon
        return Add(canon.seat, canon.combination, Placed(canon.card.card, name), canon.end)
    return canon


def namings(d: RummyDeal, action: Action) -> list[Action]:
    """L17: every name the holder may give the wild cards of ``action`` (a legal layout
    of a set, or a wild card added to a set), the action itself first; just the action
    where its wild cards have no choice (a sequence's are named by their place)."""
    from itertools import product

    from ..cards import SUITS, Card

    if isinstance(action, Layout):
        wilds = [i for i, p in enumerate(action.cards) if not natural_in_set(p, d.table.wild)]
        ranks = {p.named.rank for p in action.cards}
        if not wilds or len(ranks) != 1:
            return [action]
        rank = ranks.pop()
        out: list[Action] = [action]
        for suits in product(SUITS, repeat=len(wilds)):
            cards = list(action.cards)
            for i, suit in zip(wilds, suits, strict=True):
                cards[i] = Placed(cards[i].card, Card(rank, suit))
            alt = Layout(action.seat, tuple(cards))
            named = as_named(d, action, alt)
            if named == alt and all(alt != o for o in out):
                out.append(alt)
        return out
    if isinstance(action, Add) and action.card.is_wild:
        rank = action.card.named.rank
        out = [action]
        for suit in SUITS:
            added = Add(action.seat, action.combination,
                        Placed(action.card.card, Card(rank, suit)), action.end)  # fmt: skip
            if as_named(d, action, added) == added and added not in out:
                out.append(added)
        return out
    return [action]
