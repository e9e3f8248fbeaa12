"""From what a player clicked (an intent and the cards he selected) to engine actions.

The page offers a few verbs (lay out, add here, move the joker, discard, ...) over a
selection of cards. Each resolves against the seat's ``legal_actions``: one match is
applied; several raise :class:`AmbiguousActionError` with the candidates, which the page
offers as a choice (what the joker stands for, which end); none builds the plain action
in the game's own notation so that the engine says which law it breaks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.engine.actions import Action
from games.engine.protocol import DealState

from .engine_api import parse_action

INTENTS = ("layout", "add", "move-joker", "discard", "trade")
NEW_COMBINATION = ("layout",)
DISCARDS = ("discard", "throw")  # Conquián's discard is "throw" (its card goes into play)


class IntentError(ValueError):
    """The request cannot name an action at all (no card selected, no combination)."""


class AmbiguousActionError(IntentError):
    """The request could mean more than one legal action: ``candidates`` lists them, for
    the player to choose."""

    def __init__(self, candidates: list[Action]) -> None:
        super().__init__(f"that could mean {len(candidates)} different moves: choose one")
        self.candidates = candidates


@dataclass
class Resolved:
    actions: list[Action] = field(default_factory=list)


def base(code: str) -> str:
    """``"JK=9H"`` → ``"JK"``: the card that leaves the hand."""
    return code.split("=", 1)[0]


def hand_cards(data: dict[str, Any]) -> list[str]:
    """The hand cards an action (as JSON) takes from the hand."""
    t = data.get("type")
    if t == "layout":
        return [base(c) for c in data["cards"]]
    if t in ("add", "move-joker"):
        return [base(data["card"])]
    if t in ("meld", "use"):
        return list(data.get("hand", []))
    if t in DISCARDS or t in ("trade", "force"):
        return [data["card"]]
    return []


def is_new_combination(data: dict[str, Any]) -> bool:
    t = data.get("type")
    return t == "layout" or (t in ("meld", "use") and data.get("to") is None)


def resolve(
    state: DealState,
    seat: int,
    intent: str,
    cards: list[str],
    combination: int | None,
    turned: str | None = None,
) -> Resolved:
    if intent not in INTENTS:
        raise IntentError(f"unknown request {intent!r}")
    legal = state.legal_actions(seat)
    js = [(a, a.to_json()) for a in legal]
    want = Counter(cards)
    # A game with a say (Conquián, L12): laying out or adding may use the turned card,
    # and its discard is a throw to which the adversary has the say.
    say = state.rules.spec.capabilities(state.rules).say

    if intent == "layout":
        if not cards and not turned:
            raise IntentError("select the cards to lay out first")
        cands = [a for a, j in js if is_new_combination(j) and Counter(hand_cards(j)) == want]
        if say:
            naive: dict[str, Any] = (
                {"type": "use", "seat": seat, "card": turned, "hand": cards, "borrow": []}
                if turned is not None and state.player_view(seat).get("say") == seat
                else {"type": "meld", "seat": seat, "hand": cards, "borrow": []}
            )
        else:
            naive = {"type": "layout", "seat": seat, "cards": cards}
        return _pick(cands, naive, legal, state)

    if intent in ("add", "move-joker"):
        if combination is None:
            raise IntentError("choose a combination")
        if intent == "add" and say:
            cands = [
                a
                for a, j in js
                if j["type"] in ("use", "meld", "force")
                and j.get("to") == combination
                and (
                    Counter(hand_cards(j)) == want
                    or (not cards and j["type"] in ("use", "force") and j["card"] == turned)
                )
            ]
            if not cards and turned:
                naive = {"type": "use", "seat": seat, "card": turned, "to": combination}
            elif cards:
                naive = {"type": "meld", "seat": seat, "hand": cards[:1], "to": combination}
            else:
                raise IntentError("select a card to add first")
            return _pick(cands, naive, legal, state)
        if not cards:
            raise IntentError("select a card first")
        if len(cards) == 1 or intent == "move-joker":
            cands = [
                a
                for a, j in js
                if j["type"] == intent
                and j["combination"] == combination
                and base(j["card"]) == cards[0]
            ]
            naive = {"type": intent, "seat": seat, "combination": combination, "card": cards[0]}
            return _pick(cands, naive, legal, state)
        # Several cards added one after another, on a copy to find each one's action.
        sim = state.copy()
        out: list[Action] = []
        for code in cards:
            now = sim.legal_actions(seat)
            found = [
                a
                for a in now
                if a.type == "add"
                and a.to_json()["combination"] == combination
                and base(a.to_json()["card"]) == code
            ]
            action = (
                found[0]
                if found
                else parse_action(
                    {"type": "add", "seat": seat, "combination": combination, "card": code},
                    now,
                    sim,
                )
            )
            out.append(action)
            if not found:
                break  # the engine will refuse it and say why
            sim.apply(action)
        return Resolved(actions=out)

    # discard, trade: exactly one card
    if len(cards) != 1:
        raise IntentError(f"select exactly one card to {intent}")
    types = DISCARDS if intent == "discard" else (intent,)
    cands = [a for a, j in js if j["type"] in types and j.get("card") == cards[0]]
    kind = "throw" if intent == "discard" and say else intent
    return _pick(cands, {"type": kind, "seat": seat, "card": cards[0]}, legal, state)


def _pick(
    cands: list[Action], naive: dict[str, Any], legal: list[Action], state: DealState
) -> Resolved:
    if len(cands) == 1:
        return Resolved(actions=cands)
    if cands:
        raise AmbiguousActionError(cands)
    return Resolved(actions=[parse_action(naive, legal, state)])
