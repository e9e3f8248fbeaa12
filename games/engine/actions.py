"""The base of every action: a small frozen value with a text and a JSON form.

Each variant module defines its action classes with :func:`register` so that
:func:`action_from_json` can rebuild any action from its JSON form. Every action
carries the ``seat`` that makes it.
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
_REGISTRY: dict[str, Callable[[dict[str, Any]], Action]] = {}
_TEXT_REGISTRY: dict[str, Callable[[int, list[str]], Action]] = {}
ACTION_TYPES = _REGISTRY.keys()  # every registered action type (a live view)


def register(
    from_json: Callable[[dict[str, Any]], Action],
    from_text: Callable[[int, list[str]], Action],
) -> Callable[[A], A]:
    """Class decorator: ``@register(parse_json, parse_text)`` under the class's ``type``."""

    def deco(cls: A) -> A:
        if not cls.type or cls.type in _REGISTRY:
            raise RuntimeError(f"action type {cls.type!r} missing or registered twice")
        _REGISTRY[cls.type] = from_json
        _TEXT_REGISTRY[cls.type] = from_text
        return cls

    return deco


def action_from_json(data: object) -> Action:
    """Rebuild an action; anything malformed raises :class:`InvalidActionError`."""
    if not isinstance(data, dict):
        raise InvalidActionError("an action is a JSON object")
    kind = data.get("type")
    seat = data.get("seat")
    if not isinstance(kind, str) or kind not in _REGISTRY:
        raise InvalidActionError(f"unknown action type {kind!r}")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 16:
        raise InvalidActionError(f"bad seat {seat!r}")
    try:
        return _REGISTRY[kind](data)
    except InvalidActionError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise InvalidActionError(f"malformed {kind} action: {e}") from None


def action_from_text(text: str) -> Action:
    """Parse the one-line form ``"<seat> <type> <args...>"``."""
    if not isinstance(text, str):
        raise InvalidActionError("an action's text form is a string")
    words = text.split()
    if len(words) < 2 or not words[0].isdigit():
        raise InvalidActionError(f"not an action: {text!r}")
    seat, kind, args = int(words[0]), words[1], words[2:]
    if kind not in _TEXT_REGISTRY:
        raise InvalidActionError(f"unknown action type {kind!r}")
    try:
        return _TEXT_REGISTRY[kind](seat, args)
    except InvalidActionError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise InvalidActionError(f"malformed {kind} action: {e}") from None
