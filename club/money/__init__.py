"""Money: settlements, payments, refunds and reversals, the standings. ``views``, ``forms``
and ``settlement`` (who pays whom: the fewest transfers that clear the balances). They
use the ledger (``club.services.ledger``), the members' pages and ``club.pages.web``."""
