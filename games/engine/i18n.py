"""The engine's words marked for the catalogs (issue 82).

The engine speaks English and knows no language but its own: it imports nothing of
Django's. Its words that a page shows (a game's name and description, its options'
labels, help and values, its phases' questions) are marked with :func:`gettext_noop`,
the name Django's ``makemessages`` gathers, so that the catalogs hold them; the play
side says each in its reader's language (``games.play.said``). A log's sentences are
made in :mod:`.words`, which takes the reader's catalog.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """``message``, unchanged: marked for the catalogs, said in English here."""
    return message
