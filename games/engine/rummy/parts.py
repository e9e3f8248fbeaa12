"""The rummy family's parts that are data, not play: a variant as a :class:`Table` of
settings (what differs between Foster's games and Colonel), the pips of a card (L24),
interned actions, and how a deal's combinations and counts are written in its snapshot.
The deal (:mod:`.deal`) uses them; nothing here knows the deal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .. import snapshot
from ..actions import Action
from ..cards import Card, PackKind
from ..combinations import CARDS, FULL_ORDER, Combination, SeqOrder, TableCard, cid_at, cid_of
from ..rules import Rules
from ..snapshot import SnapshotError
from .moves import (
    Discard,
)

if TYPE_CHECKING:
    pass


#: Interned draw/discard/bare actions, keyed by their fields.
_SIMPLE: dict[tuple[object, ...], Action] = {}


def simple_action(key: tuple[object, ...], make: Any) -> Any:
    a = _SIMPLE.get(key)
    if a is None:
        a = _SIMPLE[key] = make()
    return a


DISCARDS: list[list[Discard]] = [[Discard(seat, c) for c in CARDS] for seat in range(16)]


@dataclass(frozen=True, slots=True)
class Table:
    """A variant as data: what differs between foster, foster-three and colonel."""

    variant: str
    hand_size: int
    pack: PackKind
    wild: str  # "none", "jokers", "spade-twos"
    stock: str  # "buried" (each discard covers the last) or "exposed"
    pips: str  # "foster" (L24) or "colonel" (ace 1)
    turnover: bool  # L25: the stock becomes the pack; else the deal ends (colonel)
    challenge: bool  # colonel
    splash: int
    ratting: str
    max_turnovers: int  # 0: no cap (see docs/replay-format.md)
    order: SeqOrder = FULL_ORDER  # the pack's sequence order (Colonel's forty, CL-opt-1)


def table_for(rules: Rules) -> Table:
    """The :class:`Table` of a rummy variant's rules: each variant says
    (:class:`~.variants.RummyVariant`, which this module does not import). Kept per
    rules: every deal asks, and rules and tables are both frozen."""
    found = _TABLES.get(rules)
    if found is None:
        table = getattr(rules.spec, "table", None)
        if table is None:
            raise ValueError(f"not a rummy variant: {rules.variant}")
        if len(_TABLES) > 256:
            _TABLES.clear()
        found = _TABLES[rules] = cast(Table, table(rules))
    return found


_TABLES: dict[Rules, Table] = {}


def pip_value(cid: int, pips: str) -> int:
    """L24 (joker 15, ace 11, courts 10) or Colonel's (courts 10, ace 1, others face)."""
    card = CARDS[cid]
    return card.pips if pips == "foster" else min(card.rank, 10)


DEAL_FIELDS = [
    "_log_view",  # shared by copies: it keeps its entries against the records themselves
    "rules",
    "table",
    "players",
    "dealer",
    "seed",
    "pack_order",
    "version",
    "_turn",
    "_phase",
    "_shown",
    "_snapshot",
    "_first_ratter",
    "_turnovers",
    "_challenged",
    "_pack_out",
    "_outcome",
    "_legal_key",
    "_legal",
    "_legal_ids",
    "_legal_frozen",
]


def moved_combination(c: Combination, jend: str, pos: int, card: Card, named: Card) -> Combination:
    """The sequence after an L18 joker move from end ``jend``, ``card`` played at ``pos``."""
    s = c.suit
    if jend == "low":
        j = c.cards[0]
        cards = list(c.cards[1:]) + [TableCard(j.card, CARDS[cid_at(s, c.hi + 1)], True)]
        lo = c.lo + 1
    else:
        j = c.cards[-1]
        cards = [TableCard(j.card, CARDS[cid_at(s, c.lo - 1)], True)] + list(c.cards[:-1])
        lo = c.lo - 1
    tc = TableCard(card, named)
    if pos < lo:
        cards.insert(0, tc)
        lo = pos
    else:
        cards.append(tc)
    return Combination(c.id, c.owner, "sequence", tuple(cards), suit=s, lo=lo)


def counted_codes(counts: list[int]) -> list[str]:
    """A hand's counts by card id as codes, a card held twice listed twice."""
    return [CARDS[i].code for i, k in enumerate(counts) for _ in range(k)]


def counts_of(codes: list[str]) -> list[int]:
    out = [0] * len(CARDS)
    for c in codes:
        out[cid_of(snapshot.card(c))] += 1
    return out


def combination_json(c: Combination) -> dict[str, object]:
    return c.to_json() | {"suit": c.suit, "rank": c.rank, "lo": c.lo}


def combination_from_json(data: dict[str, Any]) -> Combination:
    cards = tuple(
        TableCard(snapshot.card(t["card"]), snapshot.card(t["as"]), bool(t["crossways"]))
        for t in data["cards"]
    )
    kind = str(data["kind"])
    if kind not in ("sequence", "set"):
        raise SnapshotError(f"a combination is a sequence or a set, not {kind!r}")
    return Combination(
        int(data["id"]), int(data["owner"]), kind, cards,
        int(data["suit"]), int(data["rank"]), int(data["lo"]),
    )  # fmt: skip
