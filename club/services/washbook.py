"""The washbook: one line per deal, append-only, proving on every line.

Online tables post through `post_online_deal` (the games app's call); physical tables
through `enter_physical_result` (the secretary). A mistake is put right by
`correct_line`: a reversing line and a new one, never an edit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import translation
from django.utils.translation import gettext

from club.models import (
    AuditEntry,
    ClubSession,
    Member,
    Posting,
    Seat,
    Table,
    WashbookEntry,
    WashbookLine,
)
from club.services import audit
from club.services.base import (
    BOOKS_LANGUAGE,
    Actor,
    ClubError,
    books_label,
    clean_reason,
    recorded_user,
)
from club.services.physical import physical_points


def _next_number(table: Table) -> int:
    return (WashbookLine.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1


def _write_line(
    table: Table,
    points: Mapping[Member, int],
    *,
    kind: str = WashbookLine.DEAL,
    deal_key: str | None = None,
    detail: dict[str, Any] | None = None,
    positions: Mapping[int, int] | None = None,
    by: Actor = None,
    reverses: WashbookLine | None = None,
    corrects: WashbookLine | None = None,
) -> WashbookLine:
    """Insert a line and its entries, then seal it (the database checks the proof)."""
    if sum(points.values()) != 0:
        raise ClubError(gettext("the line does not prove: total plus must equal total minus"))
    if kind != WashbookLine.TABLEAU and not any(points.values()):
        raise ClubError(gettext("a deal line needs a winner and a loser"))
    if kind == WashbookLine.DEAL and not any(p > 0 for p in points.values()):
        raise ClubError(gettext("a deal has a winner"))
    detail = dict(detail or {})
    if positions and "players" not in detail:
        detail["players"] = [m for m, _ in sorted(positions.items(), key=lambda mp: mp[1])]
    line = WashbookLine.objects.create(
        table=table,
        number=_next_number(table),
        kind=kind,
        deal_key=deal_key,
        game_number=table.game_number,
        value=sum(p for p in points.values() if p > 0),
        detail=detail,
        created_by=recorded_user(by),
        reverses=reverses,
        corrects=corrects,
    )
    WashbookEntry.objects.bulk_create(
        [
            WashbookEntry(line=line, member=m, points=p, position=(positions or {}).get(m.pk))
            for m, p in points.items()
            if p != 0
        ]
    )
    WashbookLine.objects.filter(pk=line.pk).update(sealed=True)
    line.sealed = True
    return line


def _open_table(table_id: int) -> Table:
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status == Table.CLOSED:
        raise ClubError(gettext("the table is closed"))
    if table.session_id and table.session.status != "open":
        raise ClubError(gettext("the evening is closed"))
    return table


def post_online_deal(
    table_id: int, *, deal_key: str, points: dict[int, int], detail: dict[str, Any]
) -> WashbookLine:
    """Post a finished online deal's line (the games app's call).

    ``points`` is keyed by SEAT POSITION: the winner positive, each loser negative, summing
    to zero (pips, splash bonus, ratting penalty, foul hand; for two players game points or
    pips as the table's ``options["scoring"]`` says). All zeros is a tableau: the line posts
    no points and ``detail`` records the carry. A substitute's seat posts on the account of
    the member he plays for (L6). Idempotent on ``deal_key``: posting the same key again
    returns the line already posted. Raises `ClubError` (a ValueError) on bad input.
    """
    if not deal_key:
        raise ClubError(gettext("a deal_key is required"))
    existing = WashbookLine.objects.filter(deal_key=deal_key).first()
    if existing:
        if existing.table_id != table_id:
            raise ClubError(gettext("that deal_key belongs to another table"))
        return existing
    try:
        clean = {int(k): int(v) for k, v in points.items()}
    except (TypeError, ValueError) as e:
        raise ClubError(gettext("points must map seat positions to whole numbers")) from e
    try:
        with transaction.atomic():
            table = _open_table(table_id)
            if table.mode != Table.ONLINE:
                raise ClubError(gettext("a physical table's results are entered by the secretary"))
            seats = {
                s.position: s.member
                for s in Seat.objects.filter(table=table).select_related("member")
            }
            unknown = set(clean) - set(seats)
            if unknown:
                raise ClubError(
                    gettext("no seat at %(position_if_len)s %(sorted)s")
                    % {
                        "position_if_len": "position" if len(unknown) == 1 else "positions",
                        "sorted": sorted(unknown),
                    }
                )
            by_member = {seats[pos]: pts for pos, pts in clean.items()}
            kind = WashbookLine.DEAL if any(clean.values()) else WashbookLine.TABLEAU
            return _write_line(
                table,
                by_member,
                kind=kind,
                deal_key=deal_key,
                detail=detail,
                positions={m.pk: pos for pos, m in seats.items()},
            )
    except IntegrityError:
        # The same deal_key posted concurrently: the other one won; return its line.
        existing = WashbookLine.objects.filter(deal_key=deal_key).first()
        if existing is None:
            raise
        return existing


@dataclass(frozen=True)
class PhysicalResult:
    """A deal played with real cards, as the secretary enters it.

    ``losses``: each loser's pips; or ``cards``: the cards left in his hand (counted, L24).
    ``extra``: further points a loser pays (splash bonus, ratting penalty, L10 foul hand).

    A game whose deals end in more ways than a winner collecting the others' pips (Tonk:
    a drop, the pack running out, ...) names them (``Variant.endings``): ``ending`` is
    one of them, ``winner_id`` the player it names (the dropper, who went out; None when
    it names nobody), and ``losses`` or ``cards`` every player's count when it asks them.
    """

    winner_id: int | None = None
    losses: dict[int, int] = field(default_factory=dict)
    cards: dict[int, str] = field(default_factory=dict)
    extra: dict[int, int] = field(default_factory=dict)
    note: str = ""
    ending: str = ""


def _line_kind(points: Mapping[Member, int]) -> str:
    """A deal line, or a tableau when the deal was drawn (no points change hands)."""
    return WashbookLine.DEAL if any(points.values()) else WashbookLine.TABLEAU


def check_physical_result(table_id: int, result: PhysicalResult) -> None:
    """Refuse, with every mistake at once, what :func:`enter_physical_result` would
    refuse of this result at the table as it is seated now; write nothing."""
    physical_points(Table.objects.get(pk=table_id), result)


def enter_physical_result(
    table_id: int, result: PhysicalResult, *, by: Actor = None, advance: bool = True
) -> WashbookLine:
    """Post a physical table's deal and (by default) pass the deal to the left."""
    from club.services.tables import advance_after_deal

    with transaction.atomic():
        table = _open_table(table_id)
        if table.mode != Table.PHYSICAL:
            raise ClubError(gettext("results of tables played in the browser come from the game"))
        points = physical_points(table, result)
        positions = dict(Seat.objects.filter(table=table).values_list("member_id", "position"))
        # Who dealt it (issue 81: the washbook CSV's dealer column was blank for every
        # deal played at real cards): his seat among the line's players, as an online
        # deal's line keeps it.
        order = sorted(positions.values())
        dealt = (
            {"dealer": order.index(table.dealer_position)} if table.dealer_position in order else {}
        )
        line = _write_line(
            table,
            points,
            kind=_line_kind(points),
            detail=_entered(result) | dealt,
            positions=positions,
            by=by,
        )
        if advance:
            advance_after_deal(table.pk)
        with translation.override(BOOKS_LANGUAGE):  # the audit's words
            books = f"{table.label}: {result_words(line)}"
        audit.record(by, AuditEntry.RESULT, books, table=table)
    return line


def result_words(line: WashbookLine) -> str:
    """A result's line as the secretary is told and the audit log keeps it: who won what."""
    won = ", ".join(
        f"{e.member} {e.points:+d}"
        for e in line.entries.select_related("member").order_by("-points")
    )
    return gettext("Line %(number)s posted to the washbook: %(won)s.") % {
        "number": line.number,
        "won": won or gettext("a drawn deal, no points"),
    }


def _entered(result: PhysicalResult) -> dict[str, Any]:
    """What a physical result's line keeps besides its points: the note, and how the
    deal ended in a game that names its endings."""
    detail: dict[str, Any] = {"entered": True, "note": result.note[:200]}
    # The counts as entered, each in its own field, so that a correction opens with them
    # (issue 81: 40 pips and 10 extra points opened as 50 pips and a blank extra).
    for key, counts in (("pips", result.losses), ("cards", result.cards), ("extra", result.extra)):
        kept = {str(pk): v for pk, v in counts.items() if v not in ("", None)}
        if kept:
            detail[key] = kept
    if result.ending:
        detail["ending"] = result.ending
        detail["named"] = result.winner_id  # the player the ending names (None: nobody)
    return detail


def line_players(line: WashbookLine) -> list[Member]:
    """The players at the table when ``line`` was posted, in seat order: recorded on the
    line (``detail["players"]``); for a line posted before that was kept, its entries'
    members and the table's present seats."""
    ids = [int(i) for i in (line.detail or {}).get("players", [])]
    if ids:
        members = Member.objects.in_bulk(ids)
        return [members[i] for i in ids if i in members]
    order: dict[int, tuple[int, Member]] = {}
    for e in line.entries.select_related("member"):
        order[e.member_id] = (e.position if e.position is not None else 99, e.member)
    for seat in Seat.objects.filter(table_id=line.table_id).select_related("member"):
        order.setdefault(seat.member_id, (seat.position, seat.member))
    return [m for _, m in sorted(order.values(), key=lambda pm: (pm[0], pm[1].pk))]


@dataclass(frozen=True)
class Correction:
    """What correcting a line posted: the reversal, the corrected line (None when the
    line was only reversed) and, after balancing, the adjustment to the members' money."""

    reversal: WashbookLine
    line: WashbookLine | None
    adjustment: Posting | None = None


CORRECTABLE_SESSIONS = (
    ClubSession.OPEN,
    ClubSession.CLOSING,
    ClubSession.BALANCING,
    ClubSession.FAILED,
    ClubSession.BALANCED,
)


def correction_refused(line: WashbookLine) -> str:
    """Why ``line`` cannot be corrected ("" when it can): a reversal, a line already
    reversed, a voided table, an evening cancelled or voided."""
    if line.kind == WashbookLine.REVERSAL:
        return "a reversing line is not itself reversed; correct the line it reverses"
    if WashbookLine.objects.filter(reverses=line).exists():
        return "that line has already been reversed"
    table = line.table
    if table.voided_at is not None:
        return f"the table was voided ({table.void_reason}): its washbook stands as it is"
    session = table.session
    if session is not None and session.status not in CORRECTABLE_SESSIONS:
        return f"the evening was {session.get_status_display()}: its washbooks stand as they are"
    return ""


def correct_line(
    line_id: int, *, by: Actor = None, result: PhysicalResult | None = None, reason: str = ""
) -> Correction:
    """Correct a washbook line, the secretary's work, append-only: a reversing line
    (every entry negated) and, with ``result``, the corrected line. Neither moves the
    deal count or the dealer on (the deal was played once; only its booking was wrong).

    Allowed at a closed table and after the evening is closed. After the evening was
    balanced, a staked table's correction also posts an adjustment to the members'
    money: each member's change in points at the evening's stake (the ledger's rounding
    rule), legs summing to zero, only members whose points changed, with the reason in
    its memo; and the transfers that settle it. The session row is locked first, so a
    correction never races the balancing: before it, the balancing counts the corrected
    line; after it, the adjustment carries the difference. Raises `ClubError`.
    """
    from club.services import ledger

    reason = clean_reason(str(reason or ""))
    if not reason:
        raise ClubError(gettext("give the reason for the correction"), field="reason")
    if len(reason) > 200:
        raise ClubError(gettext("keep the reason under 200 characters"), field="reason")
    with transaction.atomic():
        found = WashbookLine.objects.filter(pk=line_id).select_related("table").first()
        if found is None:
            raise ClubError(gettext("no such washbook line"))
        session = None
        if found.table.session_id is not None:
            session = ClubSession.objects.select_for_update().get(pk=found.table.session_id)
        line = WashbookLine.objects.select_for_update().select_related("table").get(pk=line_id)
        table = Table.objects.select_for_update().get(pk=line.table_id)
        why = correction_refused(line)
        if why:
            raise ClubError(why)
        entries = list(line.entries.select_related("member"))
        players = line_players(line)
        positions = {m.pk: i for i, m in enumerate(players)}
        positions.update({e.member_id: e.position for e in entries if e.position is not None})
        reversal = _write_line(
            table,
            {e.member: -e.points for e in entries},
            kind=WashbookLine.REVERSAL,
            detail={"reason": reason, "reverses": line.number, "players": [m.pk for m in players]},
            positions=positions,
            by=by,
            reverses=line,
        )
        new = None
        delta: dict[int, int] = {e.member_id: -e.points for e in entries}
        if result is not None:
            points = physical_points(table, result, players=players)
            new = _write_line(
                table,
                points,
                kind=_line_kind(points),
                detail=_entered(result)
                | {"corrects": line.number, "reason": reason, "players": [m.pk for m in players]}
                | {k: v for k, v in (line.detail or {}).items() if k == "dealer"},
                positions=positions,
                by=by,
                corrects=line,
            )
            for member, p in points.items():
                delta[member.pk] = delta.get(member.pk, 0) + p
        adjustment = None
        delta = {m: p for m, p in delta.items() if p}
        if (
            session is not None
            and session.status == ClubSession.BALANCED
            and delta
            and table.pk in ledger.staked_tables(session.pk)
        ):
            adjustment = ledger.adjust(
                session,
                delta,
                memo=f"{books_label(table)}, line {line.number} corrected after balancing: {reason}",
                by=by,
            )
        what = f"{books_label(table)}, line {line.number} " + (
            f"corrected by line {new.number}" if new else "reversed"
        )
        if adjustment is not None:
            what += ", with an adjustment to the members' money"
        audit.record(by, AuditEntry.CORRECTION, what, why=reason, table=table)
    return Correction(reversal, new, adjustment)
