"""Tables: a table's page, the cut, seats and redraws, queues, substitutes, results from
real cards. ``views``, ``forms`` (forming a table, a physical result, a substitute) and
``cutting`` (the cut for seats and the first dealer, L3-L4). They use the club's services
and models, the office's option fields and ``club.pages.web``."""
