"""The base of every action: a small frozen value with a text and a JSON form.

Each game defines its action classes in its own :class:`ActionTable` (its notation: the
names are its own), which rebuilds any of them from its JSON or text form; a game's
variant reads it (``Variant.parse_action``). Every action carries the ``seat`` that
makes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .errors import InvalidActionError


@dataclass(frozen=True, slots=True)
class Action:
    """Base class. Subclasses set ``type`` (the JSON tag) and add fields."""

    type: ClassVar[str] = ""
    seat: int

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
            return cls

        return deco

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
        return self.verb


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
