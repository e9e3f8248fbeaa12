"""The laws of each variant, in our own words, with their numbers (Foster 1913 and others).

Options come from the engine's variant table (``games.engine.rules.VARIANTS``), so the
rules pages list exactly the options a table can be given.
"""

from __future__ import annotations

LAWS: dict[str, list[tuple[str, str]]] = {
    "foster": [
        ("L1", "Two 52-card packs shuffled together with two jokers: 106 cards."),
        ("L2", "Cutting: king high down to the two, then the ace; the joker is lowest."),
        ("L5", "A game is one round of deals: every player deals once."),
        ("L7–L8", "The dealer gives ten cards each, one at a time from his left; the next card "
                  "is turned face up to start the stock; the rest is the pack."),
        ("L11", "In turn from the dealer's left, each player draws the top card of the pack "
                "(unseen) or the top card of the stock."),
        ("L15", "After drawing he may lay out sequences (three or more in suit and order) and "
                "sets (three or more of a rank), and add cards to any combination on the table, "
                "his own or another's. Then he discards one card on the stock."),
        ("L16", "The ace is below the two or above the king, never round the corner."),
        ("L17", "A joker may stand for any card; the player says which when he lays it out."),
        ("L18", "A joker at an open end of a sequence may be moved once, by any player in his "
                "turn, to the other end, if he then plays a card that fits. A moved joker lies "
                "crossways and never moves again; a joker inside a sequence or in a set never "
                "moves."),
        ("L19", "Nobody must take the stock card, but nobody can refuse a card another player "
                "adds to his combination."),
        ("L21–L22", "The first player rid of all his cards wins the deal; play stops at once. "
                    "He may go out by laying out his last cards without a discard."),
        ("L23–L24", "The others show their hands and each pays the winner his pips: joker 15, "
                    "ace 11, court cards 10, others their face value."),
        ("L25", "When the pack runs out, the stock is turned down and becomes the pack."),
    ],
    "foster-three": [
        ("3-hand law 1", "One 52-card pack, with or without one joker; seven cards each."),
        ("book p.36", "The stock is either buried (each discard covers the last) or exposed "
                      "(every discard stays in view and the drawer may take any one)."),
        ("L11–L25", "Otherwise as for four or five players: draw, lay out, add, discard; the "
                    "joker moves once (L18); first out collects the others' pips."),
    ],
    "conquian": [
        ("L1 (two players)", "Forty cards: ace to ten of each suit (or the Spanish forty)."),
        ("L8 (two players)", "Ten cards each, two at a time, the pone first; the 21st card is "
                             "turned up and the pone has the first say to it."),
        ("L12 (two players)", "A turned card is never taken into the hand: the player with the "
                              "say uses it at once with cards from his hand, or adds it to one "
                              "of his own combinations, or passes it."),
        ("book p.51", "A card both players refuse is turned down; the second to refuse turns "
                      "up the next card and has the first say to it."),
        ("book p.50", "Using a card obliges a discard, to which the adversary has the say."),
        ("L19", "Forcing: a player may put the card in play on his adversary's combination it "
                "fits; the adversary must accept it and discard."),
        ("book p.54", "Borrowing: cards may move between a player's own combinations when every "
                      "combination left is still complete."),
        ("L21 (two players)", "Eleven cards down wins. If the pack runs out first the deal is a "
                              "tableau, and the next deal's winner scores it too."),
    ],
    "colonel": [
        ("encyclopedia", "Full 52-card pack, ten each, the next card turned up."),
        ("encyclopedia", "Draw the turn-up or the top of the pack, meld, lay off on either "
                         "side's combinations, discard. Out scores the other's pips."),
        ("encyclopedia", "Challenge: if accepted, the lower hand wins the other's pips; if the "
                         "pack runs out, the lower hand wins the difference."),
    ],
}  # fmt: skip
