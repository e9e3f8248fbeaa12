"""Correcting a washbook line (issue 29, item 1): append-only, the secretary's work, with a
reason; never moving the deal count or the dealer on again; after balancing, an adjustment
to the money of exactly the members the correction changes, every posting at zero."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Leg, Member, Posting, Seat, Table, Transfer, WashbookLine
from club.money.settlement import minimum_transfers
from club.services.base import ClubError
from club.services.ledger import (
    balance_of,
    balance_session,
    outstanding,
    session_money,
    verify_balances,
)
from club.services.payments import record_payment
from club.services.seating import table_seating
from club.services.sessions import check_in, close_session, void_session
from club.services.tables import current_dealer, form_table
from club.services.washbook import (
    PhysicalResult,
    correct_line,
    enter_physical_result,
    line_players,
    post_online_deal,
)

from .conftest import field_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(
    session: ClubSession, make_members: Callable[..., list[Member]]
) -> tuple[Table, list[Member]]:
    for m in make_members(4):
        check_in(session, m)
    table = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    players = [s.member for s in Seat.objects.filter(table=table).order_by("position")]
    return table, players


def _where(table: Table) -> tuple[int, int, int, int, int]:
    table.refresh_from_db()
    return (
        table.game_number,
        table.deal_in_game,
        table.deals_played,
        table.dealer_position,
        current_dealer(table.pk),
    )


def _postings_at_zero() -> None:
    sums = Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0)
    assert not sums.exists(), list(sums)
    assert verify_balances() == []


def test_reverse_and_correct_leaves_the_deal_count_and_the_dealer_where_they_were(
    four: tuple[Table, list[Member]],
) -> None:
    """Issue 29's first acceptance test: the deal was played once; only its booking was
    wrong, so the correction posts two lines and moves nothing on (L5: the deal passes to
    the left once per deal)."""
    table, (a, b, c, d) = four
    first = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 50, c.pk: 4, d.pk: 2})
    )
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=b.pk, losses={a.pk: 3, c.pk: 4, d.pk: 5})
    )
    before = _where(table)
    assert before[2] == 2  # two deals played, the deal passed twice
    done = correct_line(
        first.pk,
        reason="Ann's 50 was 5",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 4, d.pk: 2}),
    )
    assert _where(table) == before
    assert done.line is not None and done.line.corrects == first
    assert done.reversal.detail["reason"] == "Ann's 50 was 5"
    assert done.adjustment is None  # the evening is open: the balancing will count it
    # The next deal is entered as the third, dealt by the next dealer.
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=c.pk, losses={a.pk: 1, b.pk: 1, d.pk: 1})
    )
    assert _where(table)[2] == 3
    totals = dict(
        WashbookLine.objects.filter(table=table)
        .values_list("entries__member_id")
        .annotate(Sum("entries__points"))
    )
    assert totals[b.pk] == -5 + 12 - 1  # the corrected 5, not the misread 50


def test_reverse_only_posts_no_new_line_and_moves_nothing(
    four: tuple[Table, list[Member]],
) -> None:
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0})
    )
    before = _where(table)
    done = correct_line(line.pk, reason="entered at the wrong table")
    assert done.line is None
    assert _where(table) == before
    assert dict(done.reversal.entries.values_list("member_id", "points")) == {a.pk: -5, b.pk: 5}


@pytest.mark.parametrize(
    ("reason", "result", "message"),
    [
        ("", None, "reason"),
        ("   ", None, "reason"),
        ("x" * 201, None, "under 200"),
        ("misread", "winner-with-cards", "no cards left"),
        ("misread", "too-many-pips", "cannot hold"),
        ("misread", "stranger", "not seated"),
        ("misread", "blank", "played this deal: give the pips"),
    ],
)
def test_a_bad_correction_is_refused_and_changes_nothing(
    four: tuple[Table, list[Member]],
    make_members: Callable[..., list[Member]],
    reason: str,
    result: str | None,
    message: str,
) -> None:
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0})
    )
    stranger = make_members(1, "x")[0]
    results = {
        "winner-with-cards": PhysicalResult(
            winner_id=a.pk, losses={a.pk: 3, b.pk: 5, c.pk: 0, d.pk: 0}
        ),
        "too-many-pips": PhysicalResult(winner_id=a.pk, losses={b.pk: 10_000, c.pk: 0, d.pk: 0}),
        "blank": PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0}),
        "stranger": PhysicalResult(winner_id=stranger.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0}),
    }
    before = (_where(table), list(WashbookLine.objects.values_list("pk", flat=True)))
    with pytest.raises(ClubError, match=message):
        correct_line(line.pk, reason=reason, result=results[result] if result else None)
    after = (_where(table), list(WashbookLine.objects.values_list("pk", flat=True)))
    assert after == before


def test_a_correction_counts_the_players_of_the_deal_not_those_seated_now(
    four: tuple[Table, list[Member]],
) -> None:
    """The line records who played it: a correction is refused for a member who was not
    there, even once he sits at the table."""
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0})
    )
    assert line_players(line) == [a, b, c, d]
    # c had 0 pips: he is no entry of the line, yet a player of the deal.
    done = correct_line(
        line.pk,
        reason="c had 4",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 4, d.pk: 0}),
    )
    assert done.line is not None
    assert dict(done.line.entries.values_list("member_id", "points")) == {
        a.pk: 9,
        b.pk: -5,
        c.pk: -4,
    }


def _balanced(session: ClubSession, table: Table, players: list[Member]) -> list[WashbookLine]:
    a, b, c, d = players
    lines = [
        enter_physical_result(
            table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 10, c.pk: 3, d.pk: 0})
        ),
        enter_physical_result(
            table.pk, PhysicalResult(winner_id=d.pk, losses={a.pk: 7, b.pk: 2, c.pk: 9})
        ),
    ]
    assert close_session(session.pk, queue=False)
    assert balance_session(session.pk).posted
    return lines


def test_after_balancing_an_adjustment_changes_exactly_the_members_it_names(
    session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    """Issue 29's second acceptance test: b's 10 pips were 4; a won 6 fewer points, b lost 6
    fewer. At 0.05 a point: a pays back 0.30, b gets 0.30; c and d are untouched."""
    table, players = four
    a, b, c, d = players
    first, _ = _balanced(session, table, players)
    before = {m.pk: balance_of(m) for m in players}
    money_before = session_money(session.pk)
    done = correct_line(
        first.pk,
        reason="b's hand was 4, not 10",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 4, c.pk: 3, d.pk: 0}),
    )
    assert done.adjustment is not None
    adjustment = done.adjustment
    assert adjustment.kind == Posting.ADJUSTMENT and adjustment.session_id == session.pk
    assert "b's hand was 4, not 10" in adjustment.memo and "line 1" in adjustment.memo
    legs = dict(adjustment.legs.values_list("account__member_id", "amount"))
    assert legs == {a.pk: Decimal("-0.30"), b.pk: Decimal("0.30")}
    after = {m.pk: balance_of(m) for m in players}
    assert {m: after[m] - before[m] for m in after if after[m] != before[m]} == legs
    _postings_at_zero()
    # Nothing was paid yet, so the evening is settled again as one set (issue 42, item 5):
    # a is square (0.00), b pays 0.30 and c 0.60, both to d: two transfers, not 3 + 1.
    transfers = list(Transfer.objects.filter(session=session))
    assert sorted((t.payer_id, t.payee_id, t.amount, t.adjustment_id) for t in transfers) == sorted(
        [
            (b.pk, d.pk, Decimal("0.30"), adjustment.pk),
            (c.pk, d.pk, Decimal("0.60"), adjustment.pk),
        ]
    )
    money = session_money(session.pk)
    assert money[a.pk] == money_before[a.pk] - Decimal("0.30")
    assert money[c.pk] == money_before[c.pk] and money[d.pk] == money_before[d.pk]
    # The balancing itself stays posted once; the washbook keeps every line.
    assert Posting.objects.filter(session=session, kind=Posting.SESSION_BALANCE).count() == 1
    assert WashbookLine.objects.filter(table=table).count() == 4
    session.refresh_from_db()
    assert session.status == ClubSession.BALANCED


def test_a_correction_between_the_close_and_the_balancing_is_counted_by_the_balancing(
    session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    """The evening closed, its balancing queued: the corrected line is simply counted."""
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 10, c.pk: 3, d.pk: 0})
    )
    assert close_session(session.pk, queue=False)
    done = correct_line(
        line.pk,
        reason="b held 4",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 4, c.pk: 3, d.pk: 0}),
    )
    assert done.adjustment is None
    assert balance_session(session.pk).posted
    assert session_money(session.pk) == {
        a.pk: Decimal("0.35"),
        b.pk: Decimal("-0.20"),
        c.pk: Decimal("-0.15"),
    }
    assert not Posting.objects.filter(kind=Posting.ADJUSTMENT).exists()
    _postings_at_zero()


def test_a_reversal_after_balancing_takes_the_whole_line_back(
    session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    table, players = four
    a, b, c, d = players
    _, second = _balanced(session, table, players)  # d won 18: a 7, b 2, c 9
    done = correct_line(second.pk, reason="a deal that was never played")
    assert done.adjustment is not None
    legs = dict(done.adjustment.legs.values_list("account__member_id", "amount"))
    assert legs == {
        d.pk: Decimal("-0.90"),
        a.pk: Decimal("0.35"),
        b.pk: Decimal("0.10"),
        c.pk: Decimal("0.45"),
    }
    _postings_at_zero()


def test_a_correction_that_changes_no_points_posts_no_adjustment(
    session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    table, players = four
    a, b, c, d = players
    first, _ = _balanced(session, table, players)
    done = correct_line(
        first.pk,
        reason="the note was wrong",
        result=PhysicalResult(
            winner_id=a.pk, losses={b.pk: 10, c.pk: 3, d.pk: 0}, note="the right note"
        ),
    )
    assert done.adjustment is None
    assert not Posting.objects.filter(kind=Posting.ADJUSTMENT).exists()


def test_voided_and_cancelled_washbooks_stand_as_they_are(
    session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0})
    )
    void_session(session.pk, "a practice night")
    with pytest.raises(ClubError, match="voided"):
        correct_line(line.pk, reason="misread")
    assert WashbookLine.objects.filter(table=table).count() == 1


# --- The form on the washbook -----------------------------------------------------------


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _snapshot(table: Table) -> tuple[object, ...]:
    return (
        _where(table),
        list(WashbookLine.objects.order_by("pk").values_list("pk", flat=True)),
        list(Leg.objects.order_by("pk").values_list("pk", "amount")),
        list(Transfer.objects.order_by("pk").values_list("pk", flat=True)),
    )


def test_the_washbook_offers_the_secretary_a_correction_and_members_none(
    staff: Client,
    client: Client,
    four: tuple[Table, list[Member]],
) -> None:
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk,
        PhysicalResult(winner_id=a.pk, losses={b.pk: 50, c.pk: 3, d.pk: 0}, note="a long deal"),
    )
    url = reverse("club:line_correct", args=[line.pk])
    washbook = staff.get(reverse("club:washbook", args=[table.pk])).content.decode()
    assert f'href="{url}"' in washbook
    page = staff.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    text = _text(body)
    assert "As booked" in text and f"{a.display_name} +53" in text
    # The form starts from the line as it was booked.
    assert re.search(rf'name="winner"[^>]*>.*?<option value="{a.pk}" selected', body, re.S)
    assert f'name="pips_{b.pk}" value="50"' in body and f'name="pips_{d.pk}" value="0"' in body
    assert 'value="a long deal"' in body
    member = Client()
    member.force_login(b.user)
    assert (
        f'href="{url}"'
        not in member.get(reverse("club:washbook", args=[table.pk])).content.decode()
    )
    assert member.get(url).status_code == 403


def test_correcting_through_the_form_posts_two_lines_and_moves_nothing_on(
    staff: Client, four: tuple[Table, list[Member]]
) -> None:
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 50, c.pk: 3, d.pk: 0})
    )
    before = _where(table)
    r = staff.post(
        reverse("club:line_correct", args=[line.pk]),
        {
            "reason": "50 was 5",
            "winner": a.pk,
            f"pips_{b.pk}": 5,
            f"cards_{c.pk}": "3H",
            f"pips_{d.pk}": 0,
        },
    )
    assert r.status_code == 302 and r["Location"].endswith(f"#line-{line.number}")
    assert _where(table) == before
    corrected = WashbookLine.objects.get(corrects=line)
    assert dict(corrected.entries.values_list("member_id", "points")) == {
        a.pk: 8,
        b.pk: -5,
        c.pk: -3,
    }
    washbook = _text(staff.get(reverse("club:washbook", args=[table.pk])).content.decode())
    assert "reverses line 1: 50 was 5" in washbook and "corrects line 1" in washbook


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"reason": "", "winner": "A"}, "reason", "Give the reason"),
        ({"reason": "misread"}, "winner", "Choose who went out"),
        ({"reason": "misread", "winner": "A", "pips_B": "lots"}, "pips_B", "whole number"),
        ({"reason": "misread", "winner": "A", "pips_A": "4"}, "pips_A", "no cards left"),
        ({"reason": "misread", "winner": "A", "pips_B": "900"}, "pips_B", "cannot hold 900"),
        ({"reason": "misread", "winner": "A", "cards_B": "ZZ"}, "cards_B", "not a card"),
        ({"reason": "x" * 201, "reverse_only": "on"}, "reason", "at most 200"),
    ],
)
def test_a_bad_correction_form_is_shown_in_place_and_changes_nothing(
    staff: Client,
    four: tuple[Table, list[Member]],
    data: dict[str, str],
    field: str,
    message: str,
) -> None:
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0})
    )
    names = {"A": a.pk, "B": b.pk}

    def real(text: str) -> str:
        for k, v in names.items():
            text = text.replace(f"_{k}", f"_{v}")
        return str(names.get(text, text))

    posted = {real(k): real(v) for k, v in data.items()}
    before = _snapshot(table)
    r = staff.post(reverse("club:line_correct", args=[line.pk]), posted)
    assert r.status_code == 400
    assert message in field_error(r.content.decode(), real(field)), r.content.decode()[:3000]
    assert _snapshot(table) == before


def test_a_line_already_reversed_says_so_and_takes_no_second_correction(
    staff: Client, four: tuple[Table, list[Member]]
) -> None:
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 5, c.pk: 0, d.pk: 0})
    )
    correct_line(line.pk, reason="first")
    before = _snapshot(table)
    url = reverse("club:line_correct", args=[line.pk])
    assert "already been reversed" in _text(staff.get(url).content.decode())
    r = staff.post(url, {"reason": "again", "reverse_only": "on"})
    assert r.status_code == 400 and "already been reversed" in _text(r.content.decode())
    assert _snapshot(table) == before


def test_after_balancing_the_statement_and_the_settlement_show_the_adjustment(
    staff: Client, session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    table, players = four
    a, b, c, d = players
    first, _ = _balanced(session, table, players)
    url = reverse("club:line_correct", args=[first.pk])
    assert "posted to the members' money as an adjustment" in _text(staff.get(url).content.decode())
    r = staff.post(
        url,
        {
            "reason": "b held 4",
            "winner": a.pk,
            f"pips_{b.pk}": 4,
            f"pips_{c.pk}": 3,
            f"pips_{d.pk}": 0,
        },
    )
    assert r.status_code == 302
    statement = _text(
        staff.get(reverse("club:statement", args=[b.pk, session.pk])).content.decode()
    )
    # His balancing as it was posted (-12 points: -0.60), then the adjustment with its reason.
    assert "your -12 points at" in statement
    assert "adjustment: Table 1, line 1 corrected after balancing: b held 4 £0.30" in statement
    assert "reversal of line 1: b held 4" in statement and "correcting line 1" in statement
    assert "Net for the evening -£0.30" in statement
    settlement = _text(staff.get(reverse("club:settlement", args=[session.pk])).content.decode())
    # Nothing was paid: the evening is settled again as one set (issue 42, item 5).
    assert (
        f"{b.display_name} {d.display_name} £0.30 the evening, settled again after "
        "Table 1, line 1 corrected after balancing: b held 4" in settlement
    )
    assert (
        "2 transfers" in settlement
        and a.display_name not in settlement.split("Pays")[1].split("Each member")[0]
    )
    # His own page lists both postings of every evening: the balancing as posted, then the
    # adjustment, named by its evening.
    member_page = _text(staff.get(reverse("club:member", args=[b.pk])).content.decode())
    assert f"{session}: your -12 points at" in member_page
    assert f"{session}: Table 1, line 1 corrected after balancing: b held 4 £0.30" in member_page
    _postings_at_zero()


def test_an_online_line_in_game_points_is_corrected_in_game_points(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """Conquián for two scores the game (1, and any carry from tableaux: book p.55), not
    pips: its correction asks for game points, with no cards to count."""
    ann, bob = make_members(2)
    for m in (ann, bob):
        check_in(session, m)
    table = form_table(session, variant="conquian", candidates=[ann, bob])
    seats = {s.position: s.member_id for s in table_seating(table.pk)}
    winner, loser = seats[0], seats[1]
    line = post_online_deal(
        table.pk,
        deal_key="deal:x",
        points={0: 2, 1: -2},
        detail={"kind": "out", "winner": 0, "scoring": "game-points", "carried": 0},
    )
    url = reverse("club:line_correct", args=[line.pk])
    body = staff.get(url).content.decode()
    assert "game points paid" in body and "cards left in hand" not in body
    assert f'name="pips_{loser}" value="2"' in body
    before = _where(table)
    r = staff.post(url, {"reason": "no tableau before it", "winner": winner, f"pips_{loser}": 1})
    assert r.status_code == 302
    corrected = WashbookLine.objects.get(corrects=line)
    assert dict(corrected.entries.values_list("member_id", "points")) == {winner: 1, loser: -1}
    assert _where(table) == before
    bad = staff.post(url, {"reason": "again", "winner": winner, f"pips_{loser}": "one"})
    assert bad.status_code == 400  # the line is reversed now: nothing more is posted
    assert WashbookLine.objects.filter(table=table).count() == 3


def _cleared(session: ClubSession) -> dict[int, Decimal]:
    """Each member's money for the evening once every transfer on the settlement is paid."""
    rest = dict(session_money(session.pk))
    for t in Transfer.objects.filter(session=session):
        rest[t.payer_id] += t.amount
        rest[t.payee_id] -= t.amount
    return {m: v for m, v in rest.items() if v}


def test_a_correction_settles_the_evening_again_as_one_set_and_keeps_what_was_paid(
    staff: Client, session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    """Issue 42, item 5: after a paid transfer, a correction replaces the unpaid transfers by
    the fewest that clear what is still owed; the paid one stays as it was, and the
    settlement's header counts the transfers as they stand."""
    table, players = four
    a, b, c, d = players
    first, _ = _balanced(session, table, players)  # a +0.30, b -0.60, c -0.60, d +0.90
    before = list(Transfer.objects.filter(session=session))
    assert len(before) == 3 and not _cleared(session)
    paid = before[0]
    record_payment(paid.pk)
    correct_line(
        first.pk,
        reason="b held 4",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 4, c.pk: 3, d.pk: 0}),
    )
    after = list(Transfer.objects.filter(session=session))
    kept = [t for t in after if t.paid]
    assert [(t.pk, t.payer_id, t.payee_id, t.amount) for t in kept] == [
        (paid.pk, paid.payer_id, paid.payee_id, paid.amount)
    ]
    unpaid = [t for t in after if not t.paid]
    rest = outstanding(session.pk)
    assert len(unpaid) == minimum_transfers({m: int(v * 100) for m, v in rest.items()})
    assert all(t.adjustment_id is not None for t in unpaid)
    assert not _cleared(session)  # paying the settlement as it stands clears the evening
    page = _text(staff.get(reverse("club:settlement", args=[session.pk])).content.decode())
    assert f"{len(after)} transfers, 1 paid" in page
    assert "settled again after Table 1, line 1 corrected after balancing: b held 4" in page
    _postings_at_zero()


def test_a_payment_of_a_transfer_settled_again_is_refused_and_changes_nothing(
    staff: Client, session: ClubSession, four: tuple[Table, list[Member]]
) -> None:
    """The secretary's page was shown before the correction: its "Mark paid" names a
    transfer that is no longer there. A clear refusal, nothing posted."""
    table, players = four
    a, b, c, d = players
    first, _ = _balanced(session, table, players)
    stale = Transfer.objects.filter(session=session).first()
    assert stale is not None
    correct_line(
        first.pk,
        reason="b held 4",
        result=PhysicalResult(winner_id=a.pk, losses={b.pk: 4, c.pk: 3, d.pk: 0}),
    )
    postings = Posting.objects.count()
    r = staff.post(reverse("club:transfer_pay", args=[stale.pk]), {"session": session.pk})
    assert r.status_code == 400
    assert "settled again after a correction" in _text(r.content.decode())
    assert Posting.objects.count() == postings
    with pytest.raises(ClubError, match="no longer in the settlement"):
        record_payment(stale.pk)


def test_a_result_and_its_correction_are_audited_by_their_services(
    four: tuple[Table, list[Member]],
) -> None:
    """Issue 80, item 3: the services write the audit entry in their own transaction (the
    views did, so a result entered any other way was not in the audit log)."""
    from club.models import AuditEntry

    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 50, c.pk: 4, d.pk: 2})
    )
    correct_line(line.pk, reason="Ann's 50 was 5")
    said = list(
        AuditEntry.objects.filter(table=table)
        .exclude(action=AuditEntry.TABLE)  # the table's forming is audited too
        .order_by("pk")
        .values_list("action", "what", "why")
    )
    assert said == [
        (AuditEntry.RESULT, f"{table.label}: Line 1 posted to the washbook: "
         f"{a} +56, {d} -2, {c} -4, {b} -50.", ""),
        (AuditEntry.CORRECTION, f"{table.label}, line 1 reversed", "Ann's 50 was 5"),
    ]  # fmt: skip


def test_the_correction_form_opens_with_the_line_as_it_was_entered(
    staff: Client, four: tuple[Table, list[Member]]
) -> None:
    """Issue 81, item 6: a line entered as 40 pips plus 10 extra points (and another
    loser's cards) opens for correction as entered, each count in its own field; it
    opened as 50 pips and a blank extra, the cards turned into their pips."""
    table, (a, b, c, d) = four
    line = enter_physical_result(
        table.pk,
        PhysicalResult(
            winner_id=a.pk, losses={b.pk: 40, d.pk: 0}, cards={c.pk: "3H 4S"}, extra={b.pk: 10}
        ),
    )
    form = staff.get(reverse("club:line_correct", args=[line.pk])).context["form"]
    assert {k: v for k, v in form.initial.items() if k != "note"} == {
        "winner": a.pk,
        f"pips_{b.pk}": 40,
        f"extra_{b.pk}": 10,
        f"cards_{c.pk}": "3H 4S",
        f"pips_{d.pk}": 0,
    }
    # Posted back unchanged, the corrected line books the same points.
    r = staff.post(
        reverse("club:line_correct", args=[line.pk]),
        {"reason": "same again", **{k: v for k, v in form.initial.items() if v is not None}},
    )
    assert r.status_code == 302
    corrected = WashbookLine.objects.get(corrects=line)
    points = dict(line.entries.values_list("member_id", "points"))
    assert dict(corrected.entries.values_list("member_id", "points")) == points
    assert points == {a.pk: 57, b.pk: -50, c.pk: -7}
    # and the corrected line opens as entered too
    again = staff.get(reverse("club:line_correct", args=[corrected.pk])).context["form"]
    assert again.initial[f"extra_{b.pk}"] == 10 and again.initial[f"cards_{c.pk}"] == "3H 4S"
