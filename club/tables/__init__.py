"""Tables: a table's page, the cut, seats and redraws, queues, substitutes, results from
real cards. Its views use the club's services, forms and models and ``club.web``."""
