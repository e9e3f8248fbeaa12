"""Starting a deal of any variant: :func:`new_deal`.

>>> from .rules import make_rules
>>> d = new_deal(make_rules("colonel"), 2, 0, seed=7)
>>> d.to_move(), len(d.pack_order)
(1, 52)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .cards import Card, shuffle_seeded
from .errors import InvalidActionError
from .rules import Rules
from .variant import DealStart

if TYPE_CHECKING:
    from .from_view import Hidden
    from .protocol import DealState


def shuffled_pack(rules: Rules, seed: int | None) -> list[Card]:
    """``random.Random(seed).shuffle`` of the variant's pack, top first."""
    pack = rules.spec.pack(rules)
    return shuffle_seeded(pack, seed)


def new_deal(
    rules: Rules,
    players: int,
    dealer: int,
    *,
    seed: int | None = None,
    pack: list[Card] | None = None,
    carry_in: int = 0,
    scores_in: tuple[int, ...] = (),
) -> DealState:
    """Deal a new hand of the rules' game (:mod:`.variant`). ``pack`` is the full pack
    order, top first; else it is shuffled with ``random.Random(seed)`` (a fresh seed when
    none). The order is kept on the deal (``pack_order``, ``seed``) so that it replays
    exactly."""
    variant = rules.spec
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidActionError(f"bad number of players {players!r}")
    if players not in variant.players:
        raise InvalidActionError(
            f"{rules.variant} is for {variant.min_players}-{variant.max_players} players, "
            f"not {players}"
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InvalidActionError(f"bad dealer {dealer!r}")
    if isinstance(carry_in, bool) or not isinstance(carry_in, int) or carry_in < 0:
        raise InvalidActionError(f"bad carry_in {carry_in!r}")
    if len(scores_in) not in (0, players) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in scores_in
    ):
        raise InvalidActionError(f"bad scores_in {scores_in!r}: a score of 0 or more a seat")
    return variant.deal(rules, players, dealer, DealStart(seed, pack, carry_in, tuple(scores_in)))


def deal_from_view(view: Mapping[str, Any], hidden: Hidden) -> DealState:
    """A deal that a seat's ``view`` is a view of, whatever its game, with the cards it
    does not show placed as ``hidden`` says (:mod:`.from_view`); for a computer player's
    playouts. :class:`.from_view.ViewMismatch` when they do not make one deal."""
    from .from_view import ViewMismatch
    from .variant import VARIANTS

    variant = VARIANTS.get_variant(view.get("variant"))
    if variant is None:
        raise ViewMismatch(f"a view of unknown variant {view.get('variant')!r}")
    return variant.from_view(view, hidden)


def deal_from_json(data: Any, *, what: str = "a deal") -> DealState:
    """The deal a snapshot describes (``to_json()`` of any deal), whatever its game;
    :class:`~.snapshot.SnapshotError` naming ``what`` when it cannot be read."""
    from .snapshot import SnapshotError, check_version
    from .variant import VARIANTS

    check_version(data, what)
    rules = data.get("rules")
    name = rules.get("variant") if isinstance(rules, dict) else None
    variant = VARIANTS.get_variant(name)
    if variant is None:
        raise SnapshotError(f"{what}: snapshot of unknown variant {name!r}")
    return variant.load(data, what)
