"""Building deals with chosen hands (pack orders top first) for the law tests."""

from __future__ import annotations

import random
from collections import Counter

from games.engine import Action, Card, RummyDeal, make_pack, make_rules, new_deal, parse_cards
from games.engine.rules import OptionValue
from games.engine.rummy.moves import action_from_text
from games.engine.rummy.parts import table_for


def arrange(
    variant: str,
    hands: list[str],
    turned: str,
    top: str = "",
    *,
    dealer: int = 0,
    **options: OptionValue,
) -> RummyDeal:
    """A deal in which seat ``s`` is dealt ``hands[s]`` (dealt one at a time, L8).

    ``hands`` are listed by seat (0..n-1); ``turned`` is the turned-up card; ``top`` the
    next cards of the pack, top first; the rest of the pack follows in a fixed order.
    """
    rules = make_rules(variant, options)
    n = len(hands)
    parsed = [parse_cards(h) for h in hands]
    size = table_for(rules).hand_size
    assert all(len(h) == size for h in parsed), "every hand has the deal's size"
    order: list[Card] = []
    for i in range(size * n):
        seat = (dealer + 1 + i) % n
        order.append(parsed[seat][i // n])
    order += parse_cards(turned) + parse_cards(top)
    rest = Counter(make_pack(table_for(rules).pack)) - Counter(order)
    assert sum(Counter(order).values()) + sum(rest.values()) == len(
        make_pack(table_for(rules).pack)
    )
    leftover = sorted(rest.elements(), key=lambda c: (c.rank, str(c.suit)))
    random.Random(0).shuffle(leftover)
    deal = new_deal(rules, n, dealer, pack=order + leftover)
    assert isinstance(deal, RummyDeal)
    return deal


def play(deal: RummyDeal, *texts: str) -> None:
    """Apply actions given in text form, e.g. ``play(d, "1 draw pack", "1 discard 9C")``."""
    for t in texts:
        deal.apply(action_from_text(t))


def act(text: str) -> Action:
    return action_from_text(text)


def texts(deal: RummyDeal, seat: int | None = None) -> list[str]:
    s = deal.to_move() if seat is None else seat
    assert s is not None
    return [a.text for a in deal.legal_actions(s)]
