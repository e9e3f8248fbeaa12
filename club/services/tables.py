"""Tables by Foster's laws 2-6: forming, seats and deal, hourly redraw, rotation, substitutes.

The games app calls `current_dealer`, `advance_after_deal` and `create_practice_table`
(and reads the seating through `seating.py`); the session pages call the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from club.models import (
    Arrival,
    AuditEntry,
    ClubSession,
    CutBatch,
    HouseRules,
    Member,
    RedrawDemand,
    Seat,
    Table,
    default_size,
    variant_choices,
    variant_seats,
)
from club.services import audit, base
from club.services.base import ClubError, counted, log, record_cut
from club.services.seats import HOUR, IN_PLAY, lapse_substitutes, seat_wanted_computers
from club.tables import cutting
from games.engine.variant import find_variant


@dataclass(frozen=True, slots=True)
class TableTurn:
    """What `advance_after_deal` did: who deals next, and the log lines of what changed."""

    dealer_position: int
    seating_changed: bool
    game_number: int
    deal_in_game: int
    events: list[str] = field(default_factory=list)
    # The evening closes when its deals in progress end: deal no more at this table.
    closing: bool = False


# --- Reading ---------------------------------------------------------------------------


def current_dealer(table_id: int) -> int:
    """The seat position that deals the next (or current) deal."""
    return int(Table.objects.values_list("dealer_position", flat=True).get(pk=table_id))


def current_seat(member: Member | None) -> Seat | None:
    """Where the member sits tonight: his seat at a table of an open evening still in
    play (the latest, if the secretary seated him twice), or None."""
    if member is None:
        return None
    return (
        Seat.objects.filter(
            member=member,
            table__is_practice=False,
            table__session__status=ClubSession.OPEN,
            table__status__in=[Table.FORMING, Table.PLAYING],
        )
        .select_related("table")
        .order_by("-table__created_at")
        .first()
    )


def waiting_members(session: ClubSession) -> list[Arrival]:
    """Checked-in members not seated at a playing table, in order of arrival (L3)."""
    seated = Seat.objects.filter(
        table__session=session, table__status__in=[Table.FORMING, Table.PLAYING]
    ).values("member_id")
    return list(
        Arrival.objects.filter(session=session, left_at=None)
        .exclude(member_id__in=seated)
        .select_related("member", "queue_table")
        .order_by("order")
    )


def table_queue(table: Table) -> list[Arrival]:
    """The members waiting to cut in to this table after its game (L5), in queue order."""
    seated = Seat.objects.filter(table__session=table.session_id).values("member_id")
    return list(
        Arrival.objects.filter(queue_table=table, left_at=None)
        .exclude(member_id__in=seated)
        .select_related("member")
        .order_by("queue_seq", "order")
    )


# --- Forming a table (L2, L3) ---------------------------------------------------------------


def check_variant(variant: str, size: int) -> None:
    if variant not in dict(variant_choices()):
        raise ClubError(gettext("unknown game %(game)s") % {"game": repr(variant)})
    low, high = variant_seats(variant)
    if not low <= size <= high:
        game = find_variant(variant).display_name
        raise ClubError(
            gettext("%(game)s is played by %(low)s–%(high)s players, not %(size)s")
            % {"game": game, "low": low, "high": high, "size": size},
            field="size",
        )


def _seat_by_cut(table: Table, players: list[Member], purpose: str, note: str) -> CutBatch:
    """Cut for seats and deal: the highest chooses his seat (position 0) and deals; the
    next highest sits on his left (position 1), and so on round the table (L3). Where the
    table's game and options say so (Conquián's C-opt-2) the lowest, then the next lowest."""
    low = cutting.lowest_deals(table.variant, table.options)
    pack = cutting.pack_for(table.variant, table.options)
    result = cutting.cut(players, base.rng(), pack, low=low is not None)
    if low:
        note = f"{note}; the lowest cut deals ({low})"
    batch = record_cut(
        purpose=purpose,
        session=table.session,
        table=table,
        order=result.order,
        draws=[(d.player, d.card, d.round) for d in result.draws],
        note=note,
    )
    old = {s.member_id: s for s in Seat.objects.filter(table=table)}
    Seat.objects.filter(table=table).delete()
    Seat.objects.bulk_create(
        [
            Seat(
                table=table,
                position=i,
                member=m,
                consecutive_games=old[m.pk].consecutive_games if m.pk in old else 0,
            )
            for i, m in enumerate(result.order)
        ]
    )
    table.dealer_position = 0
    return batch


def form_table(
    session: ClubSession,
    *,
    variant: str | None = None,
    size: int | None = None,
    mode: str = Table.ONLINE,
    options: dict[str, Any] | None = None,
    candidates: list[Member] | None = None,
    auto_redraw: bool = False,
    computer_players: int = 0,
    house_rules: HouseRules | None = None,
    fill: bool = False,
    by: base.Actor = None,
) -> Table:
    """Form a table from the candidates (default: every waiting member, in order of arrival).

    ``size`` given is the table's size: fewer candidates than its places, with the
    computer players asked, is refused with the count (issue 56: a table of three was
    formed of two without a word), unless ``fill`` asks for computer players in the empty
    seats of an online table. ``size`` left out: as many as the game usually seats, or
    as many as wait.

    ``house_rules``: a set of the game's options the club saved (issue 43); the table
    copies its options (``options`` given as well change some of them, and its name says
    so) and its name, so a set changed later never changes this table.

    With more candidates than places they cut (L2) and the highest play (L3); the others
    wait in the table's queue in order of arrival. Then the players cut for seats and the
    first deal. Every cut is recorded.

    ``computer_players`` seats of an online table are the club's computer players (the
    members take ``size - computer_players`` places). They cut for seats and deal with
    the members and play through the same service. **Booking:** each deal is a washbook
    line like any other, the computer players' points included, so the line still
    balances; but a table a computer player ever sat at is never staked: balancing
    leaves its lines out of money (`ledger.staked_tables`) and the washbook says so. A
    member queued for the table takes a computer player's seat first (`_rotate`).
    """
    if not session.is_open:
        raise ClubError(gettext("the evening is not open"))
    if session.is_closing_after_deals:
        raise ClubError(gettext("the evening closes when its deals in progress end: no new table"))
    variant = variant or session.default_variant
    if variant not in dict(variant_choices()):
        raise ClubError(gettext("unknown game %(game)s") % {"game": repr(variant)})
    asked = size is not None
    size = size or default_size(variant)
    check_variant(variant, size)
    # Options that do not fit the game (a scoring for two players at a table of five)
    # would leave a table no deal can be dealt at: refused here, before anything is made.
    options, rules_name = with_house_rules(house_rules, variant, options)
    wrong = cutting.options_error(variant, options)
    if wrong:
        raise ClubError(gettext("these options do not fit the game: %(wrong)s") % {"wrong": wrong})
    if mode not in (Table.ONLINE, Table.PHYSICAL):
        raise ClubError(gettext("mode is online or physical"))
    if computer_players < 0:
        raise ClubError(
            gettext("the number of computer players cannot be negative"), field="computers"
        )
    if (computer_players or fill) and mode != Table.ONLINE:
        raise ClubError(
            gettext("computer players sit only at tables played in the browser"), field="computers"
        )
    if computer_players >= size:
        raise ClubError(
            gettext("a table of %(size)s has room for at most %(size_1)s computer players")
            % {"size": size, "size_1": size - 1},
            field="computers",
        )
    with transaction.atomic():
        # One forming at a time, and the evening as it is now (a check-out or a close a
        # moment ago is seen: the candidates are those still checked in, issue 36).
        locked = base.lock_session(session.pk)
        if not locked.is_open:
            raise ClubError(gettext("the evening is not open"))
        if locked.is_closing_after_deals:
            raise ClubError(
                gettext("the evening closes when its deals in progress end: no new table")
            )
        waiting = waiting_members(session)
        if candidates is None:
            pool = [a.member for a in waiting]
        else:
            free = {a.member_id for a in waiting}
            if any(m.pk not in free for m in candidates):
                raise ClubError(
                    gettext("a player chosen has not checked in or is already seated"),
                    field="players",
                )
            order = {a.member_id: a.order for a in waiting}
            pool = sorted(candidates, key=lambda m: order[m.pk])
        low = variant_seats(variant)[0]
        if not pool:
            raise ClubError(gettext("nobody is waiting to play"), field="size")
        short = size - computer_players - len(pool)
        if short > 0 and fill:  # the empty seats, to computer players
            computer_players, short = computer_players + short, 0
        if len(pool) + computer_players < low:
            game = find_variant(variant).short_name
            raise ClubError(
                gettext("%(game)s needs at least %(low)s players; %(len)s waiting")
                % {"game": game, "low": low, "len": len(pool)},
                field="size",
            )
        if short > 0 and asked:
            raise ClubError(_short_of_players(size, pool, candidates, computer_players, mode),
                            field="size")  # fmt: skip
        places = min(size - computer_players, len(pool))
        # The rules for this many (Tonk's fifth player needs Five Card Tonk): a table no
        # deal can be dealt for stopped at its first, with a server error on its page.
        wrong = cutting.options_error(variant, options, places + computer_players)
        if wrong:
            raise ClubError(gettext("not at a table of %(places_computer_players)s: %(wrong)s") % {"places_computer_players": places + computer_players, "wrong": wrong},
                            field="size")  # fmt: skip
        number = (Table.objects.filter(session=session).aggregate(n=Max("number"))["n"] or 0) + 1
        table = Table.objects.create(
            session=session,
            number=number,
            variant=variant,
            size=places + computer_players,
            mode=mode,
            options=options or {},
            house_rules=house_rules,
            house_rules_name=rules_name,
            auto_redraw=auto_redraw,
            had_computer_players=computer_players > 0,
        )
        players = pool
        if len(pool) > places:
            result = cutting.cut(pool, base.rng(), cutting.pack_for(variant, options))
            record_cut(
                purpose=CutBatch.PLACES,
                session=session,
                table=table,
                order=result.order,
                draws=[(d.player, d.card, d.round) for d in result.draws],
                note=f"{len(pool)} candidates for {places} places",
            )
            players = result.order[:places]
            losers = {m.pk for m in result.order[places:]}
            # Those who cut too low wait for this table in their order of arrival.
            seq = _next_queue_seq(table)
            for i, a in enumerate(a for a in waiting if a.member_id in losers):
                Arrival.objects.filter(pk=a.pk).update(queue_table=table, queue_seq=seq + i)
            log(table, f"Cut for places: {', '.join(str(m) for m in players)} play.")
        if computer_players:
            busy = Seat.objects.filter(
                table__session=session, table__status=Table.PLAYING, member__is_bot=True
            ).values_list("member_id", flat=True)
            players = [*players, *base.bots(computer_players, busy=frozenset(busy))]
            log(
                table,
                f"{counted(computer_players, 'computer player')} seated: the table is not staked.",
            )
        _seat_by_cut(table, players, CutBatch.SEATS, gettext_noop("seats and first deal"))
        now = timezone.now()
        table.status = Table.PLAYING
        table.started_at = now
        table.next_redraw_at = now + HOUR
        table.save()
        log(table, f"Table formed; {players and table.seats.get(position=0).member} deals first.")
        audit.record(by, AuditEntry.TABLE, formed_words(table, with_rules=True), table=table)
    return table


def formed_words(table: Table, *, with_rules: bool = False) -> str:
    """A table just formed, as the console says it ("Table 2 formed: Ann, Bob and Cat.")
    and, ``with_rules``, as the audit log keeps it (its game, where it is played, its
    house rules)."""
    seats = table.seats.select_related("member").order_by("position")
    players = base.and_list([str(s.member) for s in seats])
    if not with_rules:
        return gettext("Table %(number)s formed: %(players)s.") % {
            "number": table.number,
            "players": players,
        }
    rules = f", {table.house_rules_name}" if table.house_rules_name else ""
    with translation.override(base.BOOKS_LANGUAGE):  # the audit's words
        players = base.and_list([str(s.member) for s in seats])
        return (
            f"Table {table.number} formed: {players} ({table.game_name}, "
            f"{table.get_mode_display()}{rules})."
        )


_FEW = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _short_of_players(
    size: int, pool: list[Member], chosen: list[Member] | None, bots: int, mode: str
) -> str:
    """ "3 players, 2 ticked: tick one more or add a computer player"."""
    short = size - bots - len(pool)
    have = f"{len(pool)} {'ticked' if chosen is not None else 'waiting'}"
    if bots:
        have += f" and {counted(bots, 'computer player')}"
    more = _FEW.get(short, str(short))
    ask = f"tick {more} more" if chosen is not None else f"{more} more must check in"
    if mode == Table.ONLINE:
        return f"{size} players, {have}: {ask} or add {'a computer player' if short == 1 else f'{more} computer players'}"
    return f"{size} players, {have}: {ask} or make the table smaller"


def _next_queue_seq(table: Table) -> int:
    top = Arrival.objects.filter(queue_table=table).aggregate(m=Max("queue_seq"))["m"]
    return (top or 0) + 1


def join_queue(table: Table, member: Member) -> Arrival:
    """A waiting member asks to cut in to ``table`` after its current game (L5)."""
    if table.session_id is None or table.status != Table.PLAYING:
        raise ClubError(gettext("this table takes no candidates"))
    arrival = Arrival.objects.filter(session=table.session_id, member=member, left_at=None).first()
    if arrival is None:
        raise ClubError(gettext("check in to the evening first"))
    if Seat.objects.filter(
        table__session=table.session_id, member=member, table__status__in=IN_PLAY
    ).exists():  # a cancelled or voided table holds nobody
        raise ClubError(gettext("you are seated at a table"))
    if arrival.queue_table_id != table.pk:
        arrival.queue_table = table
        arrival.queue_seq = _next_queue_seq(table)
        arrival.save(update_fields=["queue_table", "queue_seq"])
    return arrival


# --- Between deals (the games app's call) --------------------------------------------------


def advance_after_deal(table_id: int, game_over: bool | None = None) -> TableTurn:
    """Called after a deal ended and its line was posted.

    Counts the deal in the current game (L5: a game is one round of deals, each seated
    player dealing once; with two players each deal is a game; ``game_over`` given where
    the game itself says when it ends, as Tunk's game to 100 does, K10) and passes the
    deal to the left. At the end of a game: every seated player's consecutive-games count goes up,
    substitutes' appointments lapse (L6) and waiting candidates cut in (L5). Then, still
    between deals, pending redraw demands (L4) are applied: the seats are cut for again and
    the highest deals; the round of deals then starts afresh from him.
    """
    events: list[str] = []
    changed = False
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.PLAYING:
            raise ClubError(gettext("the table is not playing"))
        players = Seat.objects.filter(table=table).count()
        table.deals_played += 1
        table.deal_in_game += 1
        if game_over is None:
            game_over = players <= 2 or table.deal_in_game >= players
        if game_over:
            Seat.objects.filter(table=table).update(consecutive_games=F("consecutive_games") + 1)
            events.append(log(table, f"Game {table.game_number} is over."))
            events.extend(lapse_substitutes(table))
            sat = seat_wanted_computers(table)  # before the rotation: a member takes it
            events.extend(sat)
            rotated, rotation_events = _rotate(table)
            changed |= rotated or bool(sat)
            events.extend(rotation_events)
            table.game_number += 1
            table.deal_in_game = 0
            players = Seat.objects.filter(table=table).count() if sat else players
        table.dealer_position = (table.dealer_position + 1) % max(players, 1)
        pending = RedrawDemand.objects.filter(table=table, applied_at=None)
        if pending.exists():
            who = ", ".join(str(d.member or "the hourly custom") for d in pending)
            members = [s.member for s in Seat.objects.filter(table=table).select_related("member")]
            _seat_by_cut(table, members, CutBatch.REDRAW, f"demanded by {who}")
            pending.update(applied_at=timezone.now())
            table.deal_in_game = 0
            changed = True
            first = Seat.objects.select_related("member").get(table=table, position=0)
            events.append(
                log(table, f"Cards drawn again for seats (L4, {who}); {first.member} deals.")
            )
        table.save()
        closing = bool(
            table.session_id
            and ClubSession.objects.filter(
                pk=table.session_id, status=ClubSession.OPEN, close_requested_at__isnull=False
            ).exists()
        )
        if closing:
            from club.services.sessions import finish_close_if_due

            session_id = table.session_id
            # robust: a failure to close is logged, never the player's move's answer;
            # the minute sweep closes the evening then.
            transaction.on_commit(lambda: finish_close_if_due(session_id), robust=True)
        return TableTurn(
            dealer_position=table.dealer_position,
            seating_changed=changed,
            game_number=table.game_number,
            deal_in_game=table.deal_in_game,
            events=events,
            closing=closing,
        )


def _rotate(table: Table) -> tuple[bool, list[str]]:
    """L5: after a game, candidates cut in and the players cut to go out, lowest retiring.

    As many go out as there are candidates (at most the whole table). After the first game
    only those with the most consecutive games cut; if they are fewer than the places
    wanted, the next most consecutive join them.
    """
    if table.session_id is None:
        return False, []
    queue = table_queue(table)
    if not queue:
        return False, []
    seats = list(Seat.objects.filter(table=table).select_related("member"))
    # A member queued for the table takes a computer player's seat first, without a cut:
    # computer players only fill seats no member wants.
    events: list[str] = []
    for seat in [s for s in seats if s.member.is_bot]:
        if not queue:
            break
        arrival = queue.pop(0)
        Seat.objects.filter(pk=seat.pk).update(
            member=arrival.member, consecutive_games=0, seated_at=timezone.now()
        )
        Arrival.objects.filter(pk=arrival.pk).update(queue_table=None)
        seats.remove(seat)
        events.append(log(table, f"{arrival.member} takes {seat.member}'s seat."))
    if not queue or not seats:
        return bool(events), events
    k = min(len(queue), len(seats))
    if table.game_number == 1:
        eligible = seats
    else:
        eligible = []
        for count in sorted({s.consecutive_games for s in seats}, reverse=True):
            eligible += [s for s in seats if s.consecutive_games == count]
            if len(eligible) >= k:
                break
    by_member = {s.member_id: s for s in eligible}
    result = cutting.cut(
        [s.member for s in eligible], base.rng(), cutting.pack_for(table.variant, table.options)
    )
    record_cut(
        purpose=CutBatch.ROTATION,
        session=table.session,
        table=table,
        order=result.order,
        draws=[(d.player, d.card, d.round) for d in result.draws],
        note=f"{counted(k, 'place')} wanted by {', '.join(str(a.member) for a in queue[:k])}",
    )
    retiring = [by_member[m.pk] for m in result.order[-k:]]
    entering = queue[:k]
    seq = _next_queue_seq(table)
    for i, (seat, arrival) in enumerate(zip(retiring, entering, strict=True)):
        # The retiring player goes to the back of this table's queue.
        Arrival.objects.filter(session=table.session_id, member_id=seat.member_id).update(
            queue_table=table, queue_seq=seq + i
        )
        Seat.objects.filter(pk=seat.pk).update(
            member=arrival.member, consecutive_games=0, seated_at=timezone.now()
        )
        Arrival.objects.filter(pk=arrival.pk).update(queue_table=None)
    text = "; ".join(
        f"{a.member} cuts in for {s.member}" for s, a in zip(retiring, entering, strict=True)
    )
    return True, [*events, log(table, f"Rotation (L5): {text}.")]


# --- Practice tables ---------------------------------------------------------------------


def with_house_rules(
    house_rules: HouseRules | None, variant: str, options: dict[str, Any] | None
) -> tuple[dict[str, Any], str]:
    """A table's options and the name of its house rules (issue 43): the set's options,
    with ``options`` changing some (the name then says so); without a set, ``options``
    and no name. A set of another game is refused beside its field."""
    if house_rules is None:
        return dict(options or {}), ""
    if house_rules.variant != variant:
        raise ClubError(
            gettext("%(name)s are house rules for %(display_name)s, not for %(display_name2)s")
            % {
                "name": house_rules.name,
                "display_name": find_variant(house_rules.variant).display_name,
                "display_name2": find_variant(variant).display_name,
            },
            field="house_rules",
        )
    changed = {k: v for k, v in (options or {}).items() if house_rules.options.get(k) != v}
    name = house_rules.name + (" (changed)" if changed else "")
    return dict(house_rules.options) | (options or {}), name
