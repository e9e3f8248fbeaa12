"""Settlement: the fewest transfers (exact), checked against brute force."""

from __future__ import annotations

import random
from collections.abc import Iterator

from club.money.settlement import greedy, minimum_transfers, settle


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]
        yield [[first], *part]


def brute_force_minimum(values: list[int]) -> int:
    """n minus the most blocks of any set partition whose blocks all sum to zero."""
    nz = [v for v in values if v]
    best = max(len(p) for p in partitions(nz) if all(sum(block) == 0 for block in p)) if nz else 0
    return len(nz) - best


def clears(balances: dict[int, int], transfers: list) -> bool:  # type: ignore[type-arg]
    left = dict(balances)
    for t in transfers:
        assert t.amount > 0
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return not any(left.values())


def test_it_is_minimal_against_brute_force_on_random_balances() -> None:
    rng = random.Random(20)
    for _ in range(150):
        n = rng.randint(2, 9)
        scale = rng.choice([5, 20, 1000])
        values = [rng.randint(-scale, scale) for _ in range(n - 1)]
        values.append(-sum(values))
        balances = dict(enumerate(values))
        s = settle(balances)
        assert s.method == "exact"
        assert clears(balances, s.transfers)
        assert len(s.transfers) == brute_force_minimum(values) == minimum_transfers(balances)


def test_greedy_is_not_minimal_here_but_the_settlement_is() -> None:
    balances = {"A": 400, "B": 300, "C": 300, "D": -600, "E": -400}
    assert len(greedy(balances)) == 4
    s = settle(balances)
    assert len(s.transfers) == 3 == brute_force_minimum(list(balances.values()))
    assert clears(balances, s.transfers)  # type: ignore[arg-type]


def test_it_falls_back_to_greedy_above_twenty_and_says_so() -> None:
    rng = random.Random(4)
    values = [rng.randint(-900, 900) for _ in range(24)]
    values.append(-sum(values))
    balances = dict(enumerate(values))
    s = settle(balances)
    assert s.method == "greedy" and clears(balances, s.transfers)


def test_it_is_exact_and_quick_for_twenty() -> None:
    rng = random.Random(9)
    values = [rng.choice([-300, -200, 300, 500, -700, 200]) for _ in range(19)]
    values.append(-sum(values))
    balances = dict(enumerate(values))
    s = settle(balances)
    assert s.method == "exact" and clears(balances, s.transfers)
