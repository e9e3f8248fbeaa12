"""Evenings: opening one, who arrives and leaves, the secretary's console, closing and
cancelling. Its views use the club's services, forms and models, and the shared page
helpers (``club.web``)."""
