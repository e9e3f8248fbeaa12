"""What the clock does to deals: a call round closes when its time is up (Tonk's, TO5;
:mod:`.call_round`), and practice tables left idle too long are closed. Queued by
``games.tasks`` (a countdown for each round, and the periodic sweep for any lost)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import cast

from django.db import transaction
from django.utils import timezone

from games.bots import choose
from games.engine.actions import Action
from games.engine.protocol import CallRound

from ..models import Deal, DealAction
from . import call_round, club_api, engine_api, reading, services


def close_round(deal_id: int, *, early: bool = False) -> bool:
    """Close the deal's call round if its time is up (``early``: now, for tests): every
    player's answer applied through the engine in turn, each seat's call as kept on the
    deal, a computer player's as it chooses, every other hand letting the call go; then
    the table moves on. True only when this call closed it (a second close, or one
    queued twice, finds it closed and changes nothing)."""
    with transaction.atomic():
        table_id = Deal.objects.filter(pk=deal_id).values_list("table_id", flat=True).first()
        if table_id is None:
            return False
        club_api.lock_tables([table_id])  # the app's lock order: the table, then its deal
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        if not call_round.is_open(deal) or (call_round.seconds_left(deal) > 0 and not early):
            return False
        seating = club_api.table_seating(table_id)
        by_seat = {s.position: s for s in seating}
        state = reading.load_state(deal)
        rows = []
        while not state.is_over() and (seat := state.to_move()) is not None:
            choices = cast(CallRound, state).call_options(seat)
            if not choices:
                break
            info = by_seat.get(seat)
            a: Action = choices[-1]  # let it go
            if info is not None and info.is_bot:
                rng = random.Random(f"{deal.seed}:call:{seat}")
                a = choose(services.bot_level(table_id), state.player_view(seat), choices, rng)
            elif seat in deal.called and len(choices) > 1:
                a = choices[0]
            member = info.member_id if info is not None and a is choices[0] else None
            rows.append(
                DealAction(
                    deal=deal,
                    index=state.version,
                    seat=seat,
                    action=a.to_json(),
                    by_member_id=member,
                )  # fmt: skip
            )
            state.apply(a)
        DealAction.objects.bulk_create(rows)
        deal.version = state.version
        deal.to_move = state.to_move()
        deal.snapshot = engine_api.to_snapshot(state)
        deal.moved_at = timezone.now()
        deal.bot_turn = deal.to_move is not None and deal.to_move in {
            s.position for s in seating if s.is_bot
        }
        fields = ["version", "to_move", "snapshot", "moved_at", "bot_turn"]
        following = None
        if state.is_over():
            fields += ["finished", "outcome", "finished_at", "washbook_line_id"]
            following = services.finish_deal(deal, state)
        deal.save(update_fields=fields)
        services.after_commit(following or deal, seating, state if following is None else None)
    return True


def close_overdue(now: datetime | None = None) -> int:
    """Every call round whose time is up and that is still open (a lost countdown, a
    restarted worker): closed now. Returns how many."""
    due = Deal.objects.filter(
        finished=False, version=0, call_round_until__lte=now or timezone.now()
    ).values_list("pk", flat=True)
    return sum(close_round(pk) for pk in list(due))


def open_rounds() -> list[tuple[int, float]]:
    """The call rounds open now, each with the seconds until it closes."""
    now = timezone.now()
    return [
        (pk, max(0.0, (until - now).total_seconds()))
        for pk, until in Deal.objects.filter(
            finished=False, version=0, call_round_until__gt=now
        ).values_list("pk", "call_round_until")
    ]


def close_idle_practice(before: datetime) -> list[int]:
    """Practice tables whose deal in progress has not moved since ``before`` are closed
    (the club closes them; their deals stop). Returns their ids."""
    ids = sorted(
        set(
            Deal.objects.filter(
                finished=False, moved_at__lt=before, table__is_practice=True
            ).values_list("table_id", flat=True)
        )
    )
    if ids:
        club_api.close_practice_tables(ids, "Closed after a long time without a move.")
    return ids
