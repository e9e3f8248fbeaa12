"""Members: the list with balances, a member's page and statements. Its views use the
ledger, the washbooks' rules of what is staked, money's payment forms and ``club.pages.web``."""
