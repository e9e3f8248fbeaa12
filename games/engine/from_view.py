"""A deal state from one seat's view and the cards it hides: ``DealState.from_view``.

A computer player that searches (the expert) samples the cards its seat has not seen
into the other hands and the pack, and plays candidate actions out on a state built from
its view and that sample. The state is the engine's to build: this module reads a
``player_view`` (the seat's hand, the table, the counts, the public log's records) and a
:class:`Hidden` assignment, checks that they agree, and fills the deal's fields. Nothing
outside the engine sets a private field of a deal.

What the log tells (who showed cards in an earlier turn, Dalton's first ratter, whether
this turn was challenged, what a take-back restores) is read from its records' kinds,
never from their words.

A state built this way has no pack order and no history (``pack_order`` is empty, the
version is the view's): it plays on, it does not replay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import Card, PackKind, make_pack
from .combinations import CARDS, SUIT_INDEX, Combination, Placed, TableCard, cid_at, cid_of
from .errors import InvalidActionError
from .records import Kind
from .rules import make_rules
from .words import LogView

if TYPE_CHECKING:
    from .conquian.deal import ConquianDeal
    from .rummy.deal import RummyDeal


@dataclass(frozen=True)
class Hidden:
    """The cards a seat's view does not show, as one assignment of them.

    ``hands``: every other seat's whole hand (cards another seat is known to hold
    included). ``pack``: the pack, top card first. ``stock``: the stock, bottom card first,
    where the view shows only its top (Foster's buried stock, book p.8); left empty, the
    view's own stock is used.
    """

    hands: Mapping[int, Sequence[Card]]
    pack: Sequence[Card]
    stock: Sequence[Card] = field(default=())


class ViewMismatch(InvalidActionError):
    """The view and the hidden cards do not make one deal (counts, cards or phase)."""


# ---------------------------------------------------------------- the rummy games


_SHOWS = (Kind.LAYOUT, Kind.ADD, Kind.MOVE_JOKER)
_PLAYING = ("draw", "play", "challenge")


def rummy_from_view(cls: type[RummyDeal], view: Mapping[str, Any], hidden: Hidden) -> RummyDeal:
    """A :class:`~.foster.RummyDeal` that ``view`` (of a seat) is a view of, with the
    hidden cards where ``hidden`` puts them."""
    phase = str(view.get("phase"))
    if phase not in _PLAYING or view.get("seat") is None:
        raise ViewMismatch(f"a state is built from a seat's view during play, not {phase!r}")
    rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
    table = cls.table_of(rules)  # the deal's class says: this module does not import it
    n = int(view["players"])
    seat = int(view["seat"])
    counts = [int(k) for k in view["hand_counts"]]
    cnt = [[0] * len(CARDS) for _ in range(n)]
    for s, cards in hands_of(view, hidden, n, seat).items():
        if len(cards) != counts[s]:
            raise ViewMismatch(f"seat {s} holds {counts[s]} cards, not {len(cards)}")
        for c in cards:
            cnt[s][cid_of(c)] += 1
    pack = [cid_of(c) for c in hidden.pack][::-1]  # top of the pack is the end
    if len(pack) != int(view["pack_count"]):
        raise ViewMismatch(f"the pack holds {view['pack_count']} cards, not {len(pack)}")
    shown = [Card.from_code(c) for c in view.get("stock") or []]
    stock_cards = list(hidden.stock) if hidden.stock else shown
    if len(stock_cards) != int(view.get("stock_count") or 0) or stock_cards[-1:] != shown[-1:]:
        raise ViewMismatch("the stock does not match the view's")
    combos = [combination_from_view(c) for c in view.get("combinations") or []]
    everything = Counter(CARDS[i] for h in cnt for i, k in enumerate(h) for _ in range(k))
    everything.update(CARDS[i] for i in pack)
    everything.update(stock_cards)
    everything.update(t.card for c in combos for t in c.cards)
    if everything != _pack_counter(table.pack):
        raise ViewMismatch("the cards of the view and the hidden ones are not the deal's pack")
    log = list(view.get("log") or [])
    to_move = int(view["to_move"])
    d = cls.__new__(cls)
    d.rules, d.table, d.players, d.dealer = rules, table, n, int(view["dealer"])
    d.seed, d.pack_order = None, ()
    d.version = int(view.get("version") or 0)
    d._init_history()
    d._cnt, d._size = cnt, counts
    d._stock = [cid_of(c) for c in stock_cards]
    d._pack = pack
    d._combos = combos
    # in the challenge phase the challenged player (the one before) is still on turn
    d._turn = (to_move - 1) % n if phase == "challenge" else to_move
    d._phase = phase
    d._shown = int(view.get("shown_this_turn") or 0)
    d._turnovers = int(view.get("turnovers") or 0)
    earlier, d._first_ratter = _shows(log)
    d._has_shown = [s in earlier for s in range(n)]
    d._challenged = _challenged_this_turn(log)
    d._pack_out = not table.turnover and phase == "play" and not pack
    d._snapshot = _taken_back_to(log, seat, cnt[seat], counts[seat], combos) if d._shown else None
    d._log, d._log_view = [], LogView()
    d._outcome = None
    d._legal_key, d._legal, d._legal_by_id, d._legal_frozen = -1, [], {}, None
    return d


_PACKS: dict[PackKind, Counter[Card]] = {}


def _pack_counter(kind: PackKind) -> Counter[Card]:
    got = _PACKS.get(kind)
    if got is None:
        got = _PACKS[kind] = Counter(make_pack(kind))
    return got


def hands_of(view: Mapping[str, Any], hidden: Hidden, n: int, seat: int) -> dict[int, list[Card]]:
    """Each seat's hand: the view's own, the others from ``hidden``."""
    out = {seat: [Card.from_code(c) for c in view.get("hand") or []]}
    for s in range(n):
        if s == seat:
            continue
        if s not in hidden.hands:
            raise ViewMismatch(f"no hand given for seat {s}")
        out[s] = list(hidden.hands[s])
    if set(hidden.hands) - set(out):
        raise ViewMismatch(f"hands given for seats {sorted(set(hidden.hands) - set(out))}")
    return out


def combination_from_view(data: Mapping[str, Any]) -> Combination:
    """A combination from its view form (:meth:`.Combination.to_json`): a set's rank and
    a sequence's suit and low end read from the cards as they are named."""
    cards = tuple(
        TableCard(
            Card.from_code(x["card"]),
            Card.from_code(x["as"] or x["card"]),
            bool(x.get("crossways")),
        )  # fmt: skip
        for x in data["cards"]
    )
    if data["kind"] == "set":
        return Combination(data["id"], data["owner"], "set", cards, rank=cards[0].named.rank)
    suit = cards[0].named.suit
    if suit is None:
        raise ViewMismatch("a sequence's first card names no suit")
    # stored low to high; an ace first is low (L16)
    lo = cards[0].named.rank
    return Combination(data["id"], data["owner"], "sequence", cards, suit=SUIT_INDEX[suit], lo=lo)


def _shows(log: list[Mapping[str, Any]]) -> tuple[set[int], int | None]:
    """The seats that put cards on the table in an earlier turn and then discarded, and
    the first of them to (Dalton's first ratter)."""
    out: set[int] = set()
    first: int | None = None
    pending: dict[int, bool] = {}
    for e in log:
        s, kind = e.get("seat"), e.get("kind")
        if s is None:
            continue
        if kind in _SHOWS:
            pending[s] = True
        elif kind == Kind.TAKE_BACK:
            pending[s] = False
        elif kind == Kind.DISCARD:
            if pending.get(s):
                out.add(s)
                first = int(s) if first is None else first
            pending[s] = False
    return out, first


def _challenged_this_turn(log: list[Mapping[str, Any]]) -> bool:
    """Colonel: whether this turn's challenge was made or declined already."""
    for e in reversed(log):
        kind = e.get("kind")
        if kind == Kind.DECLINE or kind == Kind.CHALLENGE:
            return True
        if kind == Kind.DISCARD:
            return False
    return False


def _taken_back_to(
    log: list[Mapping[str, Any]], seat: int, cnt: list[int], size: int, combos: list[Combination]
) -> tuple[list[int], int, list[Combination]]:
    """What a take-back restores (L20): the hand and the table before this turn's shows,
    rebuilt by undoing them, the last first."""
    back = list(cnt)
    table = list(combos)
    added = 0
    for e in reversed(log):
        if e.get("seat") != seat:
            break
        kind = e.get("kind")
        if kind in (Kind.DRAW_PACK, Kind.DRAW_STOCK, Kind.TAKE_BACK):
            break  # the turn's start, or a take-back that restored it already
        if kind not in _SHOWS:
            continue
        placed = [Placed.from_code(code) for code in e.get("cards") or ()]
        for p in placed:
            back[cid_of(p.card)] += 1
            added += 1
        if kind == Kind.LAYOUT:
            table.pop()  # a new combination takes the next id (L15)
        else:
            i = int(e["combination"])
            table[i] = (
                _unmoved(table[i], placed[0])
                if kind == Kind.MOVE_JOKER
                else _unadded(table[i], placed[0])
            )
    return back, size + added, table


def _at_an_end(c: Combination, p: Placed) -> tuple[list[TableCard], int]:
    """The combination's cards without ``p`` (played at one end) and its new low end."""
    cards = list(c.cards)
    last, first = cards[-1], cards[0]
    if (last.card, last.named) == (p.card, p.named) and not last.crossways:
        return cards[:-1], c.lo
    if c.kind == "sequence" and (first.card, first.named) == (p.card, p.named):
        return cards[1:], c.lo + 1
    raise ViewMismatch(f"{p.code} is not at an end of combination {c.id}")


def _unadded(c: Combination, p: Placed) -> Combination:
    """The combination before ``p`` was added to it."""
    cards, lo = _at_an_end(c, p)
    if c.kind == "set":
        return Combination(c.id, c.owner, "set", tuple(cards), rank=c.rank)
    return Combination(c.id, c.owner, "sequence", tuple(cards), suit=c.suit, lo=lo)


def _unmoved(c: Combination, p: Placed) -> Combination:
    """The sequence before an L18 joker move that played ``p`` where the joker stood: the
    joker, now crossways at one end, goes back to the other, named by its place."""
    cards, lo = _at_an_end(c, p)
    if cards[-1].crossways:
        joker = cards.pop()
        lo -= 1
        cards.insert(0, TableCard(joker.card, CARDS[cid_at(c.suit, lo)]))
    elif cards[0].crossways:
        joker = cards.pop(0)
        lo += 1
        cards.append(TableCard(joker.card, CARDS[cid_at(c.suit, lo + len(cards))]))
    else:
        raise ViewMismatch(f"no joker was moved in combination {c.id}")
    return Combination(c.id, c.owner, "sequence", tuple(cards), suit=c.suit, lo=lo)


# ---------------------------------------------------------------- Conquián


def conquian_from_view(
    cls: type[ConquianDeal], view: Mapping[str, Any], hidden: Hidden
) -> ConquianDeal:
    """A :class:`~.conquian.ConquianDeal` that ``view`` (of a seat) is a view of, the
    other hand and the pack as ``hidden`` gives them."""
    from .conquian.melds import _CARDS, _INDEX, _KINDS

    phase = str(view.get("phase"))
    if phase not in ("say", "turn", "discard") or view.get("seat") is None:
        raise ViewMismatch(f"a state is built from a seat's view during play, not {phase!r}")
    rules = make_rules(str(view["variant"]), dict(view.get("options") or {}))
    kind = _KINDS[str(rules.opt("pack"))]
    index = _INDEX[kind]
    seat = int(view["seat"])
    opp = 1 - seat

    def ids(cards: Sequence[Card], what: str) -> list[int]:
        try:
            return [index[c] for c in cards]
        except KeyError as e:
            raise ViewMismatch(f"{what}: {e.args[0]} is not in this pack") from None

    hands: list[list[int]] = [[], []]
    hands[seat] = sorted(ids([Card.from_code(c) for c in view.get("hand") or []], "hand"))
    other = hands_of(view, hidden, 2, seat)[opp]
    hands[opp] = sorted(ids(other, "the other hand"))
    if len(hands[opp]) != int(view["hand_counts"][opp]):
        raise ViewMismatch(f"seat {opp} holds {view['hand_counts'][opp]} cards, not {len(other)}")
    pack = ids(hidden.pack, "the pack")[::-1]  # top card last, for pop()
    if len(pack) != int(view["pack_count"]):
        raise ViewMismatch(f"the pack holds {view['pack_count']} cards, not {len(pack)}")
    combos: dict[int, tuple[int, bool, tuple[int, ...]]] = {}
    where = [-1] * 40
    for c in view.get("combinations") or []:
        cs = tuple(sorted(ids([Card.from_code(x["card"]) for x in c["cards"]], "a combination")))
        combos[int(c["id"])] = (int(c["owner"]), c["kind"] == "sequence", cs)
        for x in cs:
            where[x] = int(c["id"])
    log = list(view.get("log") or [])
    dead = [index[Card.from_code(e["cards"][0])] for e in log if e.get("kind") == Kind.TURN_DOWN]
    if len(dead) != int(view.get("dead_count") or 0):
        raise ViewMismatch("the dead cards do not match the log")
    turned = view.get("turned")
    card = index[Card.from_code(turned)] if turned else -1
    placed = hands[0] + hands[1] + pack + dead + [x for _, _, cs in combos.values() for x in cs]
    if sorted(placed + ([card] if card >= 0 else [])) != list(range(40)):
        raise ViewMismatch("the cards of the view and the hidden ones are not the deal's pack")
    last = log[-1].get("kind") if log else None
    say, turned_by = view.get("say"), view.get("turned_by")
    d = cls.__new__(cls)
    d.rules, d.dealer = rules, int(view["dealer"])
    d.version = int(view.get("version") or 0)
    d.carry_in = int(view.get("carry_in") or 0)
    d.pack_order, d.seed = (), None
    d._init_history()
    d._kind, d._cards, d._idx = kind, _CARDS[kind], index
    d._hands = hands
    d._combos, d._where = combos, where
    d._next_id = max(combos, default=-1) + 1
    d._dead = dead
    d._card = card
    d._turned_by = -1 if turned_by is None else int(turned_by)
    d._say = -1 if say is None else int(say)
    d._refusals = 1 if (phase == "say" and last == Kind.REFUSE) else 0
    d._from_pack = last != Kind.THROW
    d._trade = [-1, -1]
    d._outcome = None
    d._log, d._log_view = [], LogView()
    d._cache_v, d._cache = -1, []
    d._phase = d._after_trade = phase
    d._mover = int(view["to_move"])
    d._pack = pack
    return d
