"""The web side of play: a table's page and its actions, practice and the rules pages.

- :mod:`.views`: the table page, its state and club panel, and ``act`` (an action sent).
- :mod:`.pages`: practice against computer players and the rules pages.
- :mod:`.services`: the act transaction (the deal's row locked, the action checked by the
  engine, logged and saved), computer players' turns queued, deals started and loaded.
- :mod:`.intents`: what a player's taps mean as an engine action.
- :mod:`.presenters`: a view of a deal as the page shows it (cards, words, decisions).
- :mod:`.events`: a table's live stream (the server-sent refresh).
- :mod:`.club_api` and :mod:`.engine_api`: the one door each to the club and the engine.
- :mod:`.bench`: the benchmark's yardstick, mounted only where GAMES_BENCH is on.

It may import the engine (through :mod:`.engine_api` where it parses), the computer
players, the games app's models, and the club through :mod:`.club_api` (and the club's
streams and inputs). The club imports nothing of it: a table's deals are the games
app's models, and the club's URLs mount :mod:`games.urls`.
"""
