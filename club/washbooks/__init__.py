"""Washbooks: a table's and an evening's lines, their CSV, the evening on paper,
corrections. ``views``, ``forms`` (a line's correction) and ``books`` (the washbooks as
rows, CSV and print). They use the club's services (``washbook``), the tables' result
form and ``club.pages.web``."""
