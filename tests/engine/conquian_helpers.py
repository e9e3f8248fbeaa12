"""Shared helpers for the Conquián tests: stacked packs and scripted play."""

from __future__ import annotations

import random
from typing import Any

from games.engine.actions import Action
from games.engine.cards import Card, make_pack, parse_cards
from games.engine.conquian.actions import action_from_text
from games.engine.conquian.deal import ConquianDeal, new_conquian_deal
from games.engine.conquian.melds import KINDS
from games.engine.rules import OptionValue, make_rules


def stack(pone: str, dealer: str, after: str = "", *, pack: str = "forty") -> list[Card]:
    """A pack, top first, that deals ``pone`` and ``dealer`` (two at a time, the pone
    first, 2-hand law 8) and then turns up the ``after`` cards in order; the rest of the
    pack follows in make_pack order."""
    p, d, a = parse_cards(pone), parse_cards(dealer), parse_cards(after)
    assert len(p) == 10 and len(d) == 10
    order: list[Card] = []
    for i in range(0, 10, 2):
        order += p[i : i + 2] + d[i : i + 2]
    order += a
    full = make_pack(KINDS[pack])
    order += [c for c in full if c not in order]
    assert len(order) == len(set(order)) == len(full)
    return order


def deal(
    pone: str, dealer: str, after: str = "", *, carry_in: int = 0, **options: OptionValue
) -> ConquianDeal:
    """Seat 1 deals, so seat 0 is the pone."""
    rules = make_rules("conquian", options)
    pack = stack(pone, dealer, after, pack=str(options.get("pack", "forty")))
    return new_conquian_deal(rules, 1, pack=pack, carry_in=carry_in)


def play(d: ConquianDeal, *texts: str) -> None:
    for t in texts:
        d.apply(action_from_text(t))


def texts(d: ConquianDeal) -> set[str]:
    seat = d.to_move()
    return set() if seat is None else {a.text for a in d.legal_actions(seat)}


def random_play(d: ConquianDeal, rng: random.Random, limit: int = 1000) -> list[Action]:
    done: list[Action] = []
    while not d.is_over() and len(done) < limit:
        seat = d.to_move()
        assert seat is not None
        a = rng.choice(d.legal_actions(seat))
        d.apply(a)
        done.append(a)
    return done


def views(d: ConquianDeal) -> list[dict[str, Any]]:
    return [d.player_view(0), d.player_view(1), d.spectator_view()]
