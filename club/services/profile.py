"""The club's own settings as its pages use them (issue 78): its name, time zone and
currency, chosen when it was started (`club.models.Club`), else the settings' defaults.

Read on every page, so kept in the process: the row is read at most once every
``KEEP`` seconds, and at once after it is saved in this process (a signal clears it). A
club with no row yet (before its start, or a test that makes none) reads the settings
themselves each time, so that a changed setting shows at once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

KEEP = 30.0  # seconds another process may show the settings before a start


@dataclass(frozen=True)
class Profile:
    name: str
    time_zone: str
    currency_symbol: str
    currency_places: int
    language: str = "en-gb"


_kept: tuple[float, Profile | None] | None = None  # (until, the row's profile or None)


def _from_settings() -> Profile:
    return Profile(
        name="Cooncan Club",
        time_zone=str(settings.TIME_ZONE),
        currency_symbol=str(getattr(settings, "CLUB_CURRENCY_SYMBOL", "£")),
        currency_places=int(getattr(settings, "CLUB_CURRENCY_PLACES", 2)),
        language=str(settings.LANGUAGE_CODE),
    )


def profile(*, read: bool = True) -> Profile:
    """The club's profile; with ``read`` False (an async caller), never a query: the kept
    one, or the settings'."""
    global _kept
    now = time.monotonic()
    if _kept is not None and (_kept[0] > now or not read):
        return _kept[1] or _from_settings()
    if not read:
        return _from_settings()
    from club.models import Club

    row = Club.objects.filter(pk=1, started_at__isnull=False).first()
    got = (
        Profile(
            row.name, row.time_zone, row.currency_symbol, int(row.currency_places), row.language
        )
        if row is not None
        else None
    )
    _kept = (now + KEEP, got)
    return got or _from_settings()


def forget(*_: Any, **__: Any) -> None:
    """The row changed (or a test starts): read it again at the next use."""
    global _kept
    _kept = None


def assume_no_club() -> None:
    """For tests: no club row, without a query (the settings answer until one is saved)."""
    global _kept
    _kept = (float("inf"), None)
