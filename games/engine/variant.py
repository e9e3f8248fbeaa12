"""The variant registry: one object per game, read by every layer.

A game (Foster's Cooncan, the three-hand game, Conquián, Colonel, ...) is one
:class:`Variant`: its name and titles, the players the engine deals for and the seats a
club table has, its options, its packs (for dealing and for cutting), how to deal and to
load a deal, its action notation, how a finished deal scores, the law text of its rules
page, and the :class:`Capabilities` the table and the computer players ask about instead
of testing names. :data:`VARIANTS` holds them all; :func:`find_variant` looks one up;
:func:`registered` adds one for the length of a test.

Where copies used to differ for a reason, the difference is a named field here:

- ``players`` (what the engine plays) and ``seats`` (what a club table seats): Foster's
  game is dealt for 2-7, a club table seats 4-7;
- one ``display_name`` ("Conquián") and one short ``description`` ("two players, forty
  cards") per game, used on every page, menu and CSV (issue 79): :attr:`Variant.title`,
  :attr:`Variant.club_label` and :attr:`Variant.short_name` are made of them;
- :meth:`Variant.cutting_pack` and :meth:`Variant.pack`;
- :meth:`Variant.physical_pips` counts a physical table's hand with Foster's values (L24)
  in every game, where the engine scores Colonel's ace as 1.

>>> v = find_variant("foster")
>>> v.players, v.seats
(PlayerRange(low=2, high=7, default=5), PlayerRange(low=4, high=7, default=5))
>>> find_variant("chess")
Traceback (most recent call last):
...
games.engine.errors.InvalidActionError: unknown variant 'chess'; one of foster, foster-three, conquian, colonel, tonk, tunk
"""

from __future__ import annotations

import importlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .actions import Action, ActionTable
from .cards import Card
from .errors import InvalidActionError
from .i18n import gettext_noop
from .words import gettext as _

if TYPE_CHECKING:
    from .from_view import Hidden
    from .protocol import DealState, Outcome
    from .rules import Rules

OptionValue = str | int | bool


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a variant: where the sources disagree, or a club's choice."""

    name: str
    choices: tuple[OptionValue, ...]
    default: OptionValue
    help: str
    source: str  # where the sources say so: "L1", "Dalton", "book p.36", "encyclopedia", ...
    label: str = ""  # what a form calls it; the name, capitalised, when not given
    # Each value in a person's words where its code would not do ("spade-twos": "the two
    # deuces of spades as jokers"); the others said plainly (``word``).
    words: tuple[tuple[OptionValue, str], ...] = ()

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def word(self, value: object) -> str:
        """``value`` as a page says it: its words, yes or no for a switch (never
        "True"), a name's hyphens as spaces, a number as it is. A form's values arrive
        as text ("True", "25") and are said as the value they stand for."""
        for choice, said in self.words:
            if value == choice or str(value) == str(choice):
                return said
        if value is True or value == "True":
            return gettext_noop("yes")
        if value is False or value == "False":
            return gettext_noop("no")
        return str(value).replace("-", " ")


def cut_option(law: str, source: str, low: str, help: str) -> OptionSpec:
    """The option of a game whose sources let the lowest cut choose his seat and deal
    first (Conquián's C-opt-2, Colonel's CL-1) where L2-L3 give it to the highest; the
    game sets ``cut_law`` to ``law`` too, which :meth:`Variant.lowest_deals` names.
    ``help`` and ``source`` name ``law`` ("... or the lowest (C-opt-2)", "L2-L3; C-opt-2,
    seed 004"), whole for the catalogs."""
    return OptionSpec(
        "cut", ("high", "low"), "high", help, source, gettext_noop("Cut for deal"),
        (("high", gettext_noop("the highest deals")), ("low", low)),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlayerRange:
    low: int
    high: int
    default: int

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and self.low <= n <= self.high

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


@dataclass(frozen=True, slots=True)
class Law:
    """One law of a rules page, in our own words: its number and its text."""

    number: str
    text: str


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What the table, the intents and the computer players ask of a game (under its
    options), instead of testing its name."""

    say: bool = False  # a turned card is used at once or passed, never taken in (L12, two)
    forcing: bool = False  # a card may be put on the adversary's combination (L19, two)
    carries: bool = False  # a drawn deal's points go into the next deal (a tableau)
    wild_cards: bool = False  # jokers (or the spade twos) stand for cards (L17)
    wild: str = "none"  # which: "jokers", "spade-twos" or "none"
    low_aces: bool = False  # a hand left counts aces 1 and courts 10 (Colonel), not L24's
    double_pack: bool = False  # two of every card: a set may hold more than four (L1)
    exposed_stock: bool = False  # every discard stays in view; any one may be drawn
    challenge: bool = False  # Colonel's challenge
    take_back: bool = False  # cards put on the table this turn may be taken back
    drop: bool = False  # a player may end the deal by showing his hand (Tonk's drop, T9)
    knock: bool = False  # a low hand ends the play, the others having a last turn (Tunk, K7)
    # every player answers a round on the deal, the answers resolved together (Tonk's
    # call round, TO5): a club table opens it to all at once for the same few seconds
    call_round: bool = False


@dataclass(frozen=True, slots=True)
class Ending:
    """One way a deal of a game ends, as a physical table's result names it: the
    secretary picks it, the seat it names (if any) and each player's count (if asked),
    and :meth:`Variant.ended_points` scores it."""

    name: str  # the engine's word: "out", "drop", ...
    label: str  # what the result form says
    law: str  # where the rules say so
    seat: str = ""  # whom it names ("the dropper"); "" when it names nobody
    counts: bool = False  # every player's count of the cards left in hand is entered


class DealClass(Protocol):
    """A game's deal as its variant loads it: from a snapshot or from a seat's view."""

    def from_json(self, data: dict[str, Any], *, what: str = ...) -> DealState: ...

    def from_view(self, view: Mapping[str, Any], hidden: Hidden) -> DealState: ...


@dataclass(frozen=True)
class DealStart:
    """How a deal starts, besides its rules, players and dealer: the pack's order
    (``pack``, top first) or the ``seed`` it is shuffled from (a fresh one when neither),
    what carries into it from the deal before (``carry_in``: Conquián's, a deal's stake
    left by a draw), and the game's scores before it (``scores_in``: Tunk's, K10)."""

    seed: int | None = None
    pack: list[Card] | None = None
    carry_in: int = 0
    scores_in: tuple[int, ...] = ()

    def only(self, game: str, *, carry: str = "") -> None:
        """Refuse what a deal of ``game`` does not take: scores from the game before it,
        and anything carried in (``carry``: the refusal's words, where it says more)."""
        if self.scores_in:
            raise InvalidActionError(f"a deal of {game} does not depend on the game's scores")
        if self.carry_in:
            raise InvalidActionError(carry or f"nothing carries into a deal of {game}")


class Variant(ABC):
    """The interface every game implements (see the module's docstring)."""

    name: str
    display_name: str  # the game's one name on every page, menu and CSV ("Conquián")
    description: str  # its one short description ("two players, forty cards")
    players: PlayerRange  # the players the engine deals for
    seats: PlayerRange  # the seats a club table of this game has
    options: tuple[OptionSpec, ...]
    # Options no table is offered: each keeps the rule deals were dealt under before the
    # game changed, so that they replay as they were played (Tonk's call round before
    # issue 58). A deal's rules carry one only when it was given.
    legacy_options: tuple[OptionSpec, ...] = ()
    cut_law: str | None = None  # the law of its cut_option, if it offers one
    # how the computer players play it (games/bots/styles.py): the rummy games' way, or
    # Conquián's, Tonk's or Tunk's own
    play_style: str = "rummy"
    deal_class: ClassVar[DealClass]  # its deal's class: load and from_view read through it
    summary: str
    laws: tuple[Law, ...]
    actions: ActionTable  # its action notation: the names are its own
    order: int = 100  # where lists of games show it (then by registration)
    # What the player to move is asked in each of its own phases, where the table's
    # general words ("draw from the pack or the stock") do not say it.
    phases: Mapping[str, str] = {}
    # The sources' own sets of options, by name (issue 80): a club starts with each as a
    # set of house rules it may choose, beside its own ("Conquián as played today").
    named_sets: tuple[tuple[str, Mapping[str, OptionValue]], ...] = ()

    @property
    def short_name(self) -> str:
        """The game's name in a sentence ("Cooncan", "Conquián", "Tonk")."""
        return self.display_name

    @property
    def title(self) -> str:
        """The rules page's heading: the game's name."""
        return self.display_name

    @property
    def club_label(self) -> str:
        """What a choice of game says: its name and its short description, no brackets
        ("Conquián: two players, forty cards")."""
        return f"{self.display_name}: {self.description}"

    # -- the engine's range, under the names the older callers use ----------------------
    @property
    def min_players(self) -> int:
        return self.players.low

    @property
    def max_players(self) -> int:
        return self.players.high

    @property
    def default_players(self) -> int:
        return self.players.default

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise InvalidActionError(f"{self.name} has no option {name!r}")

    # -- the game ----------------------------------------------------------------------
    @abstractmethod
    def capabilities(self, rules: Rules) -> Capabilities: ...

    @abstractmethod
    def pack(self, rules: Rules) -> list[Card]:
        """The pack a deal is dealt from, in the fixed order of :func:`.cards.make_pack`."""

    def cutting_pack(self, rules: Rules) -> list[str]:
        """The card codes a table of this game cuts with (L2): its dealing pack."""
        return [c.code for c in self.pack(rules)]

    def lowest_deals(self, rules: Rules) -> str | None:
        """The law under which the lowest cut, not the highest (L2-L3), chooses his seat
        and deals first at a table of this game under ``rules``; None where the highest
        does: a game offering :func:`cut_option` names its ``cut_law`` when it is "low"."""
        return self.cut_law if self.cut_law and rules.opt("cut") == "low" else None

    def hand_size(self, rules: Rules, players: int) -> int:
        """Cards dealt to each player."""
        raise NotImplementedError

    @abstractmethod
    def deal(self, rules: Rules, players: int, dealer: int, start: DealStart) -> DealState:
        """A new deal (``players`` and ``dealer`` already checked against the range),
        started as ``start`` says."""

    def scores_in(self, state: DealState) -> tuple[int, ...]:
        """The game's scores ``state`` was dealt with, in a game whose deals depend on them
        (what a replay records, and :meth:`deal` takes back); empty in every other game."""
        return tuple(getattr(state, "scores_in", ()))

    def scores_after(self, state: DealState) -> tuple[int, ...]:
        """The game's scores the deal after ``state`` (finished) is dealt with, in a game
        whose deals depend on them (Tunk's, K10); empty in every other game, and when the
        game is over (the next deal begins a new one)."""
        return ()

    def ends_game(self, state: DealState) -> bool | None:
        """Whether the deal (finished) ends the game, in a game of many deals that the
        engine keeps (Tunk's, K10: one player left); None where the club's own rule
        says what a game is (L5: a round of deals)."""
        return None

    def game_winners(self, state: DealState) -> tuple[int, ...]:
        """The seats that win the game the deal (finished) ends, in a game of many deals
        the engine keeps (Tunk's, K10); empty otherwise."""
        return ()

    def load(self, data: dict[str, Any], what: str) -> DealState:
        """The deal a snapshot of this game describes (:class:`.snapshot.SnapshotError`):
        its :attr:`deal_class`'s ``from_json``."""
        return self.deal_class.from_json(data, what=what)

    def from_view(self, view: Mapping[str, Any], hidden: Hidden) -> DealState:
        """A deal that ``view`` (one seat's, during play) is a view of, the cards it does
        not show placed as ``hidden`` says (:mod:`.from_view`); :class:`.ViewMismatch`
        when they do not make one deal: its :attr:`deal_class`'s ``from_view``."""
        return self.deal_class.from_view(view, hidden)

    # -- its action notation ------------------------------------------------------------
    def parse_action(self, data: object) -> Action:
        """An action of this game from its JSON form (:class:`InvalidActionError`)."""
        return self.actions.from_json(data)

    def parse_text(self, text: str) -> Action:
        """An action from its one-line text form, ``"<seat> <type> <args...>"``."""
        return self.actions.from_text(text)

    # -- scoring -------------------------------------------------------------------------
    def points(self, outcome: Outcome) -> tuple[int, ...]:
        """What each seat wins (+) or pays (-) for a finished deal: the washbook's line.
        They sum to zero."""
        points = tuple(int(p) for p in outcome.payments)
        if sum(points) != 0:
            raise InvalidActionError(f"{self.name}: a deal's points sum to {sum(points)}, not 0")
        return points

    # -- a deal's end, in words ---------------------------------------------------------
    # The columns of the hands shown at a deal's end: the law that shows them, and what a
    # hand left is worth (L23, L24 in Foster's family).
    shown: str = gettext_noop("Hand shown (L23)")
    worth: str = gettext_noop("Pips")
    # What the end of a deal's "Points" column is, said under it (issue 56: Tunk's
    # "Points −16" beside "20 unmatched" was never explained).
    points_note: str = gettext_noop("Points: what each player won (+) or paid (−) for the deal.")
    # The score that ends a game the engine keeps (Tunk's 100, K10); 0 where a game is
    # the club's round of deals (L5), each player dealing once.
    game_to: int = 0
    # The caption over a game's running scores on the table, ``{out_at}`` the score that
    # ends it (a game kept to a score: Tunk's, Conquián's C-opt-4).
    game_caption: str = gettext_noop("The game before this deal: out at {out_at}")
    # The law that names a game's winner, said beside his name (Tunk's K10).
    game_law: str = ""

    def game_target(self, options: Mapping[str, Any] | None) -> int:
        """The score that ends a game under these options: :attr:`game_to`, or an
        option's (Conquián's target, C-opt-4)."""
        return self.game_to

    def game_and_deal(
        self,
        game_number: int,
        deal_in_game: int,
        players: int,
        options: Mapping[str, Any] | None = None,
    ) -> str:
        """Where a deal stands in its game, as this game counts (issue 56), with
        ``deal_in_game`` from 0: "Game 2 to 100, deal 3" in a game kept to a score
        (Tunk's, K10); "Game 2, deal 3 of 4" where a game is a round of deals, each
        player dealing once (L5); "Game 7, deal 1" at two players, each deal a game (L5),
        as the washbook numbers it."""
        numbers = {"game": game_number, "deal": deal_in_game + 1, "players": players}
        target = self.game_target(options)
        if target:
            return _("Game %(game)s to %(target)s, deal %(deal)s") % (numbers | {"target": target})
        if players > 2:
            return _("Game %(game)s, deal %(deal)s of %(players)s") % numbers
        return _("Game %(game)s, deal %(deal)s") % numbers

    def headline(self, kind: str, winner: str | None) -> str | None:
        """How a deal of this game ended, in words, where the table's general words
        ("X went out", "a tableau", ...) do not say it; None to use them."""
        return None

    # How the washbook books this game, where a line is more than a deal's winner
    # collecting from its losers (shown under the table's washbook).
    booking: str = ""

    # -- physical tables -----------------------------------------------------------------
    # How a physical deal ends, where it is more than one winner collecting the others'
    # pips (the rummy games: the result names the winner and each loser's hand, L24).
    endings: tuple[Ending, ...] = ()

    def ending(self, name: str) -> Ending:
        for e in self.endings:
            if e.name == name:
                return e
        known = ", ".join(e.name for e in self.endings) or "none: name the winner"
        raise InvalidActionError(f"{self.name} has no ending {name!r}; one of {known}")

    def ended_points(
        self, rules: Rules, players: int, ending: str, seat: int | None, counts: tuple[int, ...]
    ) -> tuple[int, ...]:
        """Each player's points for a physical deal of ``players`` that ended as
        ``ending`` (one of :attr:`endings`), ``seat`` the player it names, ``counts`` each
        player's count (empty when the ending asks none). They sum to zero; a result that
        cannot have happened raises :class:`InvalidActionError`."""
        raise InvalidActionError(f"{self.name}: a physical deal names its winner")

    def physical_pips(self, cards: Iterable[str]) -> int:
        """The pips of a hand left at a physical table (given as card codes): Foster's
        values (L24: joker 15, ace 11, courts 10, others their face) in every game."""
        return sum(Card.from_code(c).pips for c in cards)


# --- the registry ------------------------------------------------------------------------

# The modules that register today's games when they are imported: a new game is one
# module and one line here.
BUILT_IN = (
    "games.engine.rummy.variants",
    "games.engine.conquian.variants",
    "games.engine.tonk",
    "games.engine.tunk",
)


class _Registry(Mapping[str, Variant]):
    """The games by name, listed by their ``order`` (then as registered)."""

    def __init__(self) -> None:
        self._by_name: dict[str, Variant] = {}
        self._loaded = False
        self._loading = False
        self._lock = threading.RLock()

    def _load(self) -> None:
        """Import the built-in games once. Another thread waits until all are in: the
        first requests of a threaded server at once saw three games of six (the flag was
        set before the imports ran), and a form built then lacked the others' fields. A
        game's module that reads the registry while it is imported (the same thread)
        sees the games imported so far."""
        if self._loaded:
            return
        with self._lock:
            if self._loaded or self._loading:
                return
            self._loading = True
            try:
                for module in BUILT_IN:
                    importlib.import_module(module)
                self._loaded = True
            finally:
                self._loading = False

    def __getitem__(self, name: str) -> Variant:
        self._load()
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        self._load()
        # By each game's order, whatever order their modules happened to be imported in.
        return iter(sorted(self._by_name, key=lambda n: self._by_name[n].order))

    def __len__(self) -> int:
        self._load()
        return len(self._by_name)

    def get_variant(self, name: object) -> Variant | None:
        self._load()
        return self._by_name.get(name) if isinstance(name, str) else None

    def add(self, variant: Variant) -> Variant:
        if not isinstance(variant, Variant):
            raise TypeError(f"not a Variant: {variant!r}")
        if variant.name in self._by_name:
            raise ValueError(f"a variant named {variant.name!r} is registered already")
        if not (variant.players.low <= variant.seats.low <= variant.seats.high
                <= variant.players.high):  # fmt: skip
            raise ValueError(f"{variant.name}: a club table seats players the engine can deal for")
        self._by_name[variant.name] = variant
        return variant

    def remove(self, name: str) -> None:
        self._by_name.pop(name, None)


VARIANTS = _Registry()


def register(variant: Variant) -> Variant:
    """Add a game to :data:`VARIANTS` (a built-in module calls this when imported)."""
    return VARIANTS.add(variant)


def find_variant(name: object) -> Variant:
    """The game called ``name``; :class:`InvalidActionError` naming the known ones."""
    found = VARIANTS.get_variant(name)
    if found is None:
        raise InvalidActionError(f"unknown variant {name!r}; one of {', '.join(VARIANTS)}")
    return found


def first_variant() -> Variant:
    """The game a new session, table or command takes unless told: the first in the
    registry's order (Foster's Cooncan)."""
    return VARIANTS[next(iter(VARIANTS))]


@contextmanager
def registered(variant: Variant) -> Iterator[Variant]:
    """Register ``variant`` for the length of a ``with`` block (a test's fixture)."""
    VARIANTS._load()
    register(variant)
    try:
        yield variant
    finally:
        VARIANTS.remove(variant.name)
