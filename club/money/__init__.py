"""Money: settlements, payments, refunds and reversals, the standings. Its views use the
ledger (``club.services.ledger``), the members' pages and ``club.web``."""
