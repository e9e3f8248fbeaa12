"""The base of every action: a small frozen value with a text and a JSON form.

Each game defines its action classes in its own :class:`ActionTable` (its notation: the
names are its own), which rebuilds any of them from its JSON or text form; a game's
variant reads it (``Variant.parse_action``). Every action carries the ``seat`` that
makes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from .cards import Card
from .combinations import Placed
from .errors import InvalidActionError
from .i18n import gettext_noop
from .words import gettext as _


class Role(StrEnum):
    """What an action is to the table that offers it, whatever its game calls it: the
    page's buttons, card selections and targets are made from roles, never from a game's
    action names."""

    BUTTON = "button"  # a plain button: draw, turn up, pass, take back, accept, call
    DECISION = "decision"  # a move that can cost points, confirmed first (challenge, drop)
    NEW_COMBINATION = "new-combination"  # selected hand cards make a new combination
    ADD = "add"  # one card onto a combination on the table (``target``)
    MOVE_JOKER = "move-joker"  # a card played where a wild card stood (``target``)
    DISCARD = "discard"  # one selected card ends the turn
    TRADE = "trade"  # one selected card passed face down


@dataclass(frozen=True, slots=True)
class Action:
    """Base class. Subclasses set ``type`` (the JSON tag) and add fields, and say what
    they are to the table: ``ROLE``, the hand cards they take (``hand_codes``), the
    combination they go onto (``target``), and for a button or a decision its ``label``
    (and for a decision what it ``risks``)."""

    type: ClassVar[str] = ""
    ROLE: ClassVar[Role] = Role.BUTTON
    label: ClassVar[str] = ""  # a button's words, "Draw from the pack"
    risks: ClassVar[str] = ""  # a decision's: what it can cost ({pips}: the hand's count)
    selection: ClassVar[str] = gettext_noop(
        "Lay out the selected cards"
    )  # a new combination's button
    aim: ClassVar[str] = gettext_noop("Add to")  # a combination's button, "Add to your sequence"
    seat: int

    @property
    def role(self) -> Role:
        return self.ROLE

    def hand_codes(self) -> list[str]:
        """The cards (codes) this action takes from the hand."""
        return []

    @classmethod
    def from_selection(cls, seat: int, cards: list[str], target: int | None) -> Action:
        """The action of this class that a player's selection names (the cards chosen on
        the page and the combination aimed at), for the engine to judge when it is not
        among the legal ones; :class:`InvalidActionError` when it cannot name one."""
        raise InvalidActionError(f"{cls.type} is not made from a selection of cards")

    def button(self) -> str:
        """A button's or a decision's words ("Draw from the pack"); for the rest, what
        the action does, as the list of every legal play shows it."""
        if self.label:
            return _(self.label)
        text = self.describe()
        return text[:1].upper() + text[1:]

    def target(self) -> int | None:
        """The combination on the table this action goes onto, if any."""
        return None

    def to_json(self) -> dict[str, Any]:
        """``{"type": ..., "seat": ..., <fields>}``; cards as codes."""
        raise NotImplementedError

    @property
    def text(self) -> str:
        """One line, e.g. ``"1 draw pack"``; ``action_from_text`` parses it back."""
        raise NotImplementedError

    def describe(self) -> str:
        """Plain English for the log and the UI ("draws from the pack")."""
        raise NotImplementedError


A = TypeVar("A", bound=type[Action])


def is_listed(listing: Sequence[Action], action: Action) -> bool:
    """``action`` is one of the ``listing``'s objects itself (identity: no field compared,
    which is what lets a deal apply it without checking it again). A plain loop: any()
    over a generator costs more at this size (issue 58's bench)."""
    for listed in listing:  # noqa: SIM110
        if listed is action:
            return True
    return False


class ActionTable:
    """One game's action notation: its action types by name, each with its JSON and text
    parsers. Each game (or family of games sharing a deal class) owns one, so the same
    name ("draw", "discard") may mean different actions in different games.

    >>> t = ActionTable("a test game")
    >>> t.from_json({"type": "fly", "seat": 0})
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidActionError: unknown action type 'fly' in a test game
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self._json: dict[str, Callable[[dict[str, Any]], Action]] = {}
        self._text: dict[str, Callable[[int, list[str]], Action]] = {}
        self._classes: dict[str, type[Action]] = {}

    @property
    def types(self) -> frozenset[str]:
        return frozenset(self._json)

    def register(
        self,
        from_json: Callable[[dict[str, Any]], Action],
        from_text: Callable[[int, list[str]], Action],
    ) -> Callable[[A], A]:
        """Class decorator: ``@table.register(parse_json, parse_text)`` under the class's
        ``type``, once per table."""

        def deco(cls: A) -> A:
            if not cls.type or cls.type in self._json:
                raise RuntimeError(f"action type {cls.type!r} missing or registered twice")
            self._json[cls.type] = from_json
            self._text[cls.type] = from_text
            self._classes[cls.type] = cls
            return cls

        return deco

    def of_role(self, role: Role) -> type[Action] | None:
        """This game's action class for a role (its first registered), or None."""
        return next((c for c in self._classes.values() if c.ROLE is role), None)

    def from_json(self, data: object) -> Action:
        """Rebuild an action; anything malformed raises :class:`InvalidActionError`."""
        if not isinstance(data, dict):
            raise InvalidActionError("an action is a JSON object")
        kind = data.get("type")
        seat = data.get("seat")
        if not isinstance(kind, str) or kind not in self._json:
            raise InvalidActionError(f"unknown action type {kind!r} in {self.game}")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 16:
            raise InvalidActionError(f"bad seat {seat!r}")
        try:
            return self._json[kind](data)
        except InvalidActionError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise InvalidActionError(f"malformed {kind} action: {e}") from None

    def from_text(self, text: str) -> Action:
        """Parse the one-line form ``"<seat> <type> <args...>"``."""
        if not isinstance(text, str):
            raise InvalidActionError("an action's text form is a string")
        words = text.split()
        if len(words) < 2 or not words[0].isdigit():
            raise InvalidActionError(f"not an action: {text!r}")
        seat, kind, args = int(words[0]), words[1], words[2:]
        if kind not in self._text:
            raise InvalidActionError(f"unknown action type {kind!r} in {self.game}")
        try:
            return self._text[kind](seat, args)
        except InvalidActionError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise InvalidActionError(f"malformed {kind} action: {e}") from None


class BareAction(Action):
    """An action that carries only its seat ("1 challenge"): subclasses set ``type`` and
    ``verb``."""

    __slots__ = ()
    verb: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}

    @property
    def text(self) -> str:
        return f"{self.seat} {self.type}"

    def describe(self) -> str:
        return _(self.verb)


@dataclass(frozen=True, slots=True)
class CardAction(Action):
    """An action that names one card (``"1 discard 7H"``): subclasses set ``type`` and
    say what it does."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "card": self.card.code}

    @property
    def text(self) -> str:
        return f"{self.seat} {self.type} {self.card.code}"


@dataclass(frozen=True, slots=True)
class HandCardAction(CardAction):
    """A card played from the hand, chosen on the page as the one selected card (a
    discard, Conquián's throw and trade)."""

    def hand_codes(self) -> list[str]:
        return [self.card.code]

    @classmethod
    def from_selection(cls, seat: int, cards: list[str], target: int | None) -> Action:
        if len(cards) != 1:
            raise InvalidActionError(f"select exactly one card to {cls.type}")
        return cls(seat, Card.from_code(cards[0]))


@dataclass(frozen=True, slots=True)
class NewCombination(Action):
    """Cards from the hand laid face up as a new combination, wild cards named (``2C=9H``):
    the rummy games' layout, Tonk's spread. Subclasses set ``type`` and ``verb``."""

    ROLE: ClassVar[Role] = Role.NEW_COMBINATION
    verb: ClassVar[str] = ""  # "lays out"

    cards: tuple[Placed, ...]

    def hand_codes(self) -> list[str]:
        return [p.card.code for p in self.cards]

    @classmethod
    def from_selection(cls, seat: int, cards: list[str], target: int | None) -> Action:
        return cls(seat, tuple(Placed.from_code(c) for c in cards))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "cards": [p.code for p in self.cards]}

    @property
    def text(self) -> str:
        return f"{self.seat} {self.type} " + " ".join(p.code for p in self.cards)

    def describe(self) -> str:
        return _(self.verb) + " " + " ".join(p.code for p in self.cards)


def register_bare(table: ActionTable, cls: type[BareAction]) -> type[BareAction]:
    """Register a :class:`BareAction` in ``table``: its JSON and text forms name only the
    seat."""

    def from_json(d: dict[str, Any]) -> Action:
        return cls(d["seat"])

    def from_text(seat: int, args: list[str]) -> Action:
        if args:
            raise InvalidActionError(f"{cls.type} takes no arguments")
        return cls(seat)

    return table.register(from_json, from_text)(cls)
