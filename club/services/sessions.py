"""Sessions (evenings): open, check in (order of arrival, L3), close (queues balancing)."""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from club.models import (
    Arrival,
    AuditEntry,
    ClubSession,
    HouseRules,
    Member,
    Seat,
    Table,
    variant_choices,
)
from club.models import default_variant as first_game
from club.services import audit, base, money
from club.services.base import PLAY_CHECKS, Actor, ClubError, DealProgress, recorded_user
from games.engine.variant import VARIANTS

logger = logging.getLogger(__name__)


def open_session(
    *,
    stake: Decimal | str,
    default_variant: str | None = None,
    by: Actor = None,
    name: str = "",
    second: bool = False,
    fee_member: Decimal | str | None = None,
    fee_guest: Decimal | str | None = None,
    house_rules: HouseRules | None = None,
    held_on: dt.date | None = None,
) -> ClubSession:
    """Open an evening; its tables play ``default_variant`` unless told (the registry's
    first game when not given). A club has one open evening at a time unless the
    secretary opens a ``second`` on purpose; two open evenings never share a name.

    ``held_on``: an evening entered after the fact (issue 81) takes the day it was held,
    never one in the future; its statement lines carry that day and take their place
    in the books by it (``ledger.posting_day``)."""
    today = timezone.localdate()
    if held_on is not None and held_on > today:
        raise ClubError(
            f"an evening is entered on the day it was held or after, not before: "
            f"{held_on:%-d %B %Y} is still to come",
            field="held_on",
        )
    chosen = default_variant if default_variant is not None else first_game()
    name = base.shown_name(name or "", field="name", what=gettext("the evening's name"))
    stake = money.check_stake(stake)
    club_fees = money.default_fees()
    fees = [
        money.check_amount(
            club_fees[i] if given is None else given, field=field, what=what, zero=True
        )
        for i, (given, field, what) in enumerate(
            [
                (fee_member, "fee_member", gettext("a member's table fee")),
                (fee_guest, "fee_guest", gettext("a guest's table fee")),
            ]
        )
    ]
    if chosen not in dict(variant_choices()):
        raise ClubError(
            gettext("unknown game %(game)s") % {"game": repr(chosen)}, field="default_variant"
        )
    with transaction.atomic():
        _lock_opening()  # two secretaries opening at once: one at a time checks and opens
        open_now = ClubSession.objects.filter(status=ClubSession.OPEN)
        if name and open_now.filter(name__iexact=name).exists():
            raise ClubError(
                gettext("an open evening is already called %(name)s") % {"name": name}, field="name"
            )
        if not second and open_now.exists():
            raise ClubError(
                gettext(
                    '%(first)s is still open: close it first, or tick "open a second evening" to run two at once'
                )
                % {"first": open_now.first()},
                field="second",
            )
        opened = timezone.now()
        if held_on is not None and held_on < today:  # at this time of day, on that day
            opened = timezone.make_aware(dt.datetime.combine(held_on, timezone.localtime().time()))
        session = ClubSession.objects.create(
            opened_at=opened,
            stake=stake,
            default_variant=chosen,
            opened_by=recorded_user(by),
            name=name,
            fee_member=fees[0],
            fee_guest=fees[1],
            house_rules=house_rules,
        )
        game = VARIANTS[session.default_variant].display_name
        said = f"Opened {session}: {money.shown(session.stake)} a point, {game}"
        if held_on is not None and held_on < today:
            said += f", held on {timezone.localdate(opened):%-d %B %Y} (entered after the fact)"
        audit.record(by, AuditEntry.OPEN, said, session=session)
        if session.fee_member or session.fee_guest:
            fees_said = (
                f"Table fees for {session}: {money.shown(session.fee_member)} a member, "
                f"{money.shown(session.fee_guest)} a guest"
            )
            audit.record(by, AuditEntry.FEE, fees_said, session=session)
        return session


def _lock_opening() -> None:
    """Serialise the opening of evenings for this transaction (an advisory lock)."""
    with connection.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", [OPENING_LOCK])


OPENING_LOCK = 0x0C00_CA11  # any fixed number of our own


def check_in(session: ClubSession, member: Member) -> Arrival:
    """Record the member's arrival; the order of arrival is his prior right (L3)."""
    if not session.is_open:
        raise ClubError(gettext("the evening is not open"))
    if member.is_bot or not member.active:
        raise ClubError(gettext("only active members check in"))
    # One member, one evening (issue 79): here in another open evening, he is refused
    # here until checked out there, and the refusal names it.
    elsewhere = (
        Arrival.objects.filter(member=member, left_at=None, session__status=ClubSession.OPEN)
        .exclude(session=session)
        .select_related("session")
        .first()
    )
    if elsewhere is not None:
        raise ClubError(
            gettext("%(member)s is checked in at %(session)s already: check them out there first")
            % {"member": member, "session": elsewhere.session},
            field="member",
        )
    existing = Arrival.objects.filter(session=session, member=member).first()
    if existing:
        if existing.left_at:
            existing.left_at = None
            existing.save(update_fields=["left_at"])
        return existing
    # Members arriving at the same instant take their places one at a time: the session's
    # row is locked while the next place is counted (a retry loop could run out of tries
    # when a roomful checks in at once).
    with transaction.atomic():
        locked = ClubSession.objects.select_for_update().filter(pk=session.pk).first()
        if locked is None or not locked.is_open:
            raise ClubError(gettext("the evening is not open"))
        existing = Arrival.objects.filter(session=session, member=member).first()
        if existing:
            return existing
        top = Arrival.objects.filter(session=session).aggregate(m=Max("order"))["m"]
        return Arrival.objects.create(session=session, member=member, order=(top or 0) + 1)


def check_in_many(session: ClubSession, members: list[Member]) -> list[Arrival]:
    """Several members through the door at once (the secretary ticks them): each checked
    in, in the order given, all or none."""
    with transaction.atomic():
        return [check_in(session, m) for m in members]


def add_newcomer(session: ClubSession, name: str, *, guest: bool = False) -> Member:
    """The secretary adds a new member (or a guest) by name and checks him in. Under the
    evening's lock, and one name per evening: a double submit (or the same name typed
    twice at once) finds the newcomer the first one made, checked in here, and adds
    nobody else. A name taken by another member, or by a computer player, is refused."""
    name = base.shown_name(name, field="new_name")
    if not name:
        raise ClubError(gettext("give the new member's name"), field="new_name")
    if base.reserved_name(name):
        raise ClubError(
            gettext("%(name)s is a computer player's name") % {"name": name}, field="new_name"
        )
    with transaction.atomic():
        locked = base.lock_session(session.pk)
        if not locked.is_open:
            raise ClubError(gettext("the evening is not open"))
        same = Member.objects.filter(display_name__iexact=name, is_bot=False).first()
        if same is not None:
            here = Arrival.objects.filter(session=session, member=same, left_at=None).exists()
            if here:  # the first of two submits made him a moment ago
                return same
            raise ClubError(
                gettext("a member is already called %(name)s: choose them from the list")
                % {"name": name},
                field="new_name",
            )
        username = f"{slugify(name)[:20] or 'member'}-{secrets.token_hex(3)}"
        member = base.create_member(username, name, is_guest=guest)
        check_in(locked, member)
        return member


def check_out(session: ClubSession, member: Member, *, by: Actor = None) -> str:
    """The member leaves the evening (and any table's queue). Refused while he holds a
    seat at one of its tables in play: a player leaving mid-game appoints a substitute,
    with the others' consent (L6), or the table is broken up first; checked out, he would
    keep a seat nobody plays. A leaver whose substitute plays for him may go; a
    substitute playing a seat may not. Checked under the evening's lock, which forming a
    table takes too: the two never both happen (issue 36)."""
    from club.models import Substitution

    with transaction.atomic():
        locked = base.lock_session(session.pk)
        if not locked.is_open:
            raise ClubError(
                gettext("the evening is %(get_status_display)s: nobody checks out")
                % {"get_status_display": locked.get_status_display()}
            )
        seat = (
            Seat.objects.filter(member=member, table__session=session, table__status=Table.PLAYING)
            .select_related("table")
            .first()
        )
        covered = (
            seat is not None
            and Substitution.objects.filter(
                table=seat.table, leaver=member, status=Substitution.ACTIVE
            ).exists()
        )
        if seat is not None and not covered:
            raise ClubError(
                gettext(
                    "%(member)s is seated at %(label)s and must leave the table first (a substitute for the rest of the game, L6)"
                )
                % {"member": member, "label": seat.table.label}
            )
        playing_for = (
            Substitution.objects.filter(
                substitute=member,
                status=Substitution.ACTIVE,
                table__session=session,
                table__status=Table.PLAYING,
            )
            .select_related("table", "leaver")
            .first()
        )
        if playing_for is not None:
            raise ClubError(
                gettext(
                    "%(member)s plays for %(leaver)s at %(label)s until the game ends (L6), and leaves when it does"
                )
                % {"member": member, "leaver": playing_for.leaver, "label": playing_for.table.label}
            )
        Arrival.objects.filter(session=session, member=member, left_at=None).update(
            left_at=timezone.now(), queue_table=None
        )
        said = f"{member.display_name} checked out."
        if by is not None:  # the secretary's action; a member's own is not audited
            audit.record(by, AuditEntry.CHECK_OUT, said, session=session)
        return said


def check_in_at_door(
    session: ClubSession,
    members: list[Member],
    *,
    new_name: str = "",
    guest: bool = False,
    by: Actor = None,
) -> str:
    """The secretary's check-in at the door (issue 56): the members ticked, then a
    newcomer named (a guest, say), in one submit; both or neither, audited. What the
    console and the audit log say ("Checked in: Ann (owes £0.30 from past evenings),
    Mary Newcomer (new, a guest).")."""
    from club.services.ledger import carried_words

    with transaction.atomic():
        chosen = sorted(members, key=lambda m: m.display_name)
        newcomer = None
        if chosen:
            check_in_many(session, chosen)
        if new_name:
            newcomer = add_newcomer(session, new_name, guest=guest)

        def words() -> str:
            owing = carried_words(chosen) if chosen else {}
            names = [
                gettext("%(name)s (%(owing)s from past evenings)")
                % {"name": m.display_name, "owing": owing[m.pk]}
                if m.pk in owing
                else m.display_name
                for m in chosen
            ]
            if newcomer is not None:
                names.append(
                    (gettext("%(name)s (new, a guest)") if guest else gettext("%(name)s (new)"))
                    % {"name": newcomer.display_name}
                )
            return gettext("Checked in: %(names)s.") % {"names": base.and_list(names)}

        books, said = base.said_twice(words)
        audit.record(by, AuditEntry.CHECK_IN, books, session=session)
        return said


def close_session(session_id: int, *, by: Actor = None, queue: bool = True, note: str = "") -> bool:
    """open → closing (a conditional UPDATE), then queue the balancing task after commit.

    Every table closes, and an online deal still in progress ends where it stands,
    unscored, with the secretary's ``note`` (the games app's ``TABLE_STOPS``): nothing
    runs on at a closed evening. Returns False if the session was not open (a repeated
    or concurrent close). With ``queue=False`` the caller balances it himself (the demo
    loader, tests).
    """
    from club import dispatch  # queues by the task's name: tasks import services, not back

    with transaction.atomic():
        note = base.clean_reason(note, limit=200)
        claimed = ClubSession.objects.filter(pk=session_id, status=ClubSession.OPEN).update(
            status=ClubSession.CLOSING, closed_at=timezone.now(), close_note=note
        )
        if not claimed:
            return False
        in_progress = deals_in_progress(session_id)
        # The evening is locked by the claim; then its tables, in order (base.lock_tables).
        ids = [t.pk for t in base.lock_session_tables(session_id)]
        Table.objects.filter(pk__in=ids).update(
            status=Table.CLOSED, next_redraw_at=None, redraw_window_until=None
        )
        base.stop_play(ids, f"The evening was closed{': ' + note if note else ''}.")
        ended = (
            f" ({base.counted(len(in_progress), 'deal')} in progress ended)" if in_progress else ""
        )
        session = ClubSession.objects.get(pk=session_id)
        said = f"Closed {session} and queued its balancing{ended}"
        audit.record(by, AuditEntry.CLOSE, said, why=note, session=session)
        if queue:
            transaction.on_commit(lambda: dispatch.queue_balance(session_id))
    return True


def close_when_deals_end(session_id: int, *, by: Actor = None, note: str = "") -> bool:
    """ "Close when the deals in progress end": from now no new deal is dealt at the
    evening's tables, and the evening closes by itself, with ``note``, when the last
    deal in progress is booked (`finish_close_if_due`, called as each deal ends and by
    the minute sweep). Closes at once when none is in progress. A conditional UPDATE:
    False if the evening is not open or already waiting to close."""
    note = base.clean_reason(note, limit=200)
    with transaction.atomic():
        claimed = ClubSession.objects.filter(
            pk=session_id, status=ClubSession.OPEN, close_requested_at__isnull=True
        ).update(close_requested_at=timezone.now(), close_note=note)
        if not claimed:
            return False
        logger.info("session %s closes when its deals end (%s)", session_id, recorded_user(by))
        session = ClubSession.objects.get(pk=session_id)
        said = f"{session} closes when its deals in progress end"
        audit.record(by, AuditEntry.CLOSE, said, why=note, session=session)
        # robust: a failure here is logged, and the minute sweep closes the evening.
        transaction.on_commit(lambda: finish_close_if_due(session_id), robust=True)
        # Every table of the evening is told at once (issue 38), not when it has closed.
        transaction.on_commit(lambda: base.tell_tables(session_id), robust=True)
    return True


def finish_close_if_due(session_id: int) -> bool:
    """Close an evening waiting for its deals in progress once none is left (see
    `close_when_deals_end`); True if this call closed it. Safe to call any number of
    times and at once: `close_session` claims the evening once."""
    waiting = ClubSession.objects.filter(
        pk=session_id, status=ClubSession.OPEN, close_requested_at__isnull=False
    ).first()
    if waiting is None or deals_in_progress(session_id):
        return False
    return close_session(session_id, note=waiting.close_note)


def finish_due_closes() -> list[int]:
    """The minute sweep's part: every evening waiting to close whose deals have ended."""
    ids = ClubSession.objects.filter(
        status=ClubSession.OPEN, close_requested_at__isnull=False
    ).values_list("pk", flat=True)
    return [pk for pk in ids if finish_close_if_due(pk)]


def played_at(*, session_id: int | None = None, table_id: int | None = None) -> bool:
    """Whether anything was played: a washbook line posted at the table (or at any table
    of the session), or play another app reports there (``base.PLAY_CHECKS``: the games
    app's applied actions of an online deal in progress)."""
    from club.models import WashbookLine

    if table_id is not None:
        ids = [table_id]
    else:
        ids = list(Table.objects.filter(session_id=session_id).values_list("pk", flat=True))
    if not ids:
        return False
    return WashbookLine.objects.filter(table_id__in=ids).exists() or any(
        check(ids) for check in PLAY_CHECKS
    )


def cancel_session(session_id: int, *, by: Actor = None) -> ClubSession:
    """Undo an evening opened by mistake: allowed while it is open and nothing has been
    played at any of its tables. Its tables close, everybody leaves, and it is kept as
    "cancelled" (never balanced). After play, an evening is closed and balanced instead."""
    with transaction.atomic():
        session = base.lock_session(session_id)
        if session.status != ClubSession.OPEN:
            raise ClubError(gettext("only an open evening can be cancelled"))
        # Its tables locked too: a result being booked at one of them commits first and
        # is counted here, or finds the table closed (issue 36).
        base.lock_session_tables(session_id)
        if played_at(session_id=session_id):
            raise ClubError(
                gettext("deals have been played this evening: close and balance it instead")
            )
        now = timezone.now()
        ClubSession.objects.filter(pk=session_id).update(
            status=ClubSession.CANCELLED, closed_at=now
        )
        _close_tables(session_id, now, "The evening was cancelled.")
        logger.info("session %s cancelled by %s", session_id, recorded_user(by))
        session.refresh_from_db()
        audit.record(by, AuditEntry.CANCEL, f"Cancelled {session}.", session=session)
        return session


def _close_tables(session_id: int, now: Any, why: str) -> None:
    """Every table of the evening closes (play stops at the online ones) and everybody
    leaves."""
    ids = list(Table.objects.filter(session_id=session_id).values_list("pk", flat=True))
    Table.objects.filter(pk__in=ids).update(
        status=Table.CLOSED, next_redraw_at=None, redraw_window_until=None
    )
    base.stop_play(ids, why)
    Arrival.objects.filter(session_id=session_id, left_at=None).update(
        left_at=now, queue_table=None
    )


VOIDABLE = (ClubSession.OPEN, ClubSession.CLOSING, ClubSession.FAILED)


def void_session(session_id: int, reason: str, *, by: Actor = None) -> ClubSession:
    """An evening played in error (a practice night run as a staked one, the wrong
    stake), voided with the secretary's reason before it is balanced: its washbooks are
    kept and shown, nothing is balanced, and it is left out of the standings. A claimed
    change (a conditional UPDATE from a voidable status) so that it never races the
    balancing: whichever comes first wins, the other finds nothing to do. Before any
    play, an evening is cancelled instead; after balancing, its money is corrected."""
    reason = base.clean_reason(str(reason or ""))
    if not reason:
        raise ClubError(gettext("give the reason for voiding the evening"), field="reason")
    if len(reason) > 200:
        raise ClubError(gettext("keep the reason under 200 characters"), field="reason")
    with transaction.atomic():
        session = base.lock_session(session_id)
        if session.status not in VOIDABLE:
            raise ClubError(
                gettext("the evening is %(get_status_display)s: it can no longer be voided")
                % {"get_status_display": session.get_status_display()}
            )
        base.lock_session_tables(session_id)
        if not played_at(session_id=session_id):
            raise ClubError(gettext("nothing has been played this evening: cancel it instead"))
        now = timezone.now()
        claimed = ClubSession.objects.filter(pk=session_id, status__in=VOIDABLE).update(
            status=ClubSession.VOIDED, void_reason=reason, closed_at=now
        )
        if not claimed:
            raise ClubError(gettext("the evening is being balanced: it can no longer be voided"))
        _close_tables(session_id, now, f"The evening was voided: {reason}")
        logger.info("session %s voided by %s: %s", session_id, recorded_user(by), reason)
        session.refresh_from_db()
        said = "The evening is voided: it will not be balanced."
        audit.record(by, AuditEntry.VOID, said, why=reason, session=session)
        return session


def deals_in_progress(session_id: int) -> dict[int, DealProgress]:
    """The online deals under way at the evening's playing tables, by table id (a deal
    dealt but not yet begun counts: closing ends it too)."""
    ids = list(
        Table.objects.filter(session_id=session_id, status=Table.PLAYING).values_list(
            "pk", flat=True
        )
    )
    return {t: d for t, d in base.deal_progress(ids).items() if not d.finished}
