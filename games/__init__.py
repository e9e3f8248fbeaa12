"""Play: the rules engine (``games.engine``, the standard library only), the computer
players (``games.bots``, the engine only) and the web side of play (the table page,
practice, rules pages, the act transaction, live events), which may use the club's
services through ``games.play.club_api``."""
