"""Tonk (seed 004; the digest's rules T1–T12, its options, our settled points TO1–TO14).

One package: the actions and their notation (:mod:`.actions`), spreads, hits and counts
(:mod:`.spreads`), the deal (:mod:`.deal`), what each player pays (:mod:`.scoring`),
and the game's entry in the registry (:class:`Tonk`, :data:`TONK`; its line in
``BUILT_IN``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card, PackKind, dealing_pack, make_pack
from ..errors import InvalidActionError
from ..i18n import gettext_noop
from ..rules import Rules
from ..spreads import count
from ..variant import (
    Capabilities,
    DealStart,
    Ending,
    Law,
    OptionSpec,
    PlayerRange,
    Variant,
    register,
)
from ..words import gettext as _
from .actions import TONK_ACTIONS
from .deal import TonkDeal, asks_everyone, hand_size
from .scoring import payments


class Tonk(Variant):
    name = "tonk"
    display_name = gettext_noop("Tonk")
    description = gettext_noop("two to five players, one pack")
    players = PlayerRange(2, 5, 2)
    seats = PlayerRange(2, 5, 4)
    order = 5
    play_style = "drop"
    deal_class = TonkDeal
    options = (
        OptionSpec(
            "five_card", (False, True), False,
            gettext_noop("five cards each, not seven; up to five players; Tonk on the deal with a hand "
            "counting 50 (every card a ten or a court)"),
            gettext_noop("T-opt-1"), gettext_noop("Five Card Tonk"),
        ),
        OptionSpec(
            "wait_rule", (False, True), False,
            gettext_noop("after laying a new spread a player may not drop in their next turn; each hit on "
            "their spreads while they wait adds a turn (TO8, TO14)"),
            gettext_noop("T-opt-2"), gettext_noop("Wait Rule"),
        ),
        OptionSpec(
            "deuces_wild", (False, True), False,
            gettext_noop("every two is wild in a spread, named when laid; a spread holds at least two "
            "natural cards; a two in hand counts 2"),
            gettext_noop("T-opt-3"), gettext_noop("Deuces Wild"),
        ),
    )  # fmt: skip
    legacy_options = (
        OptionSpec(
            "call_round", ("every", "courts"), "every",
            gettext_noop("who the call round asks: every player (TO5), or, in deals dealt before issue "
            "58, only the hands that could call"), gettext_noop("TO5"), gettext_noop("Call round"),
        ),
    )  # fmt: skip
    summary = gettext_noop(
        "Seven cards each from one pack. Draw from the pack or pluck the stock, spread sets "
        "and runs, hit any spread, discard. Go out, or drop when your count is lowest; a "
        "hand of courts may call Tonk on the deal."
    )
    laws = (
        Law("T1", gettext_noop("Two to four players (five in Five Card Tonk), each for themselves; one "
            "52-card pack, no joker; ranks K Q J 10 … 2 A, the ace lowest.")),
        Law("T2", gettext_noop("Seats are drawn for, highest choosing first; highest deals first, and "
            "the deal passes clockwise after every deal.")),
        Law("T3", gettext_noop("Seven cards each, singly, clockwise from the dealer's left; the rest is "
            "the pack, and its top card turned up starts the stock.")),
        Law("T4", gettext_noop("Before anyone's first turn a player whose dealt hand has no card below "
            "a jack may call Tonk. A lone call wins the deal unplayed, 2 from each other "
            "player; two or more calls draw the deal.")),
        Law("T5", gettext_noop("In turn from the dealer's left: drop (T9), or draw the top card of the "
            "pack or pluck the top card of the stock; spread and hit at will; discard one "
            "card onto the stock.")),
        Law("T6", gettext_noop("Spreads are sets and runs, laid face up before their maker; never "
            "compulsory.")),
        Law("T7", gettext_noop("Hitting: adding cards from the hand to any spread, one's own or "
            "another's.")),
        Law("T8", gettext_noop("Laying one's last card in a spread or a hit (Tonking out) wins 2 from "
            "each other player; emptying the hand by the discard wins 1 from each.")),
        Law("T9", gettext_noop("At the start of their turn, before drawing, a player may drop: all count "
            "their hands. Strictly lowest, the dropper wins 1 from each. Otherwise they are "
            "caught and pays 2 to each; a player strictly lower than the dropper also wins 1 from "
            "each player outside the lowest count.")),
        Law("T10", gettext_noop("With the pack empty, a player who does not want the top of the stock "
            "ends the deal; the lowest count wins 1 from each; a tie for lowest draws.")),
        Law("T11", gettext_noop("Counts: kings, queens, jacks and tens 10; two to nine their face; the "
            "ace 1 (TO1).")),
        Law("T12", gettext_noop("Game points only; the washbook books them at the evening's stake.")),
        Law("TO1", gettext_noop("The ace counts 1 and is low only: A 2 3, never Q K A.")),
        Law("TO2", gettext_noop("A set is three or four cards of a rank; a run three or more of a suit "
            "in order.")),
        Law("TO3", gettext_noop("Each award is paid by every other player; a caught dropper alone pays "
            "the 2s.")),
        Law("TO4", gettext_noop("A dropper caught on an equal count pays just the 2s; nobody wins.")),
        Law("TO5", gettext_noop("After the deal every player, in turn, calls Tonk or lets the call go; "
            "the calls are resolved together. At a club table the round is open to everyone "
            "at once for the same few seconds, a hand of courts calling with a button and "
            "every other hand simply letting the round close: so nothing on the table (whose "
            "turn, how long, which buttons) tells anyone who holds a hand that may call, and "
            "nobody clicks to pass a deal.")),
        Law("TO6", gettext_noop("A plucked card may not be discarded in the same turn (unless it is the "
            "last card in the hand). With the pack empty, a full round with no spread or "
            "hit ends the deal as in T10.")),
        Law("TO7", gettext_noop("A wild two is named when laid, keeps that name and never moves; a set "
            "never exceeds four cards.")),
        Law("TO8", gettext_noop("Wait Rule: after laying a new spread a player may not drop in their next "
            "turn; waits add up.")),
        Law("TO13", gettext_noop("With the pack empty the player to move may refuse the stock's top "
            "card, which ends the deal (T10).")),
        Law("TO14", gettext_noop("The Wait Rule counts the waiting player's own turns; a hit by another "
            "player on their spreads while they wait adds one turn.")),
    )  # fmt: skip
    actions = TONK_ACTIONS
    phases = {
        "call": gettext_noop("call Tonk on the deal, or let it go (a hand of courts, T4)"),
        "draw": gettext_noop("drop, or draw from the pack or pluck the top of the stock"),
        "play": gettext_noop("spread or hit (optional), then discard"),
    }

    def capabilities(self, rules: Rules) -> Capabilities:
        wild = bool(rules.opt("deuces_wild"))
        return Capabilities(
            wild_cards=wild, wild="deuces" if wild else "none", low_aces=True, drop=True,
            call_round=asks_everyone(rules),
        )  # fmt: skip

    def pack(self, rules: Rules) -> list[Card]:
        return make_pack(PackKind.SINGLE)

    def hand_size(self, rules: Rules, players: int) -> int:
        return hand_size(rules)

    def deal(self, rules: Rules, players: int, dealer: int, start: DealStart) -> TonkDeal:
        start.only(self.name, carry="nothing carries into a deal of Tonk")
        if players > 4 and not rules.opt("five_card"):
            raise InvalidActionError("Tonk is for two to four players; five play Five Card Tonk")
        pack, seed = dealing_pack(
            self.pack(rules), start.seed, start.pack, "a Tonk pack is the 52 cards"
        )
        return TonkDeal(rules, players, dealer, pack, seed)

    def physical_pips(self, cards: Iterable[str]) -> int:
        """A hand's count at a physical table: T11, the ace 1."""
        return count(Card.from_code(c) for c in cards)

    shown = "Hand counted (T9, T11)"
    worth = "Count"

    def headline(self, kind: str, winner: str | None) -> str | None:
        """Every end of a Tonk deal in words (T4, T8, T9, T10; TO4, TO12).

        >>> TONK.headline("caught", "Ann")
        'the dropper was caught: Ann had the lowest count (T9)'
        """
        n = {"name": winner}
        if kind == "caught":
            return (
                _("the dropper was caught: %(name)s had the lowest count (T9)") % n
                if winner
                else _(
                    "the dropper was caught: their count was not the lowest, so they pay "
                    "2 to each (T9, TO4)"
                )
            )
        said = {
            "tonk": _("%(name)s called Tonk on the deal and wins it unplayed (T4)"),
            "out": _("%(name)s Tonked out (T8)"),
            "discard-out": _("%(name)s went out by the discard (T8)"),
            "drop": _("%(name)s dropped with the lowest count (T9)"),
            "exhausted": _("the pack ran out: %(name)s had the lowest count (T10)"),
        }
        if kind in said:
            return said[kind] % n
        if kind == "drawn":
            return _(
                "a drawn deal, nothing paid: two or more called Tonk on the deal, or "
                "the lowest counts tied (T4, T10)"
            )
        return None

    endings = (
        Ending("tonk", "Tonk on the deal: one player called", "T4", seat="the caller"),
        Ending("drawn", "Drawn: two or more called Tonk on the deal", "T4"),
        Ending("out", "Tonked out: the last card laid in a spread or a hit", "T8",
               seat="who went out"),
        Ending("discard-out", "Out by the discard", "T8", seat="who went out"),
        Ending("drop", "A drop: every hand counted", "T9", seat="the dropper", counts=True),
        Ending("exhausted", "The pack ran out: every hand counted", "T10", counts=True),
    )  # fmt: skip

    def ended_points(
        self, rules: Rules, players: int, ending: str, seat: int | None, counts: tuple[int, ...]
    ) -> tuple[int, ...]:
        """A physical deal's points (TO3), refusing what cannot have happened.

        >>> seven = Rules("tonk", (("five_card", False),))
        >>> TONK.ended_points(seven, 3, "drop", 0, (9, 13, 5))
        (-5, 1, 4)
        >>> TONK.ended_points(seven, 2, "drawn", None, ())
        Traceback (most recent call last):
        ...
        games.engine.errors.InvalidActionError: two Tonk calls on the deal need Five Card Tonk: twelve courts cannot make two hands of seven (TO9)
        """
        end = self.ending(ending)
        if players not in self.seats:
            raise InvalidActionError(f"Tonk is played by {self.seats} players, not {players}")
        if end.seat and (seat is None or not 0 <= seat < players):
            raise InvalidActionError(f"name {end.seat}")
        if not end.seat:
            seat = None
        if ending == "drawn" and not rules.opt("five_card"):
            raise InvalidActionError(
                "two Tonk calls on the deal need Five Card Tonk: twelve courts cannot make "
                "two hands of seven (TO9)"
            )
        if end.counts:
            if len(counts) != players:
                raise InvalidActionError(f"give each of the {players} players' counts")
            cards = hand_size(rules)
            most = 10 * cards  # T11: a hand of courts and tens; none holds more (T5)
            for c in counts:
                if not 1 <= c <= most:
                    raise InvalidActionError(
                        f"a count of {c} cannot be: a hand left holds 1 to {cards} cards, "
                        f"counting 1 to {most} (T11)"
                    )
        else:
            counts = ()
        pay, _winner, _kind = payments(ending, seat, counts, players)
        return tuple(pay)


#: The game's entry in the registry (its line in ``BUILT_IN`` imports this package).
TONK = register(Tonk())
