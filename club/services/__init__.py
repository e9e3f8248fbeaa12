"""The club's services: each club action is one function here that takes its locks,
writes the change and its audit entry, and sends its notice on commit; views and tasks
parse, call and render.

Callers import the module that defines a name (``from club.services.ledger import
balance_of``): this package re-exports nothing (tests/foundation/test_shape.py). The games
reach the club only through ``games/play/club_api.py``.
"""
