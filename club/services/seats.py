"""Seats between deals: the hourly redraw (L4: a window in which any player may demand
that seats be drawn again, or the club's custom of drawing them each hour) and
substitutes (L6: a leaving player proposes one, the others consent). The tables'
services call these; nothing here calls back."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from club.models import (
    Arrival,
    AuditEntry,
    Member,
    RedrawDemand,
    Seat,
    Substitution,
    Table,
    variant_seats,
)
from club.services import audit, base
from club.services.base import ClubError, books_label, log
from club.tables import cutting

HOUR = timedelta(hours=1)
REDRAW_WINDOW = timedelta(minutes=10)
IN_PLAY = [Table.FORMING, Table.PLAYING]


def open_due_redraw_windows(now: Any = None) -> list[int]:
    """Claim every playing table whose hour has ended and open its demand window.

    Each claim is a conditional UPDATE on the old ``next_redraw_at``: a second worker (or
    the same task run again) updates nothing and does nothing. Tables set to redraw
    automatically get the club's own demand at once. Returns the claimed table ids.
    """
    now = now or timezone.now()
    claimed: list[int] = []
    due = Table.objects.filter(status=Table.PLAYING, next_redraw_at__lte=now).values_list(
        "pk", "next_redraw_at", "auto_redraw"
    )
    for pk, due_at, auto in due:
        next_at = due_at + HOUR
        while next_at <= now:  # the beat was down for hours: no backlog of windows
            next_at += HOUR
        with transaction.atomic():
            got = Table.objects.filter(pk=pk, next_redraw_at=due_at, status=Table.PLAYING).update(
                next_redraw_at=next_at, redraw_window_until=now + REDRAW_WINDOW
            )
            if not got:
                continue
            table = Table.objects.get(pk=pk)
            if auto:
                RedrawDemand.objects.create(table=table, member=None)
                log(table, "The hour is up: seats are drawn again after this deal (club custom).")
            else:
                log(table, "The hour is up: any player may demand a redraw for seats (L4).")
        claimed.append(pk)
    return claimed


def demand_redraw(table: Table, member: Member) -> RedrawDemand:
    """A seated player demands a redraw while the window is open; applied between deals."""
    if not Seat.objects.filter(table=table, member=member).exists():
        raise ClubError(gettext("only a player at the table may demand a redraw"))
    with transaction.atomic():
        # Lock the table: a double-submitted demand (or two at once) records one demand,
        # and a deal ending at the same instant (advance_after_deal) sees it or not at all.
        table = Table.objects.select_for_update().get(pk=table.pk)
        now = timezone.now()
        if not (table.redraw_window_until and table.redraw_window_until >= now):
            raise ClubError(gettext("a redraw may be demanded only at the end of an hour (L4)"))
        pending = RedrawDemand.objects.filter(table=table, applied_at=None).first()
        if pending:
            return pending
        demand = RedrawDemand.objects.create(table=table, member=member)
        log(table, f"{member} demands a redraw for seats; it takes effect after this deal.")
        return demand


# --- Substitutes (L6) ------------------------------------------------------------------


def propose_substitute(table: Table, leaver: Member, substitute: Member) -> Substitution:
    """The leaver names a substitute; every other seated player must consent. Only at a
    table in play of an evening still open, checked under their locks (issue 36)."""
    with transaction.atomic():
        session, table = base.lock_table(table.pk)
        if session is not None and not session.is_open:
            raise ClubError(
                gettext("the evening is %(get_status_display)s: no substitute")
                % {"get_status_display": session.get_status_display()}
            )
        if table.status != Table.PLAYING:
            raise ClubError(gettext("the table is not playing: no substitute"))
        return _propose_substitute(table, leaver, substitute)


def _propose_substitute(table: Table, leaver: Member, substitute: Member) -> Substitution:
    live = Substitution.objects.filter(
        table=table, leaver=leaver, status__in=[Substitution.PROPOSED, Substitution.ACTIVE]
    ).first()
    if live is not None:  # one live appointment per leaver (a 500 before, IntegrityError)
        if live.substitute_id == substitute.pk:
            return live  # the same proposal again: a double submit
        raise ClubError(
            gettext("you have already appointed %(substitute)s (%(status)s): one substitute a game")
            % {"substitute": live.substitute, "status": live.status}
        )
    seats = list(Seat.objects.filter(table=table))
    seated = {s.member_id for s in seats}
    if leaver.pk not in seated:
        raise ClubError(gettext("only a seated player may appoint a substitute"))
    if substitute.pk in seated or substitute.is_bot:
        raise ClubError(gettext("the substitute must be a member not at this table"))
    if (
        table.session_id
        and Seat.objects.filter(
            table__session=table.session_id, member=substitute, table__status__in=IN_PLAY
        ).exists()
    ):
        raise ClubError(gettext("the substitute is playing at another table"))
    if (
        Substitution.objects.filter(table=table, substitute=substitute)
        .filter(status__in=[Substitution.PROPOSED, Substitution.ACTIVE])
        .exists()
    ):
        raise ClubError(gettext("that member is already a substitute here"))
    required = sorted(m for m in seated if m != leaver.pk)
    sub = Substitution.objects.create(
        table=table,
        leaver=leaver,
        substitute=substitute,
        game_number=table.game_number,
        required=required,
    )
    log(table, f"{leaver} proposes {substitute} as substitute for this game (L6).")
    _activate_if_consented(sub)
    return sub


def consent_substitute(sub: Substitution, member: Member, agree: bool = True) -> Substitution:
    if sub.status != Substitution.PROPOSED:
        raise ClubError(gettext("this appointment is not awaiting consent"))
    if member.pk not in sub.required:
        raise ClubError(gettext("only the other players at the table consent"))
    if not agree:
        Substitution.objects.filter(pk=sub.pk).update(status=Substitution.REFUSED)
        sub.refresh_from_db()
        log(sub.table, f"{member} refuses {sub.substitute} as substitute.")
        return sub
    sub.consents.add(member)
    log(sub.table, f"{member} consents to {sub.substitute} as substitute.")
    _activate_if_consented(sub)
    sub.refresh_from_db()
    return sub


def _activate_if_consented(sub: Substitution) -> None:
    given = set(sub.consents.values_list("pk", flat=True))
    if set(sub.required) <= given:
        Substitution.objects.filter(pk=sub.pk, status=Substitution.PROPOSED).update(
            status=Substitution.ACTIVE
        )
        sub.status = Substitution.ACTIVE
        log(sub.table, f"{sub.substitute} plays for {sub.leaver} until the game ends (L6).")


def lapse_substitutes(table: Table) -> list[str]:
    """L6: the appointment becomes void at the end of the game."""
    events = []
    live = Substitution.objects.filter(
        table=table, status__in=[Substitution.ACTIVE, Substitution.PROPOSED]
    ).select_related("leaver", "substitute")
    for sub in live:
        was = sub.status
        sub.status = Substitution.LAPSED
        sub.lapsed_at = timezone.now()
        sub.save(update_fields=["status", "lapsed_at"])
        if was != Substitution.ACTIVE:
            continue
        arrivals = Arrival.objects.filter(session=table.session_id, member=sub.leaver)
        left = (
            table.session_id is not None
            and arrivals.exists()
            and not arrivals.filter(left_at=None).exists()
        )
        if left:  # the leaver has left the evening: his substitute keeps the seat
            Seat.objects.filter(table=table, member=sub.leaver).update(
                member=sub.substitute, consecutive_games=0, seated_at=timezone.now()
            )
            events.append(log(table, f"{sub.leaver} has left: {sub.substitute} keeps the seat."))
        else:
            events.append(log(table, f"{sub.substitute}'s appointment for {sub.leaver} lapses."))
    return events


# --- Computer players in empty seats (issue 56) ------------------------------------------


def seat_computer_player(table_id: int, *, by: base.Actor = None) -> str:
    """The secretary seats a computer player in an empty seat of a table played in the
    browser (one the game has room for: a table of four at Foster's game seats up to
    seven). Nothing played yet in the game in progress: he sits down now and the cards
    are dealt again for the new number. Otherwise he sits down when the game ends (L5),
    and a member waiting for the table takes his seat then, as members take computer
    players' seats after every game (`tables._rotate`). A table a computer player sat at
    is not staked (``Table.had_computer_players``). Returns what the table's log says."""
    from games.engine.variant import find_variant

    with transaction.atomic():
        session, table = base.lock_table(table_id)
        if session is None or table.is_practice:
            raise ClubError(
                gettext("only a table of an evening takes a computer player from the console")
            )
        if not session.is_open or session.is_closing_after_deals:
            raise ClubError(
                gettext("%(session)s is closing: no computer player sits down now")
                % {"session": session}
            )
        if table.status != Table.PLAYING:
            raise ClubError(gettext("%(label)s is not playing") % {"label": table.label})
        if table.mode != Table.ONLINE:
            raise ClubError(gettext("computer players sit only at tables played in the browser"))
        seated = Seat.objects.filter(table=table).count()
        high = variant_seats(table.variant)[1]
        wrong = cutting.options_error(
            table.variant, table.options, seated + table.computers_wanted + 1
        )
        if wrong and seated + table.computers_wanted < high:
            raise ClubError(
                gettext("%(wrong)s: %(label)s seats no more under its rules")
                % {"wrong": wrong, "label": table.label}
            )
        if seated + table.computers_wanted >= high:
            game = find_variant(table.variant).short_name
            coming = (
                f" ({base.counted(table.computers_wanted, 'computer player')} to sit down)"
                if table.computers_wanted
                else ""
            )
            raise ClubError(
                gettext("%(game)s seats at most %(high)s: %(label)s has no empty seat%(coming)s")
                % {"game": game, "high": high, "label": table.label, "coming": coming}
            )
        if base.fresh_game(table.pk):
            (bot,) = _seat_computers(table, 1)
            table.save()
            base.redeal(table.pk)
            books, said = base.said_twice(
                lambda: (
                    gettext(
                        "%(bot)s takes the empty seat; the cards are dealt again for %(count)s "
                        "players. The table is not staked."
                    )
                    % {"bot": bot, "count": seated + 1}
                )
            )
            log(table, books)
        else:
            table.computers_wanted += 1
            table.save(update_fields=["computers_wanted"])
            books, said = base.said_twice(
                lambda: (
                    gettext(
                        "A computer player sits down in the empty seat when game %(game)s ends (a "
                        "member waiting for the table takes it instead)."
                    )
                    % {"game": table.game_number}
                )
            )
            log(table, books)
        audit.record(by, AuditEntry.TABLE_COMPUTER, f"{books_label(table)}: {books}", table=table)
        return said


def empty_seats(table: Table, seated: int) -> int:
    """Seats of a table its game has room for, under its rules, that nobody is coming to
    (the computer players asked for counted as coming)."""
    taken = seated + table.computers_wanted
    room = 0
    while taken + room < variant_seats(table.variant)[1] and not cutting.options_error(
        table.variant, table.options, taken + room + 1
    ):
        room += 1
    return room


def seat_wanted_computers(table: Table) -> list[str]:
    """At the end of a game (L5): the computer players the secretary asked for sit down,
    as many as the game has room for. The caller saves ``table``."""
    if not table.computers_wanted:
        return []
    wanted, table.computers_wanted = table.computers_wanted, 0
    room = variant_seats(table.variant)[1] - Seat.objects.filter(table=table).count()
    if room <= 0:
        return []
    bots = _seat_computers(table, min(wanted, room))
    names = ", ".join(str(b) for b in bots)
    return [log(table, f"{names} {'sits' if len(bots) == 1 else 'sit'} down in the empty "
                       "seat. The table is not staked.")]  # fmt: skip


def _seat_computers(table: Table, count: int) -> list[Member]:
    """``count`` computer players not playing at another table of the evening, in the
    seats after the last (the table locked; the caller saves it)."""
    busy = Seat.objects.filter(
        table__session=table.session_id, table__status=Table.PLAYING, member__is_bot=True
    ).values_list("member_id", flat=True)
    bots = base.bots(count, busy=frozenset(busy))
    seated = Seat.objects.filter(table=table).count()
    now = timezone.now()
    Seat.objects.bulk_create(
        Seat(table=table, member=bot, position=seated + i, seated_at=now)
        for i, bot in enumerate(bots)
    )
    table.size = seated + count
    table.had_computer_players = True
    return bots
