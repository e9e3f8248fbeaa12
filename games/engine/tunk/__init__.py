"""Tunk (seed 004; the digest's rules K1-K11, our settled points KO1-KO11).

One package: the actions and their notation (:mod:`.actions`), melds kept in the hand
and the last turn (:mod:`.melds`, on the spreads Tonk shares: :mod:`..spreads`), the
deal (:mod:`.deal`), the scores and payments (:mod:`.scoring`), the game of many deals
(:mod:`.game`), and the game's entry in the registry (:class:`Tunk`, :data:`TUNK`; its
line in ``BUILT_IN``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..cards import Card, PackKind, dealing_pack, make_pack
from ..errors import InvalidActionError
from ..i18n import gettext_noop
from ..rules import Rules
from ..spreads import count
from ..variant import Capabilities, DealStart, Ending, Law, PlayerRange, Variant, register
from ..words import gettext as _
from .actions import TUNK_ACTIONS
from .deal import HAND, LIMIT, TunkDeal, in_game
from .game import winners
from .scoring import OUT_AT, payments, penalties

if TYPE_CHECKING:
    from ..protocol import DealState


class Tunk(Variant):
    name = "tunk"
    display_name = gettext_noop("Tunk")
    description = gettext_noop("two to five players, twos wild, a game to 100")
    players = PlayerRange(2, 5, 3)
    seats = PlayerRange(2, 5, 4)
    order = 6
    play_style = "knock"
    deal_class = TunkDeal
    options = ()
    game_to = OUT_AT  # K10: out at 100
    game_law = "K10"
    game_caption = gettext_noop(
        "The game before this deal: penalty points, out at {out_at} (K9, K10)"
    )
    summary = gettext_noop(
        "Seven cards each from one pack, every two wild. Draw and discard, keeping your "
        "melds in hand; with five or less unmatched call Tunk, and every other player has "
        "a last turn. Unmatched cards are penalty points: at 100 you are out, and the last "
        "player left wins."
    )
    laws = (
        Law("K1", gettext_noop("Two to five players; one 52-card pack, kings high, aces low. Every two "
            "is wild and may stand for any card.")),
        Law("K2", gettext_noop("Seats and the first deal by a draw: the high card chooses and deals.")),
        Law("K3", gettext_noop("Seven cards each, singly, clockwise from the dealer's left; the rest is "
            "the pack, its top card turned up starts the stock. The dealer's left plays "
            "first.")),
        Law("K4", gettext_noop("Melds are sets and runs, kept in the hand, not put on the table.")),
        Law("K5", gettext_noop("A turn: draw the top card of the pack or of the stock, then discard any "
            "card; a card taken from the stock may not be discarded in the same turn.")),
        Law("K6", gettext_noop("Unmatched cards count: kings, queens, jacks and tens 10; two to nine "
            "their face (a two too, though wild); the ace 1 (KO1).")),
        Law("K7", gettext_noop("After drawing, before discarding, a player whose unmatched cards count "
            "five or less may call Tunk, showing their hand, melds apart from the rest.")),
        Law("K8", gettext_noop("Every other player then has a last turn: they lay down their melds and may "
            "lay off on the Tunker's melds (on nobody else's), but not at all if the Tunker "
            "had no unmatched card.")),
        Law("K9", gettext_noop("Each player adds their unmatched count to their score, the Tunker too; if "
            "any other player ends lower than the Tunker, the Tunker's points are doubled.")),
        Law("K10", gettext_noop("A player whose score reaches 100 at the end of a deal leaves the game; "
            "the last player left wins.")),
        Law("K11", gettext_noop("The break: when fewer cards remain in the pack than there are players, "
            "the deal is drawn and scores nothing.")),
        Law("KO2", gettext_noop("Melds: sets of three or four of a rank; runs of three or more of a suit "
            "in order; a two stands for any card, with no minimum of natural cards.")),
        Law("KO3", gettext_noop("The Tunker still discards; the five-point test is of the seven cards "
            "left.")),
        Law("KO4", gettext_noop("The last turn has no draw and no discard; it goes round from the "
            "Tunker's left.")),
        Law("KO5", gettext_noop("The engine groups each hand as its lowest count.")),
        Law("KO6", gettext_noop("The break is tested after each turn, counting the players still in; a "
            "drawn deal is void and the game goes on.")),
        Law("KO7", gettext_noop("The deal passes clockwise, skipping players who have left.")),
        Law("KO8", gettext_noop("If every player left reaches 100 in one deal, the lowest score wins; an "
            "exact tie shares the win.")),
        Law("KO9", gettext_noop("The Tunk call and its discard are one move.")),
        Law("KO10", gettext_noop("A wild two is named when shown and keeps that name; a two may be laid "
            "off as a wild card; a natural card may not go where a two stands for it.")),
    )  # fmt: skip
    actions = TUNK_ACTIONS
    phases = {
        "draw": gettext_noop("draw from the pack or take the top card of the stock"),
        "discard": gettext_noop("discard, or call Tunk with the discard (five or less unmatched)"),
    }

    def capabilities(self, rules: Rules) -> Capabilities:
        return Capabilities(wild_cards=True, wild="deuces", low_aces=True, knock=True)

    def pack(self, rules: Rules) -> list[Card]:
        return make_pack(PackKind.SINGLE)

    def hand_size(self, rules: Rules, players: int) -> int:
        return HAND

    def deal(self, rules: Rules, players: int, dealer: int, start: DealStart) -> TunkDeal:
        """A deal; ``start.scores_in``: the game's scores before it (K10: who is still
        in), none at a game's first deal."""
        if start.carry_in:
            raise InvalidActionError("nothing carries into a deal of Tunk (K11: a break is void)")
        pack, seed = dealing_pack(
            self.pack(rules), start.seed, start.pack, "a Tunk pack is the 52 cards"
        )
        return TunkDeal(rules, players, dealer, pack, seed, start.scores_in)

    def scores_after(self, state: DealState) -> tuple[int, ...]:
        """K9, K10: the scores with the deal's penalties added (a break adds none, KO6);
        empty once fewer than two players are left: the game is over (K10, KO8)."""
        after = _after(state)
        return after if len(in_game(after)) > 1 else ()

    def ends_game(self, state: DealState) -> bool | None:
        """K10, KO8: the game is over when fewer than two players are left in it."""
        return bool(self.game_winners(state))

    def game_winners(self, state: DealState) -> tuple[int, ...]:
        """K10, KO8: the last player left, or the lowest of those who reach 100 at once."""
        assert isinstance(state, TunkDeal)
        return winners(state.scores_in, _after(state)) if state.is_over() else ()

    def physical_pips(self, cards: Iterable[str]) -> int:
        """Unmatched cards at a physical table: K6, the ace 1."""
        return count(Card.from_code(c) for c in cards)

    shown = gettext_noop("Hand shown (K8, K9)")
    worth = gettext_noop("Unmatched")
    points_note = gettext_noop(
        "Unmatched: the count each player adds to their score in the game (K9; 100 puts "
        "them out, K10). Points: what the deal books in the washbook, each pair of players "
        "settling the difference of their counts, the Tunker's doubled when another ends "
        "lower (K9)."
    )
    booking = (
        "A game of Tunk is booked deal by deal, not at its end: in each deal every pair of "
        "players still in settles the difference of their penalty points (K9, the "
        "Tunker's doubled when another ends lower). A break (K11) is a tableau."
    )

    endings = (
        Ending("tunk", "Tunk: every player's unmatched count after the last turns", "K7",
               seat="the Tunker", counts=True),
        Ending("break", "The break: fewer cards in the pack than players (drawn)", "K11"),
    )  # fmt: skip

    def ended_points(
        self, rules: Rules, players: int, ending: str, seat: int | None, counts: tuple[int, ...]
    ) -> tuple[int, ...]:
        """A physical deal's points (K9, each pair settling the difference of their
        penalties), refusing what cannot have happened.

        >>> TUNK.ended_points(Rules("tunk", ()), 3, "tunk", 0, (4, 10, 2))
        (-4, -10, 14)
        >>> TUNK.ended_points(Rules("tunk", ()), 2, "tunk", 1, (0, 9))
        Traceback (most recent call last):
        ...
        games.engine.errors.InvalidActionError: the Tunker's count of 9 cannot be: Tunk is called with five or less unmatched (K7)
        """
        end = self.ending(ending)
        if players not in self.seats:
            raise InvalidActionError(f"Tunk is played by {self.seats} players, not {players}")
        if not end.counts:
            return (0,) * players  # K11: the break scores nothing
        if seat is None or not 0 <= seat < players:
            raise InvalidActionError(f"name {end.seat}")
        if len(counts) != players:
            raise InvalidActionError(f"give each of the {players} players' counts")
        most = 10 * HAND  # K6: seven tens and courts; a last turn draws nothing (KO4)
        for c in counts:
            if not 0 <= c <= most:
                raise InvalidActionError(
                    f"a count of {c} cannot be: seven cards count 0 to {most} unmatched (K6)"
                )
        if counts[seat] > LIMIT:
            raise InvalidActionError(
                f"the Tunker's count of {counts[seat]} cannot be: Tunk is called with five or "
                "less unmatched (K7)"
            )
        active = tuple(range(players))
        return payments(penalties(seat, counts, active), active)

    def headline(self, kind: str, winner: str | None) -> str | None:
        """Every end of a Tunk deal in words (K7, K9, K11).

        >>> TUNK.headline("tunk-doubled", "Ann")
        "Tunk was called, but Ann ended lower: the Tunker's points are doubled (K9)"
        """
        if kind == "tunk":
            return (
                _("Tunk was called: %(name)s has the lowest count (K7, K9)") % {"name": winner}
                if winner
                else _("Tunk was called: the lowest counts tied (K7, K9)")
            )
        if kind == "tunk-doubled":
            return (
                _("Tunk was called, but %(name)s ended lower: the Tunker's points are doubled (K9)")
                % {"name": winner}
                if winner
                else _(
                    "Tunk was called, but another player ended lower: the Tunker's points "
                    "are doubled (K9)"
                )
            )
        if kind == "break":
            return _(
                "the break: fewer cards in the pack than players, the deal is drawn and "
                "scores nothing (K11)"
            )
        return None


def _after(state: DealState) -> tuple[int, ...]:
    """K9: the game's scores with the deal's penalties added (as they were while it is
    played; a break adds none, KO6)."""
    assert isinstance(state, TunkDeal)
    out = state.outcome()
    if out is None:
        return state.scores_in
    return tuple(a + b for a, b in zip(state.scores_in, out.pips, strict=True))


#: The game's entry in the registry (its line in ``BUILT_IN`` imports this package).
TUNK = register(Tunk())

__all__ = ["TUNK", "Tunk", "TunkDeal"]
