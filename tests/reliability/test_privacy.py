"""Money kept private (issue 79, item 3): the settlement page showed every member's table
fee, what each still owed the club and who had paid to any member, even one who was not
at the evening. A member is shown the transfers between members and their own fee; the
fees block and "owed now" are the staff's.

The walk: every route of the site, its integer parts filled with every id of the
evening's rows, each read as a member who was not at the evening (and as CSV where a page
offers it). No page shows another member's fee, payment or balance: the amounts are
chosen so that none of them is also a result or a transfer of the evening."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from club.models import Posting, Table, Transfer
from club.services.base import create_member
from club.services.ledger import balance_of, balance_session, session_money
from club.services.payments import record_club_payment
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result

from .conftest import World
from .test_authorisation import _client
from .test_fuzz import patterns

pytestmark = pytest.mark.django_db

FEE = Decimal("1.37")
PAID = Decimal("2.91")


def _evening(world: World) -> dict[str, Any]:
    kate, leo, mia, ned = (
        create_member(f"priv-{n.lower()}", n) for n in ("Kate", "Leo", "Mia", "Ned")
    )
    evening = open_session(
        stake="0.05", by=world.secretary.user, name="Private", fee_member=str(FEE), second=True
    )
    for m in (kate, leo, mia, ned):
        check_in(evening, m)
    table = form_table(
        evening, variant="foster", size=4, mode=Table.PHYSICAL, candidates=[kate, leo, mia, ned]
    )
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=kate.pk, losses={leo.pk: 3, mia.pk: 1, ned.pk: 0})
    )
    assert close_session(evening.pk, queue=False)
    assert balance_session(evening.pk).posted
    record_club_payment(leo.pk, PAID, by=world.secretary.user, credit=True)
    return {"evening": evening, "table": table, "members": [kate, leo, mia, ned]}


def _forms(amount: Decimal) -> set[str]:
    """How a page may write an amount: 1.37, £1.37, -1.37, 1,37."""
    text = f"{amount:.2f}"
    return {text, text.replace(".", ",")}


def _paths(ids: list[int]) -> list[str]:
    out: list[str] = []
    for template in patterns():
        if template.startswith(("admin", "^")) or "<str:" in template or "<slug:" in template:
            continue
        slots = re.findall(r"<(?:int:)?\w+>", template)
        if any(not s.startswith("<int:") for s in slots):
            continue
        for combo in itertools.product(ids, repeat=len(slots)):
            path = template
            for value in combo:
                path = re.sub(r"<int:\w+>", str(value), path, count=1)
            out.append("/" + path)
    return out


def test_a_member_not_at_the_evening_sees_no_other_member_s_money(world: World) -> None:
    made = _evening(world)
    evening = made["evening"]
    # Amounts of the evening that are anyone's to see (results, transfers between members).
    public = set()
    for t in Transfer.objects.filter(session=evening):
        public |= _forms(t.amount)
    for amount in session_money(evening.pk).values():
        public |= _forms(abs(amount))
    # The evening's fee rate is public (its page says "table fee £1.37 a member"); what
    # each member paid, and each one's balance, is not.
    public |= _forms(FEE)
    private = _forms(PAID)
    for m in made["members"]:
        private |= _forms(abs(balance_of(m.pk)))
    private -= public | {"0.00", "0,00"}
    assert _forms(PAID) <= private and len(private) >= 6, private  # the test can see them
    # The staff see the fees block.
    staff_page = _client(world.secretary).get(f"/sessions/{evening.pk}/settlement/")
    assert (
        f"{FEE:.2f}" in staff_page.text and "Owes the club today, all evenings" in staff_page.text
    )

    outsider: Client = _client(world.idle)
    # The evening's own rows: the evening, its table, its members, the outsider, its
    # postings (the balancing, the fees, the payment) and a transfer.
    ids = sorted(
        {evening.pk, made["table"].pk, world.idle.pk, *(m.pk for m in made["members"]),
         *Posting.objects.filter(session=evening).values_list("pk", flat=True),
         *Posting.objects.filter(kind=Posting.PAYMENT).values_list("pk", flat=True)[:1],
         *Transfer.objects.filter(session=evening).values_list("pk", flat=True)[:1]}
    )  # fmt: skip
    read = 0
    for path in _paths(ids):
        for query in ("", "?format=csv") if path.count("/") <= 4 else ("",):
            r = outsider.get(path + query)
            if r.status_code != 200 or r.streaming:
                continue
            read += 1
            text = r.content.decode(errors="replace")
            leaked = sorted(
                a for a in private if re.search(rf"(?<![\d.,]){re.escape(a)}(?!\d)", text)
            )
            assert not leaked, (path + query, leaked)
    assert read > 30, read  # the walk read the site, not only refusals

    # The member who was there sees the transfers and their own fee, no one else's.
    kate = made["members"][0]
    mine = _client(kate).get(f"/sessions/{evening.pk}/settlement/").text
    assert "Your table fee" in mine and f"{FEE:.2f}" in mine
    assert "Owes the club today" not in mine and "Table fees to the club" not in mine
    leo = made["members"][1]
    assert leo.display_name not in mine.split("Your table fee")[1].split("</table>")[0]
