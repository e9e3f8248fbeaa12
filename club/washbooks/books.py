"""Reading the books for pages and exports: the washbook laid out like Foster's, the
balance chart. A fixed number of queries, whatever the number of lines."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, pgettext

from club.models import ClubSession, Member, Seat, Table, WashbookEntry, WashbookLine
from games.engine.errors import InvalidActionError
from games.engine.variant import find_variant


@dataclass
class Cell:
    plus: int | None
    minus: int | None
    total: int  # the running total carried down (net)
    present: bool = False  # the member has an entry on this line (0 points included)


@dataclass
class Row:
    line: WashbookLine
    cells: list[Cell]
    plus: int
    minus: int
    deal: int | None = None  # the deal's number within its game (L5); None for a reversal

    @property
    def deal_label(self) -> str:
        """ "Game 2, deal 3": the numbering the table page uses too; with how the deal
        ended, where the game names its endings and the result said it ("· A drop (T9)")."""
        if self.deal is None:
            return ""
        label = gettext("Game %(game)s, deal %(deal)s") % {
            "game": self.line.game_number,
            "deal": self.deal,
        }
        ending = (self.line.detail or {}).get("ending")
        if ending:
            try:
                end = find_variant(self.line.table.variant).ending(str(ending))
            except InvalidActionError:
                return label
            label += f" · {end.label.split(':')[0]} ({end.law})"
        return label

    @property
    def proves(self) -> bool:
        return self.plus == self.minus


@dataclass
class Book:
    columns: list[Member]
    rows: list[Row] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    @property
    def total_plus(self) -> int:
        return sum(t for t in self.totals if t > 0)

    @property
    def total_minus(self) -> int:
        return -sum(t for t in self.totals if t < 0)

    @property
    def proves(self) -> bool:
        return self.total_plus == self.total_minus and all(r.proves for r in self.rows)


def build(lines: QuerySet[WashbookLine], seat_order: list[int] | None = None) -> Book:
    """Lay out the lines: a plus and a minus column per player, running totals carried."""
    lines = lines.select_related("table", "reverses", "reversed_by").prefetch_related(
        Prefetch("entries", queryset=WashbookEntry.objects.order_by("position", "pk"))
    )
    rows_data = list(lines)
    order: list[int] = list(seat_order or [])
    for line in rows_data:
        for e in line.entries.all():
            if e.member_id not in order:
                order.append(e.member_id)
    members = Member.objects.in_bulk(order)
    book = Book(columns=[members[m] for m in order if m in members])
    index = {m.pk: i for i, m in enumerate(book.columns)}
    deals = _deal_numbers(rows_data)
    running = [0] * len(book.columns)
    for line in rows_data:
        points = [0] * len(book.columns)
        present = [False] * len(book.columns)
        for e in line.entries.all():
            points[index[e.member_id]] += e.points
            present[index[e.member_id]] = True
        cells = []
        for i, p in enumerate(points):
            running[i] += p
            cells.append(
                Cell(
                    plus=p if present[i] and p > 0 else None,
                    minus=-p if present[i] and p < 0 else None,
                    total=running[i],
                    present=present[i],
                )
            )
        book.rows.append(
            Row(
                line=line,
                cells=cells,
                plus=sum(p for p in points if p > 0),
                minus=-sum(p for p in points if p < 0),
                deal=deals.get(line.pk),
            )
        )
    book.totals = running
    return book


def _deal_numbers(lines: list[WashbookLine]) -> dict[int, int]:
    """Each deal or tableau line's number within its table's game, counted in line order; a
    line that corrects another takes that one's number; a reversal has none."""
    out: dict[int, int] = {}
    counted: dict[tuple[int, int], int] = {}
    for line in sorted(lines, key=lambda x: (x.table_id, x.number)):
        if line.kind == WashbookLine.REVERSAL:
            continue
        if line.corrects_id is not None and line.corrects_id in out:
            out[line.pk] = out[line.corrects_id]
            continue
        key = (line.table_id, line.game_number)
        counted[key] = counted.get(key, 0) + 1
        out[line.pk] = counted[key]
    return out


def seat_order(table_id: int) -> list[int]:
    return list(
        Seat.objects.filter(table_id=table_id)
        .order_by("position")
        .values_list("member_id", flat=True)
    )


#: What a spreadsheet reads as the start of a formula (or a cell split by a control
#: character): a text cell that starts so is written with a leading apostrophe (OWASP's
#: "CSV injection" advice), so a member named "=HYPERLINK(...)" stays a name.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as written: text starting with a formula's first
    character gets a leading apostrophe. Numbers are written as numbers (a negative
    total is a number, never a formula), so a treasurer's sums still work.

    >>> safe_cell("=1+1"), safe_cell("@SUM(A1)"), safe_cell("Ann"), safe_cell(-14)
    ("'=1+1", "'@SUM(A1)", 'Ann', -14)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` with every text cell passed through :func:`safe_cell`."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out)

    def writerow(self, row: list[object]) -> None:
        self._w.writerow([safe_cell(v) for v in row])


def to_csv(book: Book, unstaked: dict[int, str] | None = None) -> str:
    """The washbook for a spreadsheet: each line's date, table, line, kind, game, deal
    number, dealer (where the deal was dealt here), winner, value, each member's plus,
    minus and running total, whether its table is staked (``unstaked``: the tables
    balancing leaves out, and why), the rules its table played under (issue 43) and its
    notes (a physical result's note, a correction's reason); then the proof row. Text
    cells are escaped (:func:`safe_cell`).

    A spreadsheet can total it (issue 53, item 5): running totals are carried per table
    (an evening's CSV holds several; a member has no total at a table he has not played
    at), "staked" says which rows are money ("no" rows: a computer player's table, a
    voided or practice one), and the proof row sits under the plus and minus columns:
    each member's plus and minus summed, his net under his total, and in its notes the
    sums of all plus and all minus columns, which are equal."""
    from club.services import money

    unstaked = unstaked or {}
    out = io.StringIO()
    w = SafeWriter(out)
    # The headers in the exporter's language (issue 82); the values stay plain.
    head = [
        pgettext("csv column", "date"),
        pgettext("csv column", "table"),
        pgettext("csv column", "line"),
        pgettext("csv column", "kind"),
        pgettext("csv column", "game"),
        pgettext("csv column", "deal"),
        pgettext("csv column", "dealer"),
        pgettext("csv column", "winner"),
        pgettext("csv column", "value"),
    ]
    for m in book.columns:
        named = {"member": m.display_name}
        head += [
            pgettext("csv column", "%(member)s +") % named,
            pgettext("csv column", "%(member)s -") % named,
            pgettext("csv column", "%(member)s total") % named,
        ]
    # Money at the evening's stake beside the points (issue 81, item 5): each member's
    # net points on the line times the stake, on staked rows only.
    head += [
        pgettext("csv column", "%(member)s money (%(sign)s)")
        % {"member": m.display_name, "sign": money.symbol()}
        for m in book.columns
    ]
    w.writerow(
        [
            *head,
            pgettext("csv column", "stake"),
            pgettext("csv column", "staked"),
            pgettext("csv column", "rules"),
            pgettext("csv column", "notes"),
        ]
    )
    cent = money.unit()
    stakes = _stakes(book)
    cash = [Decimal(0)] * len(book.columns)
    rules: dict[int, str] = {}
    names = {m.pk: m.display_name for m in book.columns}
    running: dict[tuple[int, int], int] = {}  # (table, column) -> total at that table
    plus = [0] * len(book.columns)
    minus = [0] * len(book.columns)
    for row in book.rows:
        line = row.line
        best = max((c.plus or 0 for c in row.cells), default=0)
        winners = [m.display_name for m, c in zip(book.columns, row.cells, strict=True)
                   if best and c.plus == best]  # fmt: skip
        rec: list[object] = [
            timezone.localtime(line.created_at).date().isoformat(),
            line.table.number,
            line.number,
            line.kind,
            line.game_number,
            "" if row.deal is None else row.deal,
            _dealer(line, names),
            " and ".join(winners) if line.kind == WashbookLine.DEAL else "",
            line.value,
        ]
        for i, c in enumerate(row.cells):
            key = (line.table_id, i)
            if c.present or key in running:
                running[key] = running.get(key, 0) + (c.plus or 0) - (c.minus or 0)
            plus[i] += c.plus or 0
            minus[i] += c.minus or 0
            rec += [c.plus or "", c.minus or "", running.get(key, "")]
        if line.table_id not in rules:
            rules[line.table_id] = _rules(line.table)
        why = unstaked.get(line.table_id)
        stake = None if why else stakes.get(line.table_id)
        for i, c in enumerate(row.cells):
            net = (c.plus or 0) - (c.minus or 0)
            if stake is None or not (c.plus or c.minus):
                rec.append("")
                continue
            amount = (stake * net).quantize(cent)
            cash[i] += amount
            rec.append(amount)
        note = _notes(line)
        if why:
            note = f"not staked: {why}" + (f"; {note}" if note else "")
        w.writerow([*rec, "" if stake is None else _plain_stake(stake), "no" if why else "yes",
                    rules[line.table_id], note])  # fmt: skip
    proof: list[object] = ["proof", *([""] * 8)]
    for i, total in enumerate(book.totals):
        proof += [plus[i], minus[i], total]
    proof += list(cash)
    w.writerow(
        [*proof, "", "", "", f"plus columns {sum(plus)} = minus columns {sum(minus)}; "
         f"final totals +{book.total_plus} = -{book.total_minus}; "
         f"money columns sum to {sum(cash, Decimal(0)).quantize(cent)}"]
    )  # fmt: skip
    return out.getvalue()


def _plain_stake(stake: Decimal) -> Decimal:
    """A stake as a person writes it: 0.05 (stored as 0.0500), 0.125 as it is."""
    cents = stake.quantize(Decimal("0.01"))
    return cents if cents == stake else stake.normalize()


def _stakes(book: Book) -> dict[int, Decimal]:
    """Each staked table's stake a point: its evening's (a practice table has none)."""
    tables = {row.line.table for row in book.rows}
    evenings = dict(
        ClubSession.objects.filter(pk__in={t.session_id for t in tables if t.session_id})
        .values_list("pk", "stake")
    )  # fmt: skip
    return {
        t.pk: evenings[t.session_id]
        for t in tables
        if t.session_id in evenings and not t.is_practice
    }


def _rules(table: Table) -> str:
    """The game and the rules the table played under (issue 43): its one name (issue 79),
    its house rules and their options ("Cooncan, Dalton rules: Jokers: ...")."""
    from club.services.house_rules import rules_label

    try:
        return f"{find_variant(table.variant).display_name}, {rules_label(table)}"
    except InvalidActionError:
        return "options that do not fit the game"


def _dealer(line: WashbookLine, names: dict[int, str]) -> str:
    """Who dealt a deal played here (its seat among the line's players); blank for a
    result entered from real cards, which does not say."""
    detail = line.detail or {}
    seat, players = detail.get("dealer"), detail.get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        return names.get(players[seat], "")
    return ""


def _notes(line: WashbookLine) -> str:
    detail = line.detail or {}
    if "reverses" in detail:
        return f"reverses line {detail['reverses']}: {detail.get('reason', '')}"
    if "corrects" in detail:
        return f"corrects line {detail['corrects']}: {detail.get('reason', '')}"
    return str(detail.get("note") or "")


def chart(points: list[Decimal], width: int = 320, height: int = 120) -> dict[str, object]:
    """An SVG polyline of a running balance (drawn server-side; no script needed)."""
    values = [Decimal(0), *points]
    low, high = min(values), max(values)
    span = (high - low) or Decimal(1)
    pad = 6
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    coords = []
    for i, v in enumerate(values):
        x = pad + i * step
        y = pad + float((high - v) / span) * (height - 2 * pad)
        coords.append(f"{x:.1f},{y:.1f}")
    zero_y = pad + float(high / span) * (height - 2 * pad)
    return {
        "width": width,
        "height": height,
        "points": " ".join(coords),
        "zero_y": f"{zero_y:.1f}",
        "low": low,
        "high": high,
        "count": len(points),
    }


def balances_csv(
    rows: list[tuple[Member, Decimal, Decimal]], club: Decimal, others: Decimal = Decimal(0)
) -> str:
    """The member-balances CSV: each member, whether a guest, whether still in the club,
    since when, and his balance in the club's currency in its two parts, with other
    members and with the club (positive: the club's books owe him; negative: he owes);
    then the club's own account, anyone else's balances (the staff who played), and the
    total, zero (issue 81: the members' column came to what the club was owed, with no
    club row). Text cells are escaped (:func:`safe_cell`)."""
    from club.services import money

    out = io.StringIO()
    w = SafeWriter(out)
    sign = money.symbol()
    w.writerow(
        [
            pgettext("csv column", "member"),
            pgettext("csv column", "guest"),
            pgettext("csv column", "active"),
            pgettext("csv column", "joined"),
            pgettext("csv column", "with members (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "with the club (%(sign)s)") % {"sign": sign},
            pgettext("csv column", "balance (%(sign)s)") % {"sign": sign},
        ]
    )
    unit = money.unit()
    total = club + others
    for m, with_members, with_club in rows:
        total += with_members + with_club
        w.writerow(
            [m.display_name, "yes" if m.is_guest else "no", "yes" if m.active else "no",
             m.joined.isoformat() if m.joined else "", with_members.quantize(unit),
             with_club.quantize(unit), (with_members + with_club).quantize(unit)]
        )  # fmt: skip
    w.writerow(["the club's own account", "", "", "", "", "", club.quantize(unit)])
    if others:
        w.writerow(["others (staff who played)", "", "", "", "", "", others.quantize(unit)])
    w.writerow(["total (members and the club: zero)", "", "", "", "", "", total.quantize(unit)])
    return out.getvalue()


@dataclass(frozen=True)
class StatementLine:
    """A line of a member's full statement (issue 42, item 4): a posting of money, with
    the running balance after it, or one of his deals (points, no money of its own) listed
    under the balancing that turned its evening's points into money."""

    when: date  # a deal's time, or the day a posting belongs to
    evening: str  # the evening it belongs to; "" for a payment outside one
    table: str  # "Table 2" for a deal or an adjustment's line; ""
    text: str
    points: int | None = None
    amount: Decimal | None = None
    running: Decimal | None = None

    @property
    def is_deal(self) -> bool:
        return self.amount is None


def deal_text(line: WashbookLine) -> str:
    """A washbook line in words: "line 3, a deal"; a reversal or a correction says what
    it reverses or corrects, and why."""
    reason = (line.detail or {}).get("reason", "")
    why = f": {reason}" if reason else ""
    if line.kind == WashbookLine.REVERSAL and line.reverses is not None:
        return f"line {line.number}, reversing line {line.reverses.number}{why}"
    if line.corrects is not None:
        return f"line {line.number}, correcting line {line.corrects.number}{why}"
    return f"line {line.number}, {line.get_kind_display()}"
