"""The rummy family: Foster's Cooncan for four to seven (L1-L25), for three, and Colonel.

It holds the deal (:mod:`.deal`, one class parametrised by a :class:`~.parts.Table`), its
actions (:mod:`.moves`), their fast enumeration (:mod:`.generate`) and slow check with
reasons (:mod:`.validate`), the settling (:mod:`.scoring`), a seat's view (:mod:`.views`)
and the variant objects the registry loads (:mod:`.variants`). It may import the engine's
shared core (``games.engine``'s cards, combinations, actions, records, words, snapshot,
rules, variant); nothing outside the engine, and no other game's package.
"""
