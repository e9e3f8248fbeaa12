"""Two-player Conquián (Foster 1913, the two-hand laws; options from the other sources).

It holds the deal and the variant object (:mod:`.deal`), the actions (:mod:`.actions`),
the combinations on small integers (:mod:`.melds`) and why an action is refused
(:mod:`.why`). It may import the engine's shared core (cards, actions, records, words,
snapshot, rules, variant); nothing outside the engine, and no other game's package.
"""
