"""The log's words: the one place a record (:mod:`.records`) becomes a sentence.

Every sentence is whole inside one ``gettext`` call, its parts named, so that a catalog
can translate it (word order included) without code; nothing is glued from fragments.
Without a catalog (today) ``gettext`` returns the English as written here. Cards given by
code are named as codes (the engine's log, its command line) or written out (the table
in the browser: ``spelled``).

>>> from .records import Kind, Record
>>> sentence(Record(1, Kind.ADD, "L15", ("9S",), combination=2))
'adds 9S to combination 2'
>>> sentence(Record(1, Kind.LAYOUT, "L15", ("8S", "9S", "JK=10S")), spelled=True)
'lays out the eight of spades, the nine of spades, the joker (as the ten of spades)'
>>> sentence(Record(0, Kind.USE, "L12 (two players)", ("7C", "8C"), borrowed=("9C",)))
'uses the seven of clubs with eight of clubs, nine of clubs (borrowed)'
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .cards import Card
from .records import Kind, Record

# The catalog, found once (``gettext.gettext`` would look for it on disk at every call):
# none today, so the English as written here.
_ = gettext.translation("cooncan", fallback=True).gettext


def _name(code: str) -> str:
    """A card's name: "seven of clubs"."""
    return Card.from_code(code).name


def spelled(code: str) -> str:
    """A card written out: "the queen of diamonds"; a joker placed as a card: "the joker
    (as the three of hearts)"; a wild two so placed (Tonk's Deuces Wild, TO7): "the two
    of spades (as the jack of hearts)".

    >>> spelled("2S=JH")
    'the two of spades (as the jack of hearts)'
    """
    card, _sep, named = code.partition("=")
    if card == "JK":
        if named:
            return _("the joker (as the %(card)s)") % {"card": _name(named)}
        return _("the joker")
    if named:
        return _("the %(card)s (as the %(named)s)") % {"card": _name(card), "named": _name(named)}
    return _("the %(card)s") % {"card": _name(card)}


class _Style:
    """How a sentence names cards given by code: as codes ("7C", the engine's log and its
    command line) or written out ("the seven of clubs", the table in the browser)."""

    __slots__ = ("card", "cards")

    def __init__(self, card: Callable[[str], str], join: str) -> None:
        self.card = card
        self.cards: Callable[[tuple[str, ...]], str] = lambda codes: join.join(map(card, codes))


_CODES = _Style(str, " ")
_SPELLED = _Style(spelled, ", ")


def _listed(hand: tuple[str, ...], borrowed: tuple[str, ...]) -> str:
    """Conquián's cards put down: "six of cups, seven of cups (borrowed)"."""
    parts = [_name(c) for c in hand]
    parts += [_("%(card)s (borrowed)") % {"card": _name(c)} for c in borrowed]
    return ", ".join(parts) if parts else _("nothing")


def _deal(r: Record, s: _Style) -> str:
    if not r.cards:  # a game with no stock
        return _("deals %(count)s each") % {"count": r.number}
    return _("deals %(count)s each; %(card)s starts the stock") % {
        "count": r.number,
        "card": s.card(r.cards[0]),
    }


def _draw_pack(r: Record, s: _Style) -> str:
    if r.cards:
        return _("draws %(card)s from the pack") % {"card": s.card(r.cards[0])}
    return _("draws from the pack")


def _use(r: Record, s: _Style) -> str:
    if r.combination is not None:
        return _("uses the %(card)s on combination %(combination)s") % {
            "card": _name(r.cards[0]),
            "combination": r.combination,
        }
    return _("uses the %(card)s with %(cards)s") % {
        "card": _name(r.cards[0]),
        "cards": _listed(r.cards[1:], r.borrowed),
    }


def _meld(r: Record, s: _Style) -> str:
    if r.combination is not None:
        return _("adds the %(card)s to combination %(combination)s") % {
            "card": _name(r.cards[0]),
            "combination": r.combination,
        }
    return _("lays down %(cards)s") % {"cards": _listed(r.cards, r.borrowed)}


_SENTENCES: dict[Kind, Callable[[Record, _Style], str]] = {
    Kind.DEAL: _deal,
    Kind.DRAW_PACK: _draw_pack,
    Kind.DRAW_STOCK: lambda r, s: _("draws %(card)s from the stock") % {"card": s.card(r.cards[0])},
    Kind.LAYOUT: lambda r, s: _("lays out %(cards)s") % {"cards": s.cards(r.cards)},
    Kind.ADD: lambda r, s: (
        _("adds %(card)s to combination %(combination)s")
        % {"card": s.card(r.cards[0]), "combination": r.combination}
    ),
    Kind.MOVE_JOKER: lambda r, s: (
        _("moves the joker of combination %(combination)s and plays %(card)s")
        % {"card": s.card(r.cards[0]), "combination": r.combination}
    ),
    Kind.DISCARD: lambda r, s: _("discards %(card)s") % {"card": s.card(r.cards[0])},
    Kind.OUT: lambda r, s: _("is out"),
    Kind.TAKE_BACK: lambda r, s: _("takes back this turn's cards"),
    Kind.CHALLENGE: lambda r, s: _("challenges"),
    Kind.ACCEPT: lambda r, s: _("accepts the challenge"),
    Kind.DECLINE: lambda r, s: _("declines the challenge"),
    Kind.TURNOVER: lambda r, s: _("the stock is turned over and becomes the pack"),
    Kind.ABANDONED: lambda r, s: (
        _("the pack has run out %(count)s times: the deal is abandoned") % {"count": r.number}
    ),
    Kind.EXHAUSTED: lambda r, s: _("the pack is exhausted"),
    Kind.TURN_UP_DEAL: lambda r, s: _("turns up the %(card)s") % {"card": _name(r.cards[0])},
    Kind.TRADE: lambda r, s: _("passes a card face down"),
    Kind.TURN_UP: lambda r, s: _("turns up the top card of the pack"),
    Kind.REFUSE: lambda r, s: _("refuses the %(card)s") % {"card": _name(r.cards[0])},
    Kind.TURN_DOWN: lambda r, s: (
        _("refuses and turns down the %(card)s") % {"card": _name(r.cards[0])}
    ),
    Kind.USE: _use,
    Kind.MELD: _meld,
    Kind.FORCE: lambda r, s: (
        _("forces the %(card)s onto combination %(combination)s")
        % {"card": _name(r.cards[0]), "combination": r.combination}
    ),
    Kind.THROW: lambda r, s: _("discards the %(card)s") % {"card": _name(r.cards[0])},
    Kind.ELEVEN: lambda r, s: _("has eleven cards down and wins"),
    Kind.TABLEAU: lambda r, s: _("the pack is exhausted: tableau"),
    Kind.TONK_CALL: lambda r, s: _("calls Tonk"),
    Kind.NO_CALL: lambda r, s: (
        _("does not call Tonk") if r.seat is not None else _("nobody calls Tonk: play begins")
    ),
    Kind.DRAWN: lambda r, s: _("%(count)s players called Tonk: a drawn deal") % {"count": r.number},
    Kind.DROP: lambda r, s: _("drops, counting %(count)s") % {"count": r.number},
    Kind.PLUCK: lambda r, s: _("plucks %(card)s from the stock") % {"card": s.card(r.cards[0])},
    Kind.SPREAD: lambda r, s: _("spreads %(cards)s") % {"cards": s.cards(r.cards)},
    Kind.HIT: lambda r, s: (
        _("hits spread %(combination)s with %(card)s")
        % {"card": s.card(r.cards[0]), "combination": r.combination}
    ),
    Kind.REFUSE_STOCK: lambda r, s: _("refuses the stock with the pack empty: the deal ends"),
    Kind.TUNK: lambda r, s: (
        _("calls Tunk, showing %(cards)s with %(count)s unmatched")
        % {"cards": s.cards(r.cards) if r.cards else _("no meld"), "count": r.number}
    ),
    Kind.SHOW: lambda r, s: (
        _("lays down %(cards)s, %(count)s left unmatched")
        % {"cards": s.cards(r.cards) if r.cards else _("no meld"), "count": r.number}
    ),
    Kind.LAY_OFF: lambda r, s: (
        _("lays %(card)s off on the Tunker's meld %(combination)s")
        % {"card": s.card(r.cards[0]), "combination": r.combination}
    ),
    Kind.BREAK: lambda r, s: _("fewer cards in the pack than players: the deal is drawn"),
}


@lru_cache(maxsize=8192)
def sentence(r: Record, *, spelled: bool = False) -> str:
    """The words of a record, as its viewer may see it (redact it first: ``seen_by``);
    ``spelled``: cards written out ("the seven of clubs"), as the table shows them."""
    return _SENTENCES[r.kind](r, _SPELLED if spelled else _CODES)


# --- The log as its viewers see it (records with their words) -----------------------


class LogView:
    """A deal's log as its viewers see it, each record's entry made once and kept for the
    next view (a view is asked for at every turn of every computer player's search).

    Entries are kept against the records themselves (``is``), so a log replaced, cut or
    shared by a copy of the deal is always seen as it is. Each view gets its own dicts;
    their ``cards`` lists are shared: read them, do not change them.
    """

    __slots__ = ("_made",)

    def __init__(self) -> None:
        self._made: list[tuple[Record, dict[str, Any]]] = []

    def of(self, log: list[Record], viewer: int | None) -> list[dict[str, Any]]:
        """The log as ``viewer`` (a seat, ``None``: a spectator) may see it."""
        made = self._made
        out = []
        for i, r in enumerate(log):
            if i < len(made) and made[i][0] is r:
                entry = made[i][1]
            else:
                del made[i:]
                entry = _entry(r.seen_by(None))
                made.append((r, entry))
            if r.secret and viewer is not None and r.seat == viewer:
                entry = _entry(r)
            out.append(entry.copy())
        return out


@lru_cache(maxsize=16384)
def _entry(seen: Record) -> dict[str, Any]:
    """A redacted record's view entry, with its words (copied by the caller)."""
    entry = seen.to_json()
    entry.pop("secret", None)
    entry["text"] = sentence(seen)
    return entry
