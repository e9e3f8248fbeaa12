"""Helpers for the games tests: deals in known states, reading a deal's stored state."""

from __future__ import annotations

import random
import re
from typing import Any

from games.models import Deal, DealAction
from games.play import engine_api, services
from games.play import reading as play_reading
from games.play.moves import Move


def snapshot(deal_id: int) -> tuple[int, int, Any, Any]:
    """What must not change when an action is refused: the stored snapshot among it."""
    d = Deal.objects.get(pk=deal_id)
    return (d.version, DealAction.objects.filter(deal=d).count(), d.snapshot, d.to_move)


def find_script(
    variant: str,
    players: int,
    want: str,
    *,
    options: dict[str, Any] | None = None,
    tries: int = 400,
) -> tuple[int, list[dict[str, Any]]]:
    """A seed and the actions (random play) after which the mover may play a ``want`` action."""
    for seed in range(tries):
        state = engine_api.new_state(variant, options or {}, players, 0, seed=seed)
        rng = random.Random(seed)
        script: list[dict[str, Any]] = []
        for _ in range(400):
            if state.is_over():
                break
            seat = state.to_move()
            legal = state.legal_actions(seat)
            if any(a.type == want for a in legal):
                return seed, script
            # avoid ending the deal early: prefer actions that keep it going
            a = rng.choice(legal)
            script.append(a.to_json())
            state.apply(a)
    raise AssertionError(f"no {want} found for {variant}")


def deal_from_seed(table: Any, seed: int, *, dealer: int = 0) -> Deal:
    state = engine_api.new_state(table.variant, table.options, table.size, dealer, seed=seed)
    return Deal.objects.create(
        table=table, number=1, variant=table.variant, options=dict(state.rules.options),
        players=table.size, dealer=dealer, seed=seed, pack=engine_api.pack_codes(state),
        version=0, to_move=state.to_move(), snapshot=engine_api.to_snapshot(state),
    )  # fmt: skip


def play_script(table: Any, deal: Deal, script: list[dict[str, Any]], members: list[Any]) -> None:
    for data in script:
        d = Deal.objects.get(pk=deal.pk)
        services.act(
            Move(
                table.pk,
                member_id=members[data["seat"]].pk,
                version=d.version,
                deal_id=d.pk,
                action=data,
            )
        )


def state_of(deal_id: int) -> Any:
    return play_reading.load_state(Deal.objects.get(pk=deal_id))


CARD_RE = re.compile(r'data-card="([^"]+)"')


def move_for_mover(table_id: int, deal: Deal, rng: random.Random | None = None) -> Any:
    """The player to move at an online club table makes a legal move through `act`:
    the first one offered, or one ``rng`` picks. Returns act's result (a refusal raises)."""
    from club.services.seating import table_seating

    state = play_reading.load_state(deal)
    seat = state.to_move()
    legal = state.legal_actions(seat)
    return services.act(
        Move(
            table_id,
            member_id=table_seating(table_id)[seat].member_id,
            version=deal.version,
            deal_id=deal.pk,
            action=(rng.choice(legal) if rng else legal[0]).to_json(),
        )
    )
