"""The club's choice of game, read from the engine's registry (callables: a new game needs no migration)."""

from __future__ import annotations

from django.utils.translation import gettext

from games.engine.variant import VARIANTS, first_variant


def variant_choices() -> list[tuple[str, str]]:
    """The club's choice of game: every game of the engine's registry
    (``games.engine.variant``), by its club label. A callable, so a new game needs no
    migration."""
    return [(name, said_label(name)) for name in VARIANTS]


def said_label(variant: str) -> str:
    """A game's club label in the reader's language (issue 82): "Conquián: dos jugadores,
    cuarenta cartas"; the engine's words are English, marked for the catalogs."""
    v = VARIANTS[variant]
    return f"{gettext(v.display_name)}: {gettext(v.description)}"


def default_variant() -> str:
    """The game a session or table takes unless told: the registry's first."""
    return first_variant().name


def variant_seats(variant: str) -> tuple[int, int]:
    """(fewest, most) players a club table of ``variant`` seats; KeyError for no game."""
    seats = VARIANTS[variant].seats
    return seats.low, seats.high


def default_size(variant: str) -> int:
    """How many a club table of ``variant`` seats unless told; KeyError for no game."""
    return VARIANTS[variant].seats.default
