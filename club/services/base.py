"""What the club services share: the error type, the random source, members and logging."""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, ngettext

from club.infra.locale import reader_catalog
from club.models import ClubSession, Cut, CutBatch, Member, Table, TableEvent
from games.engine.variant import find_variant
from games.engine.words import speaking


class ClubError(ValueError):
    """A request the club's laws or books refuse. Views answer it with a 4xx, never a 500.

    ``field``: the form field the refusal is about, when there is one (a page shows the
    message beside it)."""

    def __init__(
        self, message: str, *, field: str | None = None, more: list[ClubError] | None = None
    ) -> None:
        super().__init__(message)
        self.field = field
        self.more = list(more or [])  # further refusals of the same request, each its own

    def each(self) -> list[ClubError]:
        """This refusal and the others found with it (a form shows them all at once)."""
        return [self, *self.more]

    @classmethod
    def all_of(cls, problems: list[ClubError]) -> ClubError:
        return cls(str(problems[0]), field=problems[0].field, more=problems[1:])


# Other apps tell the club whether play has happened at some tables (the games app: an
# online deal with an applied action), so that the club never imports them.
PLAY_CHECKS: list[Callable[[list[int]], bool]] = []


@dataclass(frozen=True, slots=True)
class DealProgress:
    """An online deal as the secretary's console shows it (no card, ever)."""

    game_number: int
    deal_in_game: int  # from 0, as the table counts
    to_move: int | None  # the seat position, None when nobody is to move
    actions: int  # applied so far
    finished: bool
    variant: str  # the deal's game and options: the table's may change between deals
    options: Any


def deal_line(names: dict[int, str], deal: DealProgress) -> str:
    """An online deal in play as the secretary's console says it, "Game 2, deal 3: Ann to
    play (14 moves)" (no card); ``names``: who plays each seat, by position. The console
    renders it (club/evenings/console.py) and a move's notice carries it (the games app's
    publish), so the two say the same: both from the deal's own game and options."""
    who = names.get(deal.to_move) if deal.to_move is not None else None
    with speaking(reader_catalog()):  # in the language of the request (issue 82)
        game = find_variant(deal.variant).game_and_deal(
            deal.game_number, deal.deal_in_game, len(names), deal.options
        )
    said = {"game": game, "who": who, "count": deal.actions}
    if who:
        return (
            ngettext(
                "%(game)s: %(who)s to play (%(count)s move)",
                "%(game)s: %(who)s to play (%(count)s moves)",
                deal.actions,
            )
            % said
        )
    return (
        ngettext(
            "%(game)s: in play (%(count)s move)",
            "%(game)s: in play (%(count)s moves)",
            deal.actions,
        )
        % said
    )


# Another app reports the latest online deal at each of the given tables: the games app
# registers its reader in its ``ready`` (the club never imports the games app).
DEAL_PROGRESS: list[Callable[[list[int]], dict[int, DealProgress]]] = []


# Another app stops play at tables the club closes (cancelled or voided): the games app
# ends the online deal in progress there, with the reason, so nobody plays on.
TABLE_STOPS: list[Callable[[list[int], str], None]] = []


def stop_play(table_ids: list[int], reason: str) -> None:
    for stop in TABLE_STOPS:
        stop(table_ids, reason)


# Another app deals a table's current deal again when the game it begins has not been
# played (the games app: the game's first deal, no action applied), for a seating the
# club changed between deals (a computer player seated in an empty seat, issue 56).
# ``FRESH_GAMES`` say whether it can; ``REDEALS`` do it, inside the club's transaction
# (the table is locked first: the lock order below).
FRESH_GAMES: list[Callable[[int], bool]] = []
REDEALS: list[Callable[[int], None]] = []


def fresh_game(table_id: int) -> bool:
    """Whether nothing has been played in the table's current game, so that its deal may
    be dealt again (False with no games app to ask)."""
    return bool(FRESH_GAMES) and all(check(table_id) for check in FRESH_GAMES)


def redeal(table_id: int) -> None:
    for deal_again in REDEALS:
        deal_again(table_id)


# Another app tells the players at these tables that their evening changed (closing):
# the games app refreshes their screens (the club panel says what happened).
TABLE_TELLERS: list[Callable[[list[int]], None]] = []


def tell_tables(session_id: int) -> None:
    """Tell the players at every table of the evening that it changed (after commit)."""
    ids = list(Table.objects.filter(session_id=session_id).values_list("pk", flat=True))
    for tell in TABLE_TELLERS:
        tell(ids)


def deal_progress(table_ids: list[int]) -> dict[int, DealProgress]:
    out: dict[int, DealProgress] = {}
    for reader in DEAL_PROGRESS:
        out.update(reader(table_ids))
    return out


# --- One lock order for the whole app ------------------------------------------------
#
# The evening (ClubSession), then its tables in id order, then each table's deal (the
# games app's Deal). Every service that changes more than one of them takes its row locks
# in that order, and re-reads what it checks from the locked rows (never from a row
# fetched before the lock: `select_for_update(of=("self",))` with `select_related` locks
# the table but hands back the evening as it was). A player's move (`games.play.services.act`)
# locks the table, then the deal, and never the evening; closing, voiding and cancelling
# lock the evening, then its tables, then stop their deals. Two paths that took the table
# and the deal in opposite orders deadlocked (issue 36); one order cannot.


def lock_session(session_id: int) -> ClubSession:
    """Lock the evening's row (first in the order) and return it as it is now."""
    session = ClubSession.objects.select_for_update().filter(pk=session_id).first()
    if session is None:
        raise ClubError(gettext("no such evening"))
    return session


def lock_tables(table_ids: Iterable[int]) -> list[Table]:
    """Lock these tables' rows in id order (second in the order), as they are now."""
    ids = sorted(set(table_ids))
    return list(Table.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def lock_session_tables(session_id: int) -> list[Table]:
    """Every table of the evening, locked in id order (the evening locked already)."""
    ids = Table.objects.filter(session_id=session_id).values_list("pk", flat=True)
    return lock_tables(ids)


def lock_table(table_id: int) -> tuple[ClubSession | None, Table]:
    """Lock a table with its evening, in the order: the evening first, then the table;
    both as they are now."""
    session_id = Table.objects.filter(pk=table_id).values_list("session_id", flat=True).first()
    session = lock_session(session_id) if session_id is not None else None
    tables = lock_tables([table_id])
    if not tables:
        raise ClubError(gettext("no such table"))
    return session, tables[0]


def rng() -> random.Random:
    """Cards for cutting are drawn with the system's randomness (tests patch this)."""
    return random.Random(secrets.randbits(64))


def and_list(names: list[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cat' (in the language being spoken)."""
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


# The books' words (the audit log's, the ledger's memos) are kept in one language, the
# club's software's own; a page says the same sentence in its reader's (issue 82).
BOOKS_LANGUAGE = "en-gb"


def said_twice(make: Callable[[], str]) -> tuple[str, str]:
    """One sentence made by ``make`` (with ``gettext``): (as the books keep it, as the
    page's reader reads it)."""
    with translation.override(BOOKS_LANGUAGE):
        books = make()
    return books, make()


def books_label(table: Table) -> str:
    """A table's label as the books keep it ("Table 3"), whoever is reading."""
    with translation.override(BOOKS_LANGUAGE):
        return table.label


def counted(n: int, word: str, many: str | None = None) -> str:
    """ "1 bot", "3 bots": a count with its noun, never "bot(s)"."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def log(table: Table, text: str) -> str:
    TableEvent.objects.create(table=table, text=text[:300])
    return text


def record_cut(
    *,
    purpose: str,
    session: ClubSession | None,
    table: Table | None,
    order: list[Member],
    draws: Iterable[tuple[Member, str, int]],
    note: str = "",
) -> CutBatch:
    batch = CutBatch.objects.create(
        session=session, table=table, purpose=purpose, note=note, result=[m.pk for m in order]
    )
    Cut.objects.bulk_create(
        [Cut(batch=batch, member=m, card=card, round=r) for m, card, r in draws]
    )
    return batch


# Who did something: a logged-in user, an anonymous visitor or nobody (a task, a command).
Actor = AbstractBaseUser | AnonymousUser | None


def recorded_user(by: Actor) -> AbstractBaseUser | None:
    """The user to record as having done something: a logged-in one, else nobody."""
    return by if by is not None and by.is_authenticated else None


def member_for(user: AbstractBaseUser | AnonymousUser) -> Member | None:
    """The user's member profile, or None (anonymous users, staff without a profile)."""
    if not user.is_authenticated:
        return None
    try:
        return user.member  # type: ignore[attr-defined,no-any-return]
    except Member.DoesNotExist:
        return None


def create_member(
    username: str,
    display_name: str,
    *,
    password: str | None = None,
    is_staff: bool = False,
    is_bot: bool = False,
    is_guest: bool = False,
) -> Member:
    """A user and his member profile, in one transaction. The computer players' names
    ("Bot Alfa", ...) are theirs alone."""
    display_name = shown_name(display_name, field="new_name")
    if not is_bot and reserved_name(display_name):
        raise ClubError(
            gettext("%(display_name)s is a computer player's name")
            % {"display_name": display_name},
            field="new_name",
        )
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password)
        if password is None:
            user.set_unusable_password()
        user.is_staff = is_staff
        user.save()
        if is_staff:  # the secretary's role: the admin's permissions for the club's models
            from club.pages.roles import secretary_group

            user.groups.add(secretary_group())
        return Member.objects.create(
            user=user, display_name=display_name, is_bot=is_bot, is_guest=is_guest
        )


# Unicode's control (Cc), format (Cf: the bidi overrides, zero-width spaces and joiners),
# private-use, surrogate and unassigned characters, and the line and paragraph separators.
HIDDEN = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def shown_name(text: str, *, field: str, what: str = "") -> str:
    """``text`` as a name people read: refused (beside ``field``) when it holds a
    character that does not show as itself (a newline, an escape, a bell, a right-to-left
    override, a zero-width space); otherwise with its spaces tidied.

    >>> shown_name("  Dora   Ames ", field="n")
    'Dora Ames'
    >>> shown_name("Eve\u202e", field="n")
    Traceback (most recent call last):
    ...
    club.services.base.ClubError: a name may not hold control, direction or invisible characters (U+202E)
    """
    bad = next((c for c in text if unicodedata.category(c) in HIDDEN), None)
    if bad is not None:
        raise ClubError(
            gettext("%(what)s may not hold control, direction or invisible characters (U+%(code)s)")
            % {"what": what or gettext("a name"), "code": f"{ord(bad):04X}"},
            field=field,
        )
    return " ".join(text.split())


def clean_reason(text: str, *, limit: int | None = None) -> str:
    r"""A free-text reason or note as people read it (issue 53, item 7): characters that do
    not show as themselves (controls, direction overrides, zero-width and unassigned
    ones) become spaces, spaces are tidied, and it is cut to ``limit``; names are refused
    for the same characters (`shown_name`), a reason is cleaned, since what it says
    matters more than its form. ``limit``: cut to that many characters (None: not cut; a
    service refuses a reason too long, saying so).

    >>> clean_reason("  wrong\x00 amount\u202e\n typed ")
    'wrong amount typed'
    """
    kept = "".join(" " if unicodedata.category(c) in HIDDEN else c for c in str(text))
    cleaned = " ".join(kept.split())
    return cleaned if limit is None else cleaned[:limit]


BOT_NAMES = ["Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf"]


def reserved_name(name: str) -> bool:
    """Whether ``name`` is a computer player's, made yet or not (any case or spacing).

    >>> reserved_name("bot  delta"), reserved_name("Bot Delta"), reserved_name("Delta")
    (True, True, False)
    """
    return " ".join(name.split()).casefold() in {f"bot {n}".casefold() for n in BOT_NAMES}


def bots(count: int, *, busy: frozenset[int] = frozenset()) -> list[Member]:
    """``count`` bot members ("Bot Alfa", ...), created once with unusable passwords,
    passing over those whose member ids are ``busy`` (seated at another table)."""
    out: list[Member] = []
    for name in BOT_NAMES:
        if len(out) == count:
            break
        bot = Member.objects.filter(is_bot=True, display_name=f"Bot {name}").first()
        if bot is None:
            bot = create_member(f"bot-{name.lower()}", f"Bot {name}", is_bot=True)
        if bot.pk not in busy:
            out.append(bot)
    if len(out) < count:
        raise ClubError(
            gettext("at most %(len)s computer players") % {"len": len(BOT_NAMES)}, field="computers"
        )
    return out
