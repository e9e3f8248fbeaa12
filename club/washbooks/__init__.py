"""Washbooks: a table's and an evening's lines, their CSV, the evening on paper,
corrections. Its views use the club's services (``washbook``), ``club.books`` and
``club.web``."""
