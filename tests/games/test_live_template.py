"""The live part in Jinja2 (templates/jinja2/games/live.html, games/play/live_template.py)
renders what Django's partial renders, for every viewer of every state of each game's
deals played at random, their ends and the next deals' first moves (issue 59: the part
moved to the faster engine; the two are compared markup for markup, the entities' two
spellings and the whitespace between tags aside)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from games.play import call_round, kept, live_template, parts, services, timers

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [("foster", 5), ("foster", 2), ("foster-three", 3), ("conquian", 2), ("colonel", 2),
         ("tonk", 4), ("tunk", 3)]  # fmt: skip


def _same(markup: str) -> str:
    """Markup with the whitespace between tags and the entities' spellings made one."""
    markup = markup.replace("&#34;", "&quot;").replace("&#39;", "&#x27;")
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", markup)).strip()


def _both(ctx: dict[str, Any]) -> tuple[str, str]:
    return (
        _same(render_to_string(parts.TEMPLATE, ctx)),
        _same(live_template.render("games/live.html", ctx)),
    )


@pytest.mark.parametrize(("variant", "size"), GAMES)
def test_the_live_part_is_the_same_in_both_engines(
    variant: str, size: int, make_table: Any, make_member: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "schedule_bot", lambda d, v: None)
    monkeypatch.setattr("django.conf.settings.GAMES_DEAL_END_SECONDS", 3600)
    members = [make_member(f"O'Player <{i}>") for i in range(size)]
    table = make_table(variant, members)
    watcher = make_member("Watcher & co")
    services.ensure_deal(table.pk)
    rng = random.Random(f"{variant}{size}")
    compared, ends = 0, 0
    for n in range(90):
        deal, seating = services.deal_and_seating(table.pk)
        assert deal is not None
        state = kept.state_of(deal)
        for m in [*members, watcher]:
            ctx = parts.live_context(True, None, table.pk, deal, state, seating, m.pk)
            if n % 7 == 3:  # a refusal's message and a question, as a move's answer has
                ctx |= {"message": "No <such> play", "law": "L18", "status": 422,
                        "question": "Which?", "choices": [{"label": "A & B", "json": '{"a": 1}'}]}  # fmt: skip
            django, jinja = _both(ctx)
            assert jinja == django, (variant, n, m.display_name)
            compared += 1
        ends += bool(parts.deal_end(deal, seating, None))
        if call_round.is_open(deal):  # Tonk's call round (TO5), compared open: now closed
            timers.close_round(deal.pk, early=True)
            continue
        if deal.to_move is None:
            break
        legal = state.legal_actions(deal.to_move)
        action = rng.choice([a for a in legal if a.type != "take-back"] or legal)
        services.act(
            table.pk, version=deal.version, deal_id=deal.pk, token=f"t{n}",
            action=action.to_json(), user_id=seating[deal.to_move].user_id,
        )  # fmt: skip
    assert compared >= 5 * (size + 1)
    if variant in ("tonk", "conquian", "colonel"):  # short deals: an end shown is compared
        assert ends, variant
