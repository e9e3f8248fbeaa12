"""A computer player at a club table (issue 27, item 2): formed by the secretary's cut,
it plays through the same service as a member, and its deal is booked in the washbook,
every line balancing, on a table balancing leaves out of money."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from club.models import WashbookLine
from club.services.base import create_member
from club.services.ledger import session_points, staked_tables
from club.services.seating import table_seating
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from games.models import Deal
from games.play import services
from games.play.moves import Move

from .helpers import state_of


def test_a_member_plays_a_whole_deal_against_a_computer_player_at_a_club_table(
    make_member: Any, no_celery: list[tuple[int, int]]
) -> None:
    secretary = create_member("sec", "Secretary", is_staff=True)
    session = open_session(stake=Decimal("0.05"), name="Tuesday", by=secretary.user)
    ann = make_member("Ann")
    check_in(session, ann)
    table = form_table(session, variant="conquian", computer_players=1)
    seating = table_seating(table.pk)
    me = next(s.position for s in seating if s.member_id == ann.pk)
    bot = 1 - me
    assert seating[bot].is_bot and not seating[me].is_bot

    deal = services.ensure_deal(table.pk)
    assert deal is not None
    rng = random.Random(5)
    bot_moves = 0
    for _ in range(400):
        deal = Deal.objects.get(pk=deal.pk)
        if deal.finished:
            break
        state = state_of(deal.pk)
        seat = state.to_move()
        if seat == bot:
            assert services.play_bot(deal.pk, deal.version) is True
            bot_moves += 1
            continue
        legal = state.legal_actions(seat)
        uses = [x for x in legal if x.type in ("use", "meld")]
        services.act(
            Move(
                table.pk,
                member_id=ann.pk,
                version=deal.version,
                deal_id=deal.pk,
                action=rng.choice(uses or legal).to_json(),
            )
        )
    assert deal.finished and bot_moves > 0
    line = WashbookLine.objects.get(deal_key=f"deal:{deal.pk}")
    members = {e.member_id for e in line.entries.all()}
    assert members <= {ann.pk, seating[bot].member_id}
    if line.kind == WashbookLine.DEAL:  # else a tableau (Conquián: the pack ran out): no entries
        assert line.entries.count() == 2
        assert line.entries.aggregate(s=Sum("points"))["s"] == 0
    else:
        assert line.kind == WashbookLine.TABLEAU and not line.entries.exists()
    assert table.pk not in staked_tables(session.pk)
    assert ann.pk not in session_points(session.pk)
