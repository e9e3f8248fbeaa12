"""Starting a deal of any variant: :func:`new_deal`.

>>> from .rules import make_rules
>>> d = new_deal(make_rules("colonel"), 2, 0, seed=7)
>>> d.to_move(), len(d.pack_order)
(1, 52)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from .cards import Card, make_pack
from .errors import InvalidActionError
from .rules import Rules

if TYPE_CHECKING:
    from .protocol import DealState

RUMMY_VARIANTS = ("foster", "foster-three", "colonel")


def shuffled_pack(rules: Rules, seed: int | None) -> list[Card]:
    """``random.Random(seed).shuffle`` of the variant's pack, top first."""
    from .foster import table_for

    pack = make_pack(table_for(rules).pack)
    random.Random(seed).shuffle(pack)
    return pack


def new_deal(
    rules: Rules,
    players: int,
    dealer: int,
    *,
    seed: int | None = None,
    pack: list[Card] | None = None,
    carry_in: int = 0,
) -> DealState:
    """Deal a new hand. ``pack`` is the full pack order, top first; else it is shuffled
    with ``random.Random(seed)`` (a fresh seed when none). The order is kept on the deal
    (``pack_order``, ``seed``) so that it replays exactly."""
    spec = rules.spec
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidActionError(f"bad number of players {players!r}")
    if not spec.min_players <= players <= spec.max_players:
        raise InvalidActionError(
            f"{rules.variant} is for {spec.min_players}-{spec.max_players} players, not {players}"
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InvalidActionError(f"bad dealer {dealer!r}")
    if rules.variant == "conquian":
        from . import conquian  # type: ignore[attr-defined, unused-ignore]

        state: DealState = conquian.new_conquian_deal(
            rules, dealer, seed=seed, pack=pack, carry_in=carry_in
        )
        return state
    if rules.variant not in RUMMY_VARIANTS:
        raise InvalidActionError(f"unknown variant {rules.variant!r}")
    if carry_in:
        raise InvalidActionError("only Conquian carries points into a deal")
    from .foster import RummyDeal, table_for

    if pack is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        cards = shuffled_pack(rules, seed)
    else:
        cards = list(pack)
        if not all(isinstance(c, Card) for c in cards) or Counter(cards) != Counter(
            make_pack(table_for(rules).pack)
        ):
            raise InvalidActionError(f"the pack is not a full {rules.variant} pack")
    return RummyDeal(rules, players, dealer, cards, seed)


def deal_from_json(data: Any, *, what: str = "a deal") -> DealState:
    """The deal a snapshot describes (``to_json()`` of any deal class), whatever its
    variant; :class:`~.snapshot.SnapshotError` naming ``what`` when it cannot be read."""
    from .snapshot import SnapshotError, check_version

    check_version(data, what)
    rules = data.get("rules")
    variant = rules.get("variant") if isinstance(rules, dict) else None
    if variant == "conquian":
        from .conquian import ConquianDeal

        return ConquianDeal.from_json(data, what=what)
    if variant in RUMMY_VARIANTS:
        from .foster import RummyDeal

        return RummyDeal.from_json(data, what=what)
    raise SnapshotError(f"{what}: snapshot of unknown variant {variant!r}")
