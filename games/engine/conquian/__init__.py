"""Two-player Conquián (Foster 1913, "Description of the game for two players" and the
special laws for two players; options from the encyclopedia and the modern how-to).

Laws are cited as "L21 (two players)" for Foster's special laws for two, numbered like
the full code (L1 pack, L5 each deal a game, L8 deal, L9-L10 irregular deals and hands,
L11 touching the pack, L12 cards turned are never taken into the hand, L21 eleven down
and the tableau); "L15", "L16", "L19" are the general laws that still apply (laying
out, the ace, forcing); "book p.NN" is the page of the two-player description.

How a deal runs (see ``../shared/RULES.md``, Variant 3):

- Pack (L1 (two players)): 40 cards, A..10 of each suit, sequences A..10, the ace low
  only; or (option ``pack="spanish"``) A..7 J Q K with J following 7, so 6-7-J and J-Q-K
  are sequences and K-A-2 never is. No joker.
- Deal (L8 (two players)): ten each, two at a time, the pone first: with the pack given
  top first, the pone gets cards 1-2, 5-6, ..., the dealer 3-4, 7-8, ... With
  ``upcard=True`` the 21st card is turned up on the pack and the pone has the first say
  to it (book p.51); with ``upcard=False`` the pone begins by turning the top card.
- Card trade (option ``trade=True``, how-to): before anything else each player passes
  one card face down, the pone choosing first; the cards change hands when both have
  chosen. The upcard, when there is one, is already face up during the trade.
- The say (book p.51-52, L12 (two players)): the card in play is never taken into the
  hand. The player with the say ``use``-s it (adds it to one of his own combinations, or
  lays it down as a new combination with cards from his hand and/or borrowed cards),
  ``force``-s it onto an adversary's combination it fits, or ``pass``-es it. A card
  turned from the pack is said to first by the player who turned it (the pone, for the
  upcard), then by the other; a discard is said to only by the discarder's adversary.
  The second refusal turns the card down (dead for the deal) and the refuser ``turn``-s
  the next card and has the first say to it (L11 (two players): turning is a separate
  action, the card cannot be reclaimed once he turns). If the pack is empty then, the
  deal is a tableau.
- After using a card, or being forced, the player (book p.50, p.53-54, how-to) may
  ``meld`` more from his hand (a new combination of hand cards, with borrowing; or one
  hand card added to his own combination), and must then ``discard`` a card face up or
  ``force`` a hand card onto an adversary's combination it fits (book p.52: he may force
  "a card that he discards"). Hand plus laid-out cards stay at ten. (The discard's action
  type is ``throw``: ``discard`` is registered by the four/five-hand game.)
- Forcing (L19, book p.52-53): a forced player must accept the card and discard in its
  place. Interpretation: whoever has the say to a face-up card may force it, so a player
  who passes a card that fits his own combination may be forced with it by the other,
  and a discard that fits the discarder's own combination may be forced back on him.
  Forcing needs a combination the card fits (book p.56: "if he has not laid down
  anything, it is impossible to force him").
- Borrowing (book p.53-54): only within the placing player's own combinations, never
  the adversary's, never back into the hand. Interpretation: borrowed cards go into the
  new combination being laid down (``use ... borrow``, ``meld ... borrow``); every
  combination borrowed from must still be complete: a set keeps three, a sequence keeps
  one or more pieces of three or more (an end card of a four, the middle of a seven,
  never the middle of a six), and is never emptied. A meld contains at least one hand
  card (pure rearranging lays nothing down, and could loop forever). A ``use`` needs
  two more cards for a new combination, from the hand or borrowed in any mix (Foster's
  8S + 9S from the hand + 10S borrowed); with an empty hand, borrowing alone can still
  take the eleventh card. A combination split by borrowing keeps its id for the lower
  piece; the upper piece gets a new id.
- Winning (L21 (two players), book p.48, p.54-55): eleven cards down wins at once; so
  the last card must be used, never discarded. A player forced while holding no card has
  eleven down and wins; one forced while holding cards must discard (Foster's forced 7H
  example), unless he melds his last cards first.
- Tableau (L21 (two players), book p.55): pack exhausted with nobody out. Nothing is
  paid; with ``carry=True`` Outcome.carried = carry_in + 1 goes to the next deal's
  winner (pass it as ``carry_in``); with ``carry=False`` nothing carries (and carry_in
  must be 0). :func:`next_dealer`: the deal alternates (how-to); after a tableau the
  tableau's non-dealer deals (book p.55), which is the same seat.
- Scoring (book p.55): ``game-points``: the winner gets 1 + carry_in from the loser.
  ``pips``: the loser pays the pip value of his hand (Foster's pack A 1 .. 10 face value;
  Spanish pack A 1 .. 7 face value, J Q K 10), times (1 + carry_in): under pips a carried
  tableau, having no pips of its own, is read as "this deal counts again" for each tableau
  carried in. The carried part is listed as a "tableau-carry" adjustment on both seats.
- Not modelled (online play makes them impossible): faced cards / exposed cards in the
  deal (L9), wrong number of cards (L10), more than one card faced (L12).

The package holds the deal (:mod:`.deal`), the variant object the registry loads
(:mod:`.variants`), a seat's view (:mod:`.views`), the actions (:mod:`.actions`), the
combinations on small integers (:mod:`.melds`) and why an action is refused
(:mod:`.why`). It may import the engine's shared core (cards, actions, records, words,
snapshot, rules, variant); nothing outside the engine, and no other game's package.
"""
