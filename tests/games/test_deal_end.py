"""The end of a deal is shown to everyone at the table (issue 28, item 1): who went out,
every hand and its points, the washbook line; it is part of every render of the live
region while the next deal is young, so a live refresh never wipes it."""

from __future__ import annotations

import random
import re
from typing import Any

from club.models import WashbookLine
from games.models import Deal
from games.play import reading as play_reading
from games.play import services
from games.play.moves import Move

from .helpers import state_of


def _play_first_deal(table: Any, members: list[Any]) -> Deal:
    rng = random.Random(11)
    services.ensure_deal(table.pk)
    for _ in range(500):
        deal = play_reading.current_deal(table.pk)
        assert deal is not None
        if deal.number > 1:
            break
        state = state_of(deal.pk)
        seat = state.to_move()
        legal = state.legal_actions(seat)
        uses = [x for x in legal if x.type in ("use", "meld")]
        services.act(
            Move(
                table.pk,
                member_id=members[seat].pk,
                version=deal.version,
                deal_id=deal.pk,
                action=rng.choice(uses or legal).to_json(),
            )
        )
    return Deal.objects.get(table=table, number=1)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_every_player_sees_the_deals_end_on_every_refresh(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    first = _play_first_deal(table, [ann, bob])
    assert first.finished
    line = WashbookLine.objects.get(pk=first.washbook_line_id)
    for member in (ann, bob):
        for _ in range(2):  # the page, then a live refresh: both carry the deal's end
            r = client_for(member).get(f"/tables/{table.pk}/state/", HTTP_HX_REQUEST="true")
            body = r.content.decode()
            assert f'id="deal-end" data-deal="{first.pk}"' in body
            text = _text(body)
            assert "Game 1, deal 1 is over:" in text
            # A Conquián deal is a game: its end is told as the game's too (issue 38).
            assert "Game 1 is over after 1 deal; game 2 begins with this deal." in text
            assert f"Line {line.number} of the washbook." in text
            assert "Continue to the next deal" in text
            for name in ("Ann", "Bob"):
                assert name in text
            # The next deal is there underneath, ready to be shown.
            assert "Game 2, deal 1" in text


def test_the_deals_end_is_not_shown_once_the_next_deal_is_old(
    make_table: Any, make_member: Any, client_for: Any, settings: Any
) -> None:
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    _play_first_deal(table, [ann, bob])
    settings.GAMES_DEAL_END_SECONDS = 0
    body = client_for(ann).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="deal-end"' not in body


def test_the_deals_end_shows_each_hand_and_the_points(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    first = _play_first_deal(table, [ann, bob])
    body = client_for(bob).get(f"/tables/{table.pk}/").content.decode()
    section = body[
        body.index('id="deal-end"') : body.index("</section>", body.index('id="deal-end"'))
    ]
    out = first.outcome
    assert out is not None
    if out.get("winner") is not None:
        winner = [ann, bob][out["winner"]].display_name
        assert f"{winner} went out" in _text(section)
    else:
        assert "a tableau: nobody went out, nothing paid" in _text(section)
    for pos, payment in enumerate(out["payments"]):
        shown = f"+{payment}" if payment > 0 else str(payment)
        assert f">{shown}</td>" in section, (pos, payment)


def test_the_club_panel_shows_the_last_deal_long_after_it_ended(
    make_table: Any, make_member: Any, client_for: Any, settings: Any
) -> None:
    """The club panel keeps the last deal's end (every hand shown, L23) after the live
    part has stopped showing it: the same summary, on the page and in the panel's own
    fragment."""
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    first = _play_first_deal(table, [ann, bob])
    settings.GAMES_DEAL_END_SECONDS = 0
    out = first.outcome
    assert out is not None
    for url in (f"/tables/{table.pk}/", f"/tables/{table.pk}/club/"):
        body = client_for(ann).get(url, headers={"HX-Request": "true"} if "club" in url else {})
        html = body.content.decode()
        assert 'id="deal-end"' not in html
        start = html.index('class="last-deal"')
        section = html[start : html.index("</section>", start)]
        assert 'class="deal-end-hands"' in section
        for who, payment in zip((ann, bob), out["payments"], strict=True):
            assert who.display_name in section
            assert f">{f'+{payment}' if payment > 0 else payment}</td>" in section


def test_the_deals_end_is_read_once_for_every_render_while_the_next_is_young(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    """Issue 59: every render of the live region in the next deal's first minute showed
    the deal's end by reading the previous deal and its washbook line again (two queries
    and a replay a render, a third of a turn's work in a fast evening). Read once, kept in
    the cache, shared by every render of the table on any web process."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    first = _play_first_deal(table, [ann, bob])
    line = WashbookLine.objects.get(pk=first.washbook_line_id)
    for i, member in enumerate((ann, bob, ann)):
        with CaptureQueriesContext(connection) as q:
            r = client_for(member).get(f"/tables/{table.pk}/state/", HTTP_HX_REQUEST="true")
        body = r.content.decode()
        assert f'id="deal-end" data-deal="{first.pk}"' in body
        assert f"Line {line.number} of the washbook." in _text(body)
        reads = [x["sql"] for x in q.captured_queries if "washbookline" in x["sql"]]
        # The first render reads it; every later one, by any player, has it from the cache.
        assert len(reads) == (1 if i == 0 else 0), reads


def test_the_deals_end_is_asked_of_redis_once_a_process(
    make_table: Any, make_member: Any, client_for: Any, monkeypatch: Any
) -> None:
    """Issue 59: with the deal's end in the cache, every render while the next deal was
    young still asked Redis for it, a round trip each. A finished deal does not change:
    the process keeps what it read, shared by every render, which only reads it (a deep
    copy a render was 3.5% of a move's request while a deal was young)."""
    import copy

    from django.core.cache import cache

    from games.play import parts

    reads: list[str] = []

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(cache, name)

        def get(self, key: str, *args: Any, **kwargs: Any) -> Any:
            reads.append(key)
            return cache.get(key, *args, **kwargs)

    monkeypatch.setattr(parts, "cache", Counting())
    ann, bob = make_member("Ann"), make_member("Bob")
    table = make_table("conquian", [ann, bob])
    first = _play_first_deal(table, [ann, bob])
    r = client_for(ann).get(f"/tables/{table.pk}/state/", HTTP_HX_REQUEST="true")
    one = parts.ended_before(play_reading.current_deal(table.pk))
    assert one is not None and one[0].pk == first.pk
    before = (copy.deepcopy(vars(one[0])), copy.deepcopy(one[0].outcome), one[1:])
    for member in (bob, ann, bob):
        r = client_for(member).get(f"/tables/{table.pk}/state/", HTTP_HX_REQUEST="true")
        assert f'id="deal-end" data-deal="{first.pk}"' in r.content.decode()
    asked = [k for k in reads if k.startswith("games:deal-end:")]
    assert len(asked) == 1, asked
    other = parts.ended_before(play_reading.current_deal(table.pk))
    assert other is one  # shared, not copied
    after = (vars(one[0]), one[0].outcome, one[1:])
    assert {k: v for k, v in after[0].items() if k != "_state"} == {
        k: v for k, v in before[0].items() if k != "_state"
    }
    assert after[1:] == before[1:]  # no render changed it
