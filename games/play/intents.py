"""From what a player clicked (an intent and the cards he selected) to engine actions.

The page offers a few verbs (lay out, add here, move the joker, discard, ...) over a
selection of cards. Each resolves against the seat's ``legal_actions``: one match is
applied; several raise :class:`AmbiguousActionError` with the candidates, which the page
offers as a choice (what the joker stands for, which end); none builds the plain action
in the game's own notation so that the engine says which law it breaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from django.utils.translation import gettext

from games.engine.actions import Action, Role
from games.engine.protocol import DealState, WildNames

from .engine_api import parse_action

INTENTS = ("layout", "add", "move-joker", "discard", "trade")


class IntentError(ValueError):
    """The request cannot name an action at all (no card selected, no combination)."""


class AmbiguousActionError(IntentError):
    """The request could mean more than one legal action: ``candidates`` lists them, for
    the player to choose."""

    def __init__(self, candidates: list[Action], question: str = "") -> None:
        # the page asks "Which do you mean?" where no question is given
        super().__init__(f"that could mean {len(candidates)} different moves: choose one")
        self.candidates = candidates
        self.question = question


@dataclass
class Resolved:
    actions: list[Action] = field(default_factory=list)


def base(code: str) -> str:
    """``"JK=9H"`` → ``"JK"``: the card that leaves the hand."""
    return code.split("=", 1)[0]


# The page's intents and the roles of the actions that answer them (whatever each game
# calls its actions: a "spread" is Tonk's new combination, a "hit" its addition).
ROLES = {
    "layout": Role.NEW_COMBINATION,
    "add": Role.ADD,
    "move-joker": Role.MOVE_JOKER,
    "discard": Role.DISCARD,
    "trade": Role.TRADE,
}


def _plain(state: DealState, intent: str, seat: int, cards: list[str], to: int | None) -> Action:
    """The action of the game's notation that the selection names, for the engine to
    judge (and say which law it breaks) when none of the legal ones matches."""
    cls = state.rules.spec.actions.of_role(ROLES[intent])
    if cls is None:
        raise IntentError(gettext("there is no such move in this game"))
    return cls.from_selection(seat, cards, to)


def resolve(
    state: DealState,
    seat: int,
    intent: str,
    cards: list[str],
    combination: int | None,
    turned: str | None = None,
) -> Resolved:
    if intent not in INTENTS:
        raise IntentError(gettext("unknown request %(intent)s") % {"intent": repr(intent)})
    legal = state.legal_actions(seat)
    js = [(a, a.to_json()) for a in legal]
    want = Counter(cards)
    # A game with a say (Conquián, L12): laying out or adding may use the turned card,
    # and its discard is a throw to which the adversary has the say.
    say = state.rules.spec.capabilities(state.rules).say

    if intent == "layout":
        if not cards and not turned:
            raise IntentError(gettext("select the cards to lay out first"))
        cands = [
            a for a in legal if a.role is Role.NEW_COMBINATION and Counter(a.hand_codes()) == want
        ]
        if say:
            naive: dict[str, Any] | Callable[[], Action] = (
                {"type": "use", "seat": seat, "card": turned, "hand": cards, "borrow": []}
                if turned is not None and state.player_view(seat).get("say") == seat
                else {"type": "meld", "seat": seat, "hand": cards, "borrow": []}
            )
        else:
            naive = lambda: _plain(state, intent, seat, cards, None)  # noqa: E731
        return _pick(cands, naive, legal, state)

    if intent in ("add", "move-joker"):
        if combination is None:
            raise IntentError(gettext("choose a combination"))
        if intent == "add" and say:
            cands = [
                a
                for a, j in js
                if a.role is Role.ADD
                and a.target() == combination
                and (
                    Counter(a.hand_codes()) == want
                    or (not cards and j["type"] in ("use", "force") and j["card"] == turned)
                )
            ]
            if not cards and turned:
                naive = {"type": "use", "seat": seat, "card": turned, "to": combination}
            elif cards:
                naive = {"type": "meld", "seat": seat, "hand": cards[:1], "to": combination}
            else:
                raise IntentError(gettext("select a card to add first"))
            return _pick(cands, naive, legal, state)
        if not cards:
            raise IntentError(gettext("select a card first"))
        role = ROLES[intent]
        if len(cards) == 1 or intent == "move-joker":
            cands = [
                a
                for a in legal
                if a.role is role and a.target() == combination and a.hand_codes() == cards[:1]
            ]
            return _pick(
                cands, lambda: _plain(state, intent, seat, cards[:1], combination), legal, state
            )
        # Several cards added one after another, on a copy to find each one's action.
        sim = state.copy()
        out: list[Action] = []
        for code in cards:
            now = sim.legal_actions(seat)
            found = [
                a
                for a in now
                if a.role is Role.ADD and a.target() == combination and a.hand_codes() == [code]
            ]
            action = found[0] if found else _plain(sim, intent, seat, [code], combination)
            out.append(action)
            if not found:
                break  # the engine will refuse it and say why
            sim.apply(action)
        return Resolved(actions=out)

    # discard, trade: exactly one card
    if len(cards) != 1:
        raise IntentError(
            gettext("select exactly one card to discard")
            if intent == "discard"
            else gettext("select exactly one card to pass")
        )
    role = ROLES[intent]
    cands = [a for a in legal if a.role is role and a.hand_codes() == cards]
    return _pick(cands, lambda: _plain(state, intent, seat, cards, None), legal, state)


def _pick(
    cands: list[Action],
    naive: dict[str, Any] | Callable[[], Action],
    legal: list[Action],
    state: DealState,
) -> Resolved:
    """The one candidate; several: the player chooses; none: the plain action the
    selection names (made only then), for the engine to refuse with its reason. A wild
    card in a set is named by its holder (L17): with more than one name it may take, the
    player chooses the name."""
    if len(cands) == 1:
        names = getattr(state, "namings", None)
        if names is not None and state.rules.spec.capabilities(state.rules).wild_cards:
            named = cast(WildNames, state).namings(cands[0])
            if len(named) > 1:
                raise AmbiguousActionError(
                    named, gettext("Which card does the joker stand for? (L17)")
                )
        return Resolved(actions=cands)
    if cands:
        raise AmbiguousActionError(cands)
    data = naive if isinstance(naive, dict) else naive().to_json()
    return Resolved(actions=[parse_action(data, legal, state)])
