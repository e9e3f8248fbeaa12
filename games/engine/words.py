"""The log's words: the one place a record (:mod:`.records`) becomes a sentence.

Every sentence is whole inside one ``gettext`` call, its parts named, so that a catalog
can translate it (word order included) without code; nothing is glued from fragments.
Without a catalog the English as written here; the play side hands the reader's
(``catalog``: issue 82), and its words are in the club's catalogs. Cards given by
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

import gettext as _gettext_module
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, Protocol

from .cards import Card
from .i18n import gettext_noop
from .records import Kind, Record


class Catalog(Protocol):
    """A language's catalog, as Python's ``gettext`` translations give one (Django's
    catalogs are such): the play side hands the reader's (issue 82)."""

    def gettext(self, message: str, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


ENGLISH: Catalog = _gettext_module.NullTranslations()  # the words as written here
_catalog: ContextVar[Catalog] = ContextVar("catalog", default=ENGLISH)


def gettext(message: str) -> str:
    """``message`` in the language being spoken (:func:`sentence`, :func:`speaking`):
    the actions' words use it too, imported as ``_`` (the name the catalogs gather)."""
    return _catalog.get().gettext(message)


_ = gettext


@contextmanager
def speaking(catalog: Catalog) -> Iterator[None]:
    """Words made inside (an action's ``button()``, ``describe()``) in ``catalog``'s
    language."""
    token = _catalog.set(catalog)
    try:
        yield
    finally:
        _catalog.reset(token)


def pgettext(context: str, message: str) -> str:
    """A game term in that language, by its context ("drop" in Tonk is not a card dropped)."""
    return _catalog.get().pgettext(context, message)


# Each rank's name, and with its article, which some languages choose by the rank
# ("el as", "la reina").
_RANKS = {
    1: (gettext_noop("ace"), gettext_noop("the ace")),
    2: (gettext_noop("two"), gettext_noop("the two")),
    3: (gettext_noop("three"), gettext_noop("the three")),
    4: (gettext_noop("four"), gettext_noop("the four")),
    5: (gettext_noop("five"), gettext_noop("the five")),
    6: (gettext_noop("six"), gettext_noop("the six")),
    7: (gettext_noop("seven"), gettext_noop("the seven")),
    8: (gettext_noop("eight"), gettext_noop("the eight")),
    9: (gettext_noop("nine"), gettext_noop("the nine")),
    10: (gettext_noop("ten"), gettext_noop("the ten")),
    11: (gettext_noop("jack"), gettext_noop("the jack")),
    12: (gettext_noop("queen"), gettext_noop("the queen")),
    13: (gettext_noop("king"), gettext_noop("the king")),
}
_SUITS = {
    "C": gettext_noop("clubs"), "D": gettext_noop("diamonds"),
    "H": gettext_noop("hearts"), "S": gettext_noop("spades"),
}  # fmt: skip


def _name(code: str, *, the: bool = False) -> str:
    """A card's name: "seven of clubs"; ``the``: "the seven of clubs"."""
    card = Card.from_code(code)
    if card.suit is None:
        return _("the joker") if the else _("joker")
    rank = _RANKS[card.rank][1 if the else 0]
    return _("%(rank)s of %(suit)s") % {"rank": _(rank), "suit": _(_SUITS[card.suit.value])}


def name_of(code: str, *, the: bool = False) -> str:
    """A card's name in the language being spoken: "seven of clubs", "the seven of clubs"."""
    return _name(code, the=the)


def combination_words(number: int | None) -> str:
    """A combination as a sentence in the language being spoken names it."""
    return _combination(number)


def spread_words(number: int | None) -> str:
    """A Tonk spread as a sentence in the language being spoken names it."""
    return _spread(number)


def _combination(number: int | None) -> str:
    """A combination named by its number, as a sentence names it: "combination 2"."""
    return _("combination %(number)s") % {"number": number}


def _spread(number: int | None) -> str:
    """A Tonk spread named by its number: "spread 2"."""
    return pgettext("game term", "spread %(number)s") % {"number": number}


def combination_phrases(number: int, catalog: Catalog = ENGLISH) -> tuple[str, ...]:
    """How a sentence in ``catalog``'s language names combination ``number`` ("combination
    2", "spread 2"): the play side puts the combination's own name in their place.

    >>> combination_phrases(2)
    ('combination 2', 'spread 2')
    """
    token = _catalog.set(catalog)
    try:
        return (_combination(number), _spread(number))
    finally:
        _catalog.reset(token)


def card_name(code: str, catalog: Catalog = ENGLISH, *, the: bool = False) -> str:
    """A card's name in ``catalog``'s language: "seven of clubs", "siete de tréboles".

    >>> card_name("7C"), card_name("QH", the=True), card_name("JK")
    ('seven of clubs', 'the queen of hearts', 'joker')
    """
    token = _catalog.set(catalog)
    try:
        return _name(code, the=the)
    finally:
        _catalog.reset(token)


def spelled(code: str, catalog: Catalog = ENGLISH) -> str:
    """A card written out: "the queen of diamonds"; a joker placed as a card: "the joker
    (as the three of hearts)"; a wild two so placed (Tonk's Deuces Wild, TO7): "the two
    of spades (as the jack of hearts)".

    >>> spelled("2S=JH")
    'the two of spades (as the jack of hearts)'
    """
    token = _catalog.set(catalog)
    try:
        return _spelled(code)
    finally:
        _catalog.reset(token)


def _spelled(code: str) -> str:
    card, _sep, named = code.partition("=")
    if named:
        return _("%(card)s (as %(named)s)") % {
            "card": _name(card, the=True),
            "named": _name(named, the=True),
        }
    return _name(card, the=True)


class _Style:
    """How a sentence names cards given by code: as codes ("7C", the engine's log and its
    command line) or written out ("the seven of clubs", the table in the browser)."""

    __slots__ = ("card", "cards")

    def __init__(self, card: Callable[[str], str], join: str) -> None:
        self.card = card
        self.cards: Callable[[tuple[str, ...]], str] = lambda codes: join.join(map(card, codes))


_CODES = _Style(str, " ")
_SPELLED = _Style(_spelled, ", ")


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
        return _("uses %(card)s on %(combination)s") % {
            "card": _name(r.cards[0], the=True),
            "combination": _combination(r.combination),
        }
    return _("uses %(card)s with %(cards)s") % {
        "card": _name(r.cards[0], the=True),
        "cards": _listed(r.cards[1:], r.borrowed),
    }


def _meld(r: Record, s: _Style) -> str:
    if r.combination is not None:
        return _("adds %(card)s to %(combination)s") % {
            "card": _name(r.cards[0], the=True),
            "combination": _combination(r.combination),
        }
    return _("lays down %(cards)s") % {"cards": _listed(r.cards, r.borrowed)}


_SENTENCES: dict[Kind, Callable[[Record, _Style], str]] = {
    Kind.DEAL: _deal,
    Kind.DRAW_PACK: _draw_pack,
    Kind.DRAW_STOCK: lambda r, s: _("draws %(card)s from the stock") % {"card": s.card(r.cards[0])},
    Kind.LAYOUT: lambda r, s: _("lays out %(cards)s") % {"cards": s.cards(r.cards)},
    Kind.ADD: lambda r, s: (
        _("adds %(card)s to %(combination)s")
        % {"card": s.card(r.cards[0]), "combination": _combination(r.combination)}
    ),
    Kind.MOVE_JOKER: lambda r, s: (
        _("moves the joker of %(combination)s and plays %(card)s")
        % {"card": s.card(r.cards[0]), "combination": _combination(r.combination)}
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
    Kind.TURN_UP_DEAL: lambda r, s: _("turns up %(card)s") % {"card": _name(r.cards[0], the=True)},
    Kind.TRADE: lambda r, s: _("passes a card face down"),
    Kind.TURN_UP: lambda r, s: _("turns up the top card of the pack"),
    Kind.REFUSE: lambda r, s: _("refuses %(card)s") % {"card": _name(r.cards[0], the=True)},
    Kind.TURN_DOWN: lambda r, s: (
        _("refuses and turns down %(card)s") % {"card": _name(r.cards[0], the=True)}
    ),
    Kind.USE: _use,
    Kind.MELD: _meld,
    Kind.FORCE: lambda r, s: (
        _("forces %(card)s onto %(combination)s")
        % {"card": _name(r.cards[0], the=True), "combination": _combination(r.combination)}
    ),
    Kind.THROW: lambda r, s: _("discards %(card)s") % {"card": _name(r.cards[0], the=True)},
    Kind.ELEVEN: lambda r, s: _("has eleven cards down and wins"),
    Kind.TABLEAU: lambda r, s: _("the pack is exhausted: tableau"),
    Kind.TONK_CALL: lambda r, s: _("calls Tonk"),
    Kind.NO_CALL: lambda r, s: (
        _("does not call Tonk") if r.seat is not None else _("nobody calls Tonk: play begins")
    ),
    Kind.DRAWN: lambda r, s: _("%(count)s players called Tonk: a drawn deal") % {"count": r.number},
    Kind.DROP: lambda r, s: (
        pgettext("game term", "drops, counting %(count)s") % {"count": r.number}
    ),
    Kind.PLUCK: lambda r, s: (
        pgettext("game term", "plucks %(card)s from the stock") % {"card": s.card(r.cards[0])}
    ),
    Kind.SPREAD: lambda r, s: (
        pgettext("game term", "spreads %(cards)s") % {"cards": s.cards(r.cards)}
    ),
    Kind.HIT: lambda r, s: (
        pgettext("game term", "hits %(spread)s with %(card)s")
        % {"card": s.card(r.cards[0]), "spread": _spread(r.combination)}
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
def sentence(r: Record, *, spelled: bool = False, catalog: Catalog = ENGLISH) -> str:
    """The words of a record, as its viewer may see it (redact it first: ``seen_by``);
    ``spelled``: cards written out ("the seven of clubs"), as the table shows them;
    ``catalog``: the reader's language (English as written here)."""
    token = _catalog.set(catalog)
    try:
        return _SENTENCES[r.kind](r, _SPELLED if spelled else _CODES)
    finally:
        _catalog.reset(token)


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
