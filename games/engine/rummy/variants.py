"""Foster's Cooncan for four to seven players, for three, and Colonel: the variant
objects of the rummy family (laws, options, capabilities), each registered. Their deal is
:class:`~.deal.RummyDeal`, which imports nothing of this module."""

from __future__ import annotations

import random
from abc import abstractmethod
from collections import Counter

from ..cards import Card, PackKind, make_pack, shuffle_seeded
from ..combinations import CARDS, FULL_ORDER, SeqOrder, cids_of
from ..errors import InvalidActionError
from ..i18n import gettext_noop
from ..rules import Rules
from ..variant import (
    Capabilities,
    DealStart,
    Law,
    OptionSpec,
    PlayerRange,
    Variant,
    cut_option,
    register,
)
from .deal import RummyDeal
from .moves import RUMMY_ACTIONS
from .parts import Table, table_for

# --- the games: Foster's Cooncan for four to seven, for three, and Colonel -----------------


class RummyVariant(Variant):
    """A game played by :class:`RummyDeal`, which reads it as a :class:`Table`."""

    deal_class = RummyDeal

    actions = RUMMY_ACTIONS

    @abstractmethod
    def table(self, rules: Rules) -> Table: ...

    def capabilities(self, rules: Rules) -> Capabilities:
        t = self.table(rules)
        return Capabilities(
            wild_cards=t.wild != "none",
            wild=t.wild,
            low_aces=t.pips == "colonel",
            double_pack=t.pack in (PackKind.DOUBLE_WITH_JOKERS, PackKind.DOUBLE_NO_JOKERS),
            exposed_stock=t.stock == "exposed",
            challenge=t.challenge,
            take_back=True,
        )

    def pack(self, rules: Rules) -> list[Card]:
        return make_pack(table_for(rules).pack)

    def hand_size(self, rules: Rules, players: int) -> int:
        return self.table(rules).hand_size

    def deal(self, rules: Rules, players: int, dealer: int, start: DealStart) -> RummyDeal:
        start.only(self.name)
        seed, pack = start.seed, start.pack
        if pack is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**63)
            # The pack's card ids shuffled as its cards would be (the same permutation).
            ids = shuffle_seeded(list(_pack_ids(table_for(rules).pack)), seed)
            return RummyDeal(rules, players, dealer, [CARDS[i] for i in ids], seed, ids)
        else:
            cards = list(pack)
            if not all(isinstance(c, Card) for c in cards) or Counter(cards) != Counter(
                self.pack(rules)
            ):
                raise InvalidActionError(f"the pack is not a full {rules.variant} pack")
        return RummyDeal(rules, players, dealer, cards, seed)


def _pack_ids(kind: PackKind) -> list[int]:
    """The card ids of a fresh pack of ``kind``, in :func:`make_pack`'s order."""
    ids = _PACK_IDS.get(kind)
    if ids is None:
        ids = _PACK_IDS[kind] = cids_of(make_pack(kind))
    return ids


_PACK_IDS: dict[PackKind, list[int]] = {}

_SPLASH = OptionSpec(
    "splash", (0, 25, 50), 0,
    gettext_noop("bonus from each other player to a player who lays out a whole hand at once"),
    gettext_noop("book p.11"), gettext_noop("Splash bonus"), ((0, gettext_noop("none")), (25, gettext_noop("25 points")), (50, gettext_noop("50 points"))),
)  # fmt: skip
_RATTING = OptionSpec(
    "ratting", ("free", "none", "six", "penalty30"), "free",
    gettext_noop("showing down part of a hand early: free (Foster); none (all at once); a first show "
    "of at least six cards; or free but a ratter who does not win pays 30 more, unless "
    "someone else had ratted first"),
    gettext_noop("Dalton"), gettext_noop("Ratting"),
    (("free", gettext_noop("free (Foster)")), ("none", gettext_noop("none: all at once")),
     ("six", gettext_noop("a first show of six cards or more")),
     ("penalty30", gettext_noop("free, but 30 more if the ratter does not win"))),
)  # fmt: skip
_MAX_TURNOVERS = OptionSpec(
    "max_turnovers", (100, 10, 0), 100,
    gettext_noop("club safety cap, not from the sources: the deal is abandoned (nothing paid) when the "
    "pack would be made up from the stock more than this many times (0: no cap); the "
    "default never triggers in normal play"),
    gettext_noop("club; L25 sets no limit"), gettext_noop("Most turnovers of the stock"), ((0, gettext_noop("no cap")),),
)  # fmt: skip


class Foster(RummyVariant):
    name = "foster"
    order = 1
    display_name = gettext_noop("Cooncan")
    description = gettext_noop("four to seven players, double pack")
    players = PlayerRange(2, 7, 5)
    seats = PlayerRange(4, 7, 5)
    options = (
        _SPLASH,
        _RATTING,
        OptionSpec(
            "jokers",
            ("jokers", "spade-twos"),
            "jokers",
            gettext_noop(
                "two jokers in the double pack, or no jokers and the two 2S act as jokers"
            ),
            gettext_noop("L1, Dalton"),
            gettext_noop("Jokers"),
            (
                ("jokers", gettext_noop("two jokers")),
                ("spade-twos", gettext_noop("the two deuces of spades")),
            ),
        ),  # fmt: skip
        _MAX_TURNOVERS,
    )
    summary = gettext_noop(
        "Double pack and two jokers, ten cards each, draw from pack or stock, lay out, "
        "add to anyone's combinations, discard; first out collects the others' pips."
    )
    laws = (
        Law("L1", gettext_noop("Two 52-card packs shuffled together with two jokers: 106 cards.")),
        Law("L2", gettext_noop("Cutting: king high down to the two, then the ace; the joker is lowest.")),
        Law("L5", gettext_noop("A game is one round of deals: every player deals once.")),
        Law("L7–L8", gettext_noop("The dealer gives ten cards each, one at a time from the dealer's left; the next "
                     "card is turned face up to start the stock; the rest is the pack.")),
        Law("L11", gettext_noop("In turn from the dealer's left, each player draws the top card of the "
                   "pack (unseen) or the top card of the stock.")),
        Law("L15", gettext_noop("After drawing a player may lay out sequences (three or more in suit and order) "
                   "and sets (three or more of a rank), and add cards to any combination on "
                   "the table, their own or another's. Then they discard one card on the stock.")),
        Law("L16", gettext_noop("The ace is below the two or above the king, never round the corner.")),
        Law("L17", gettext_noop("A joker may stand for any card; the player says which when laying it out.")),
        Law("L18", gettext_noop("A joker at an open end of a sequence may be moved once, by any player in "
                   "their turn, to the other end, if they then play a card that fits. A moved "
                   "joker lies crossways and never moves again; a joker inside a sequence or "
                   "in a set never moves.")),
        Law("L19", gettext_noop("Nobody must take the stock card, but nobody can refuse a card another "
                   "player adds to their combination.")),
        Law("L21–L22", gettext_noop("The first player rid of all their cards wins the deal; play stops at "
                       "once. They may go out by laying out their last cards without a discard.")),
        Law("L23–L24", gettext_noop("The others show their hands and each pays the winner their pips: joker "
                       "15, ace 11, court cards 10, others their face value.")),
        Law("L25", gettext_noop("When the pack runs out, the stock is turned down and becomes the pack.")),
    )  # fmt: skip

    def table(self, rules: Rules) -> Table:
        twos = rules.opt("jokers") == "spade-twos"
        return Table(
            self.name, 10, PackKind.DOUBLE_NO_JOKERS if twos else PackKind.DOUBLE_WITH_JOKERS,
            "spade-twos" if twos else "jokers", "buried", "foster", True, False,
            int(rules.opt("splash")), str(rules.opt("ratting")), int(rules.opt("max_turnovers")),
        )  # fmt: skip

    def cutting_pack(self, rules: Rules) -> list[str]:
        """L2 cuts with the jokers (the lowest cards) whatever the jokers option deals."""
        return [c.code for c in make_pack(PackKind.DOUBLE_WITH_JOKERS)]


class FosterThree(RummyVariant):
    name = "foster-three"
    order = 2
    display_name = gettext_noop("Cooncan for three")
    description = gettext_noop("three players, one pack")
    players = PlayerRange(3, 3, 3)
    seats = PlayerRange(3, 3, 3)
    options = (
        OptionSpec("joker", (False, True), False, gettext_noop("one joker added to the 52-card pack"),
                   gettext_noop("3-hand law 1"), gettext_noop("A joker")),
        OptionSpec("stock", ("buried", "exposed"), "buried",
                   gettext_noop("each discard covers the last, or every discard stays exposed and the "
                   "drawer may take any one of them"), gettext_noop("book p.36"), gettext_noop("Stock")),
        _SPLASH,
        _RATTING,
        _MAX_TURNOVERS,
    )  # fmt: skip
    summary = gettext_noop(
        "One pack (with or without a joker), seven cards each, otherwise as for five."
    )
    laws = (
        Law(gettext_noop("3-hand law 1"), gettext_noop("One 52-card pack, with or without one joker; seven cards each.")),
        Law(gettext_noop("book p.36"), gettext_noop("The stock is either buried (each discard covers the last) or exposed "
                         "(every discard stays in view and the drawer may take any one).")),
        Law("L11–L25", gettext_noop("Otherwise as for four or five players: draw, lay out, add, discard; "
                       "the joker moves once (L18); first out collects the others' pips.")),
    )  # fmt: skip

    def table(self, rules: Rules) -> Table:
        joker = rules.opt("joker") is True
        return Table(
            self.name, 7, PackKind.SINGLE_WITH_JOKER if joker else PackKind.SINGLE,
            "jokers" if joker else "none", str(rules.opt("stock")), "foster", True, False,
            int(rules.opt("splash")), str(rules.opt("ratting")), int(rules.opt("max_turnovers")),
        )  # fmt: skip

    def cutting_pack(self, rules: Rules) -> list[str]:
        """The pack the table deals from, its joker (the lowest card, L2) if it has one."""
        return [c.code for c in self.pack(rules)]


class Colonel(RummyVariant):
    name = "colonel"
    order = 4
    display_name = gettext_noop("Colonel")
    description = gettext_noop("two players, one pack")
    players = PlayerRange(2, 2, 2)
    seats = PlayerRange(2, 2, 2)
    cut_law = "CL-1"
    options = (
        cut_option(cut_law, gettext_noop("L2-L3; CL-1, seed 003"), gettext_noop("the lowest deals, aces low"),
                   gettext_noop("for seats and the first deal the highest cut chooses a seat and deals "
                   "(L2-L3), or the lowest (CL-1)")),
        OptionSpec("pack", ("full", "spanish", "no-courts"), "full",
                   gettext_noop("the full 52 (Hoyle), or a 40-card pack (CL-opt-1): the Spanish, A-7 "
                   "sota caballo rey, which is also the French pack without its 8, 9 and 10, "
                   "the jack following the 7 in a sequence; or the French without courts, "
                   "A-10. The ace high follows the pack's top card (CLO1)"),
                   gettext_noop("CL-opt-1, seed 003"), gettext_noop("Pack"),
                   (("full", gettext_noop("the full 52")), ("spanish", gettext_noop("40: A–7 J Q K (Spanish)")),
                    ("no-courts", gettext_noop("40: A–10, no courts")))),
    )  # fmt: skip
    summary = gettext_noop(
        "The full pack (or a 40-card one), ten each, lay off on either side, challenge; "
        "the lower hand wins a challenge or an exhausted pack."
    )
    laws = (
        Law(gettext_noop("encyclopedia"), gettext_noop("Full 52-card pack, ten each, the next card turned up.")),
        Law(gettext_noop("encyclopedia"), gettext_noop("Draw the turn-up or the top of the pack, meld, lay off on either "
                            "side's combinations, discard. Out scores the other's pips.")),
        Law(gettext_noop("encyclopedia"), gettext_noop("Challenge: if accepted, the lower hand wins the other's pips; if "
                            "the pack runs out, the lower hand wins the difference.")),
        Law(gettext_noop("CL-1 (seed 003)"), gettext_noop("Ten each, one at a time; the next card turned up starts the "
                               "stock. Runs of three or more in suit, the ace high or low, never "
                               "round the corner. Going out may end with a discard.")),
        Law(gettext_noop("CL-opt-1 (seed 003)"), gettext_noop("A 40-card pack: the Spanish (A-7, sota, caballo, rey; or the "
                                   "French without its 8, 9 and 10), the jack following the 7 "
                                   "(6 7 J is a run), or the French without courts (A-10).")),
        Law("CLO1", gettext_noop("Ours, the source being silent: in a 40-card pack the ace is high after "
                    "the pack's top card (Q K A, or 9 10 A), as Q K A in the full pack; still "
                    "never round the corner. Aces count 1 and courts 10 in every pack (CO3).")),
    )  # fmt: skip

    def table(self, rules: Rules) -> Table:
        kind, order = _COLONEL_PACKS[str(rules.opt("pack"))]
        return Table(
            self.name, 10, kind, "none", "buried", "colonel", False, True, 0, "free", 0, order
        )  # fmt: skip


# CL-opt-1: each pack Colonel may be dealt from, and its sequence order
_COLONEL_PACKS = {
    "full": (PackKind.SINGLE, FULL_ORDER),
    "spanish": (PackKind.FORTY_SPANISH, SeqOrder((1, 2, 3, 4, 5, 6, 7, 11, 12, 13))),
    "no-courts": (PackKind.FORTY_FOSTER, SeqOrder(tuple(range(1, 11)))),
}

FOSTER = register(Foster())
FOSTER_THREE = register(FosterThree())
COLONEL = register(Colonel())
