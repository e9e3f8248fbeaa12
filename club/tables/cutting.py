"""Cutting (Foster's law 2), pure Python: no Django here (the packs come from the engine).

The king is the highest card and the joker the lowest, the ace next above the joker.
Suits have no rank. Those in a tie cut again, and the second cut decides *only* the tie:
the tied group keeps its place relative to everybody else.

>>> rank("KS") > rank("QH") > rank("2C") > rank("AD") > rank("JK")
True
>>> lower_of(["5H", "KS"])  # more than one card exposed: the lower is the cut
'5H'
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from games.engine.errors import InvalidActionError
from games.engine.rules import make_rules
from games.engine.variant import DealStart, find_variant

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_RANK_VALUE = {r: i + 1 for i, r in enumerate(RANKS)}  # A=1 .. K=13; the joker is 0


def rank(card: str) -> int:
    """Cutting rank of a card code ("KS", "10H", "AD", "JK" for a joker)."""
    if card.upper().startswith("JK"):
        return 0
    code = card.upper()[:-1]
    if code not in _RANK_VALUE:
        raise ValueError(f"not a card: {card!r}")
    return _RANK_VALUE[code]


def lower_of(cards: Sequence[str]) -> str:
    """L2: if a player exposes more than one card, the lower is his cut."""
    return min(cards, key=rank)


def pack_for(variant: str, options: Mapping[str, Any] | None = None) -> list[str]:
    """The pack a table of ``variant`` cuts with under its ``options``: the game's
    ``cutting_pack`` in the engine's registry (Foster's double pack with both jokers, the
    three-hand pack with its joker if it is dealt with one, Foster's forty for Conquián,
    52 cards for Colonel). Options the game does not take are left aside here: a cut never
    fails for them (forming the table checks them)."""
    game = find_variant(variant)
    try:
        rules = make_rules(variant, dict(options or {}))
    except InvalidActionError:
        rules = make_rules(variant)
    return game.cutting_pack(rules)


def lowest_deals(variant: str, options: Mapping[str, Any] | None = None) -> str | None:
    """The law under which the lowest cut chooses his seat and deals first at a table of
    ``variant`` under ``options`` (Conquián's C-opt-2, Colonel's CL-1); None where the
    highest does (L2-L3)."""
    try:
        rules = make_rules(variant, dict(options or {}))
    except InvalidActionError:
        return None
    return find_variant(variant).lowest_deals(rules)


def options_error(
    variant: str, options: Mapping[str, Any] | None, players: int | None = None
) -> str | None:
    """Why ``options`` do not fit ``variant`` (the engine's words), or None when they do;
    with ``players``, also why no deal can be dealt for that many (Tonk's fifth player
    needs Five Card Tonk: a table seated so would stop at its first deal). Remembered
    by its arguments: the console asks it for every empty seat of every table on each
    live refresh, and the check deals a pack."""
    return _options_error(variant, json.dumps(dict(options or {}), sort_keys=True), players)


@lru_cache(maxsize=1024)
def _options_error(variant: str, options: str, players: int | None) -> str | None:
    try:
        rules = make_rules(variant, json.loads(options))
        if players is not None:
            find_variant(variant).deal(rules, players, 0, DealStart(seed=0))
    except InvalidActionError as e:
        return str(e)
    return None


@dataclass(frozen=True, slots=True)
class Draw[P]:
    player: P
    card: str
    round: int


@dataclass(slots=True)
class CutResult[P]:
    """``order``: players, highest cut first (lowest first in a low cut). ``draws``: every
    card drawn, every round."""

    order: list[P]
    draws: list[Draw[P]] = field(default_factory=list)


def cut[T: Hashable](
    players: Sequence[T], rng: random.Random, pack: Sequence[str], *, low: bool = False
) -> CutResult[T]:
    """Everyone draws one card from the spread pack; ties cut again among themselves.
    ``low``: the lowest cut comes first (Conquián's C-opt-2), else the highest (L2).

    >>> r = cut(["a", "b", "c"], random.Random(1), pack_for("foster"))
    >>> sorted(r.order) == ["a", "b", "c"] and len(r.draws) >= 3
    True
    """
    if len(set(players)) != len(players):
        raise ValueError("a player cuts once")
    result: CutResult[T] = CutResult(order=[])
    result.order = _cut(list(players), rng, list(pack), 1, result.draws, low)
    return result


def _cut[T: Hashable](
    players: list[T],
    rng: random.Random,
    pack: list[str],
    round_: int,
    draws: list[Draw[T]],
    low: bool = False,
) -> list[T]:
    if len(players) <= 1:
        return list(players)
    if round_ > 50:  # pragma: no cover - would need fifty ties running
        raise RuntimeError("cutting did not settle")
    # The cards are spread face down; each draws one (distinct cards of the pack).
    cards = rng.sample(pack, len(players))
    drawn = list(zip(players, cards, strict=True))
    for p, c in drawn:
        draws.append(Draw(p, c, round_))
    groups: dict[int, list[T]] = {}
    for p, c in drawn:
        groups.setdefault(rank(c), []).append(p)
    order: list[T] = []
    for value in sorted(groups, reverse=not low):
        tied = groups[value]
        # The second cut decides nothing but the tie.
        order.extend(_cut(tied, rng, pack, round_ + 1, draws, low) if len(tied) > 1 else tied)
    return order
