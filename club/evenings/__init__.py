"""Evenings: opening one, who arrives and leaves, the secretary's console, closing and
cancelling. ``views`` and ``console`` (the pages), ``forms`` (opening, check-in, voiding a
deal, closing). They use the club's services and models, the other rooms' forms (a table
formed at the console, the money and option fields), and the shared page helpers
(``club.pages.web``)."""
