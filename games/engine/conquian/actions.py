"""The actions of two-player Conquián (see :mod:`games.engine.conquian.deal` for the rules).

Every action names the seat making it and the card(s) it moves, as codes in JSON and
in the one-line text form ``"<seat> <type> <args>"``:

=========  ==========================================  =================================
type       text form                                   when
=========  ==========================================  =================================
trade      ``0 trade 7H``                              card trade option, before play
turn       ``1 turn``                                  turn up the top card of the pack
use        ``0 use 5H to 3``                           add the card in play to own comb. 3
use        ``0 use 5H with 4H 6H borrow 7H``           new combination (hand + borrowed)
pass       ``1 pass 5H``                               refuse the card in play
force      ``1 force 5H to 2``                         place a card on the adversary's 2
meld       ``0 meld 3C 3D borrow 3S``                  new combination from the hand
meld       ``0 meld 8H to 4``                          add a hand card to own comb. 4
throw      ``0 throw 2C``                              discard: ends the turn, card in play
=========  ==========================================  =================================

Lists of cards are kept in a canonical order (by suit, then rank), so two actions that
do the same thing are equal.

>>> from .actions import action_from_text
>>> a = action_from_text("0 use 5H with 6H 4H")
>>> a.text, a.to_json()["hand"]
('0 use 5H with 4H 6H', ['4H', '6H'])
>>> action_from_text("1 force 5H to 2").describe()
'forces the five of hearts onto combination 2'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..actions import (
    Action,
    ActionTable,
    BareAction,
    CardAction,
    HandCardAction,
    Role,
    register_bare,
)
from ..cards import Card
from ..errors import InvalidActionError
from ..i18n import gettext_noop
from ..words import combination_words, name_of
from ..words import gettext as _

#: Conquián's action notation (its names are its own: its discard is a "throw").
CONQUIAN_NOTATION = ActionTable("Conquián")
register = CONQUIAN_NOTATION.register
action_from_json = CONQUIAN_NOTATION.from_json
action_from_text = CONQUIAN_NOTATION.from_text


def card_key(card: Card) -> tuple[str, int]:
    """Canonical order of cards inside an action: suit letter, then rank."""
    return (card.suit.value if card.suit is not None else "", card.rank)


def _canon(cards: Iterable[Card]) -> tuple[Card, ...]:
    out = tuple(sorted(cards, key=card_key))
    for c in out:
        if not isinstance(c, Card):
            raise InvalidActionError(f"not a card: {c!r}")
    if len(set(out)) != len(out):
        raise InvalidActionError("the same card is named twice")
    return out


def _card(data: dict[str, Any], key: str = "card") -> Card:
    return Card.from_code(data[key])


def _cards(data: dict[str, Any], key: str) -> tuple[Card, ...]:
    raw = data.get(key, [])
    if not isinstance(raw, list):
        raise InvalidActionError(f"{key} must be a list of card codes")
    return tuple(Card.from_code(c) for c in raw)


def _to(data: dict[str, Any]) -> int | None:
    to = data.get("to")
    if to is None:
        return None
    if not isinstance(to, int) or isinstance(to, bool) or to < 0:
        raise InvalidActionError(f"bad combination id {to!r}")
    return to


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def _check_card(card: object) -> None:
    if not isinstance(card, Card):
        raise InvalidActionError(f"not a card: {card!r}")


# ---------------------------------------------------------------- parsers


def _split_with_borrow(args: list[str]) -> tuple[list[str], list[str]]:
    if "borrow" in args:
        i = args.index("borrow")
        return args[:i], args[i + 1 :]
    return args, []


def _parse_to(args: list[str]) -> int:
    if len(args) != 2 or args[0] != "to" or not args[1].isdigit():
        raise InvalidActionError(f"expected 'to <id>', not {' '.join(args)!r}")
    return int(args[1])


def _one_card_text(args: list[str]) -> Card:
    if len(args) != 1:
        raise InvalidActionError("expected one card")
    return Card.from_code(args[0])


def _use_from_json(d: dict[str, Any]) -> Action:
    return UseAction(d["seat"], _card(d), _to(d), _cards(d, "hand"), _cards(d, "borrow"))


def _use_from_text(seat: int, args: list[str]) -> Action:
    if not args:
        raise InvalidActionError("use names the card in play")
    card, rest = Card.from_code(args[0]), args[1:]
    if rest and rest[0] == "to":
        return UseAction(seat, card, _parse_to(rest))
    if not rest or rest[0] != "with":
        raise InvalidActionError("expected 'to <id>' or 'with <cards> [borrow <cards>]'")
    hand, borrow = _split_with_borrow(rest[1:])
    return UseAction(
        seat, card, None, tuple(map(Card.from_code, hand)), tuple(map(Card.from_code, borrow))
    )


def _meld_from_json(d: dict[str, Any]) -> Action:
    return MeldAction(d["seat"], _cards(d, "hand"), _cards(d, "borrow"), _to(d))


def _meld_from_text(seat: int, args: list[str]) -> Action:
    if len(args) == 3 and args[1] == "to":
        return MeldAction(seat, (Card.from_code(args[0]),), (), _parse_to(args[1:]))
    hand, borrow = _split_with_borrow(args)
    return MeldAction(seat, tuple(map(Card.from_code, hand)), tuple(map(Card.from_code, borrow)))


def _force_from_json(d: dict[str, Any]) -> Action:
    to = _to(d)
    if to is None:
        raise InvalidActionError("force names the adversary's combination")
    return ForceAction(d["seat"], _card(d), to)


def _force_from_text(seat: int, args: list[str]) -> Action:
    if not args:
        raise InvalidActionError("force names a card")
    return ForceAction(seat, Card.from_code(args[0]), _parse_to(args[1:]))


def _trade_json(d: dict[str, Any]) -> Action:
    return TradeAction(d["seat"], _card(d))


def _trade_text(s: int, a: list[str]) -> Action:
    return TradeAction(s, _one_card_text(a))


def _pass_json(d: dict[str, Any]) -> Action:
    return PassAction(d["seat"], _card(d))


def _pass_text(s: int, a: list[str]) -> Action:
    return PassAction(s, _one_card_text(a))


def _throw_json(d: dict[str, Any]) -> Action:
    return ThrowAction(d["seat"], _card(d))


def _throw_text(s: int, a: list[str]) -> Action:
    return ThrowAction(s, _one_card_text(a))


# ---------------------------------------------------------------- single-card actions


@register(_trade_json, _trade_text)
@dataclass(frozen=True, slots=True)
class TradeAction(HandCardAction):
    """Card trade option (how-to): pass one card face down to the adversary."""

    type: ClassVar[str] = "trade"
    ROLE: ClassVar[Role] = Role.TRADE

    def __post_init__(self) -> None:
        _check_card(self.card)

    def describe(self) -> str:
        return _("passes %(card)s face down") % {"card": name_of(self.card.code, the=True)}


@dataclass(frozen=True, slots=True)
class TurnAction(BareAction):
    """Turn up the top card of the pack (it is never taken into the hand, L12)."""

    type: ClassVar[str] = "turn"
    label: ClassVar[str] = gettext_noop("Turn up the next card")
    verb: ClassVar[str] = gettext_noop("turns up the top card of the pack")


register_bare(CONQUIAN_NOTATION, TurnAction)


@register(_pass_json, _pass_text)
@dataclass(frozen=True, slots=True)
class PassAction(CardAction):
    """Refuse the card in play: the first refusal passes the say, the second turns it down."""

    type: ClassVar[str] = "pass"

    def button(self) -> str:
        return _("Pass %(card)s") % {"card": name_of(self.card.code, the=True)}

    def __post_init__(self) -> None:
        _check_card(self.card)

    def describe(self) -> str:
        return _("refuses %(card)s") % {"card": name_of(self.card.code, the=True)}


@register(_throw_json, _throw_text)
@dataclass(frozen=True, slots=True)
class ThrowAction(HandCardAction):
    """Discard: lay a card from the hand face up beside the pack; the adversary has the say
    to it. (Typed "throw": "discard" is the four/five-hand game's action, which puts the
    card on the stock; the registry holds one parser per type.)"""

    type: ClassVar[str] = "throw"
    ROLE: ClassVar[Role] = Role.DISCARD

    def __post_init__(self) -> None:
        _check_card(self.card)

    def describe(self) -> str:
        return _("discards %(card)s") % {"card": name_of(self.card.code, the=True)}


@register(_force_from_json, _force_from_text)
@dataclass(frozen=True, slots=True)
class ForceAction(Action):
    """Place the card in play, or the card one would discard, on the adversary's combination."""

    type: ClassVar[str] = "force"
    ROLE: ClassVar[Role] = Role.ADD

    def hand_codes(self) -> list[str]:
        return [self.card.code]

    def target(self) -> int | None:
        return self.to

    card: Card
    to: int

    def __post_init__(self) -> None:
        _check_card(self.card)
        if not isinstance(self.to, int) or isinstance(self.to, bool) or self.to < 0:
            raise InvalidActionError(f"bad combination id {self.to!r}")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "card": self.card.code, "to": self.to}

    @property
    def text(self) -> str:
        return f"{self.seat} force {self.card.code} to {self.to}"

    def describe(self) -> str:
        return _("forces %(card)s onto %(combination)s") % {
            "card": name_of(self.card.code, the=True),
            "combination": combination_words(self.to),
        }


# ---------------------------------------------------------------- placing cards


class _Placing(Action):
    """Use and meld: a new combination (``to`` None) or an addition to combination
    ``to``, of ``hand`` cards."""

    __slots__ = ()
    to: int | None
    hand: tuple[Card, ...]

    @property
    def role(self) -> Role:
        return Role.NEW_COMBINATION if self.to is None else Role.ADD

    def hand_codes(self) -> list[str]:
        return [c.code for c in self.hand]

    def target(self) -> int | None:
        return self.to


@register(_use_from_json, _use_from_text)
@dataclass(frozen=True, slots=True)
class UseAction(_Placing):
    """Use the card in play: add it to own combination ``to``, or lay it down as a new
    combination with ``hand`` cards and cards ``borrow``-ed from own combinations."""

    type: ClassVar[str] = "use"
    selection: ClassVar[str] = gettext_noop("Use it with the selected cards")

    card: Card
    to: int | None = None
    hand: tuple[Card, ...] = field(default=())
    borrow: tuple[Card, ...] = field(default=())

    def __post_init__(self) -> None:
        _check_card(self.card)
        _check_place(self.to, self.hand, self.borrow, extend_needs=0)
        object.__setattr__(self, "hand", _canon(self.hand))
        object.__setattr__(self, "borrow", _canon(self.borrow))
        if self.card in self.hand or self.card in self.borrow or set(self.hand) & set(self.borrow):
            raise InvalidActionError("the same card is named twice")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, "seat": self.seat, "card": self.card.code}
        if self.to is not None:
            d["to"] = self.to
        else:
            d["hand"] = _codes(self.hand)
            d["borrow"] = _codes(self.borrow)
        return d

    @property
    def text(self) -> str:
        return f"{self.seat} use {self.card.code} {_place_text(self.to, self.hand, self.borrow)}"

    def describe(self) -> str:
        if self.to is not None:
            return _("uses %(card)s on %(combination)s") % {
                "card": name_of(self.card.code, the=True),
                "combination": combination_words(self.to),
            }
        return _("uses %(card)s with %(cards)s") % {
            "card": name_of(self.card.code, the=True),
            "cards": _place_describe(self.hand, self.borrow),
        }


@register(_meld_from_json, _meld_from_text)
@dataclass(frozen=True, slots=True)
class MeldAction(_Placing):
    """After using a card (or being forced), lay down more from the hand before discarding:
    a new combination of ``hand`` cards (and ``borrow``-ed ones), or one hand card added to
    own combination ``to``."""

    type: ClassVar[str] = "meld"

    hand: tuple[Card, ...] = field(default=())
    borrow: tuple[Card, ...] = field(default=())
    to: int | None = None

    def __post_init__(self) -> None:
        _check_place(self.to, self.hand, self.borrow, extend_needs=1)
        object.__setattr__(self, "hand", _canon(self.hand))
        object.__setattr__(self, "borrow", _canon(self.borrow))
        if set(self.hand) & set(self.borrow):
            raise InvalidActionError("the same card is named twice")
        if not self.hand:
            raise InvalidActionError("a meld lays down at least one card from the hand")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, "seat": self.seat, "hand": _codes(self.hand)}
        if self.to is not None:
            d["to"] = self.to
        else:
            d["borrow"] = _codes(self.borrow)
        return d

    @property
    def text(self) -> str:
        if self.to is not None:
            return f"{self.seat} meld {self.hand[0].code} to {self.to}"
        extra = " borrow " + " ".join(_codes(self.borrow)) if self.borrow else ""
        return f"{self.seat} meld {' '.join(_codes(self.hand))}{extra}"

    def describe(self) -> str:
        if self.to is not None:
            return _("adds %(card)s to %(combination)s") % {
                "card": name_of(self.hand[0].code, the=True),
                "combination": combination_words(self.to),
            }
        return _("lays down %(cards)s") % {"cards": _place_describe(self.hand, self.borrow)}


def _check_place(
    to: int | None, hand: tuple[Card, ...], borrow: tuple[Card, ...], *, extend_needs: int
) -> None:
    if not isinstance(hand, (tuple, list)) or not isinstance(borrow, (tuple, list)):
        raise InvalidActionError("hand and borrow are tuples of cards")
    if to is not None:
        if not isinstance(to, int) or isinstance(to, bool) or to < 0:
            raise InvalidActionError(f"bad combination id {to!r}")
        if borrow or len(hand) != extend_needs:
            raise InvalidActionError("adding to a combination places exactly one card")


def _place_text(to: int | None, hand: tuple[Card, ...], borrow: tuple[Card, ...]) -> str:
    if to is not None:
        return f"to {to}"
    s = "with " + " ".join(_codes(hand)) if hand else "with"
    if borrow:
        s += " borrow " + " ".join(_codes(borrow))
    return s


def _place_describe(hand: tuple[Card, ...], borrow: tuple[Card, ...]) -> str:
    parts = [name_of(c.code) for c in hand]
    parts += [_("%(card)s (borrowed)") % {"card": name_of(c.code)} for c in borrow]
    return ", ".join(parts) if parts else _("nothing")


CONQUIAN_ACTIONS: tuple[type[Action], ...] = (
    TradeAction, TurnAction, UseAction, PassAction, ForceAction, MeldAction, ThrowAction,
)  # fmt: skip
