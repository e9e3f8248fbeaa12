"""The secretary's office: the club's house rules and the audit log. ``views``, ``forms``
(a set of house rules, and the option fields every form choosing a game's rules shares)
and ``audit`` (writing and reading the log). They use the club's services and
``club.pages.web``."""
