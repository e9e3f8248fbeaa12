"""Who pays whom: the fewest possible transfers that clear a session. Pure Python.

Balances are integers (cents) summing to zero. A settlement of *n* non-zero balances
split into *k* disjoint groups, each summing to zero, needs ``n - k`` transfers (a group of
*s* people settles with *s - 1*; no fewer is possible), so the minimum number of transfers
is ``n - k_max``, where ``k_max`` is the largest number of zero-sum groups the balances
can be partitioned into. Finding it is NP-hard (it contains subset-sum), so:

* up to ``EXACT_LIMIT`` (20) non-zero balances: an exact search — exact pairs ``+x/-x``
  are taken out first (always optimal), then the subsets summing to zero are enumerated
  from the 2^n subset sums and a memoised search packs the most disjoint minimal ones;
* above that: the greedy largest-debtor-pays-largest-creditor pairing, which is *not*
  minimal in general, and the result says so (``method == "greedy"``).

>>> s = settle({"A": 400, "B": 300, "C": 300, "D": -600, "E": -400})
>>> s.method, len(s.transfers)
('exact', 3)
>>> len(greedy({"A": 400, "B": 300, "C": 300, "D": -600, "E": -400}))
4
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import cache

EXACT_LIMIT = 20


@dataclass(frozen=True, slots=True)
class Payment[P]:
    payer: P
    payee: P
    amount: int  # cents, > 0


@dataclass(frozen=True, slots=True)
class Settlement[P]:
    transfers: list[Payment[P]]
    method: str  # "exact" or "greedy"


def settle[K: Hashable](balances: Mapping[K, int], exact_limit: int = EXACT_LIMIT) -> Settlement[K]:
    """Transfers clearing ``balances`` (positive: is owed; negative: owes)."""
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    items = [(k, v) for k, v in balances.items() if v != 0]
    if len(items) > exact_limit:
        return Settlement(greedy(dict(items)), "greedy")
    transfers: list[Payment[K]] = []
    for group in zero_sum_groups(items):
        transfers.extend(greedy(dict(group)))
    return Settlement(transfers, "exact")


def greedy[K: Hashable](balances: Mapping[K, int]) -> list[Payment[K]]:
    """The largest debtor pays the largest creditor, repeatedly (ties by insertion order).

    Each transfer clears at least one person, so a group of *s* takes at most *s - 1*.
    """
    order = {k: i for i, k in enumerate(balances)}
    credit = {k: v for k, v in balances.items() if v > 0}
    debt = {k: -v for k, v in balances.items() if v < 0}
    out: list[Payment[K]] = []
    while credit and debt:
        c = max(credit, key=lambda k: (credit[k], -order[k]))
        d = max(debt, key=lambda k: (debt[k], -order[k]))
        amount = min(credit[c], debt[d])
        out.append(Payment(d, c, amount))
        credit[c] -= amount
        debt[d] -= amount
        if not credit[c]:
            del credit[c]
        if not debt[d]:
            del debt[d]
    return out


def zero_sum_groups[K: Hashable](items: list[tuple[K, int]]) -> list[list[tuple[K, int]]]:
    """Partition non-zero balances into the largest possible number of zero-sum groups."""
    groups: list[list[tuple[K, int]]] = []
    # 1. Exact opposite pairs: if x and -x sat in different groups of an optimal
    #    partition, {x, -x} and the rest of the two groups would be as many or more.
    rest: list[tuple[K, int]] = []
    waiting: dict[int, list[tuple[K, int]]] = {}
    for item in items:
        partner = waiting.get(-item[1])
        if partner:
            groups.append([partner.pop(), item])
        else:
            waiting.setdefault(item[1], []).append(item)
    for lst in waiting.values():
        rest.extend(lst)
    if not rest:
        return groups
    # 2. Exact search over the rest (n <= 20 after the pairs are out). Equal balances are
    #    interchangeable: they sit next to each other and a state keeps only the lowest
    #    bits of each run of equals (so the memo sees one state per multiset).
    rest.sort(key=lambda kv: kv[1])
    values = [v for _, v in rest]
    n = len(values)
    runs: list[tuple[int, int]] = []  # (first index, run mask) of each run of equal values
    i = 0
    while i < n:
        j = i
        while j < n and values[j] == values[i]:
            j += 1
        runs.append((i, ((1 << (j - i)) - 1) << i))
        i = j

    def canonical(mask: int) -> int:
        out = 0
        for first, run in runs:
            out |= ((1 << (mask & run).bit_count()) - 1) << first
        return out

    sums = [0]
    for v in values:  # sums[mask] for every subset, by doubling: 2^n additions
        sums += [s + v for s in sums]
    full = (1 << n) - 1
    # Only canonical subsets (one per multiset of values) need considering.
    zero_masks = [m for m in range(1, full) if sums[m] == 0 and m == canonical(m)]
    zero_masks.sort(key=int.bit_count)
    minimal: list[int] = []
    for m in zero_masks:
        if not any(z & m == z for z in minimal):
            minimal.append(m)
    del sums

    @cache
    def best(mask: int) -> tuple[int, tuple[int, ...]]:
        """(most groups, the groups) partitioning ``mask`` (itself a zero-sum set)."""
        if mask == 0:
            return 0, ()
        low = mask & -mask  # the lowest member must be in some minimal group
        top: tuple[int, tuple[int, ...]] = (1, (mask,))
        for z in minimal:
            if z & low and z & mask == z and z != mask:
                count, parts = best(canonical(mask & ~z))
                if count + 1 > top[0]:
                    top = (count + 1, (z, *parts))
        return top

    _, parts = best(full)
    best.cache_clear()
    # The parts name canonical bits: read them as values and hand out people by value.
    pool: dict[int, list[tuple[K, int]]] = {}
    for item in rest:
        pool.setdefault(item[1], []).append(item)
    for part in parts:
        groups.append([pool[values[i]].pop() for i in range(n) if part >> i & 1])
    return groups


def minimum_transfers[K: Hashable](balances: Mapping[K, int]) -> int:
    """The minimum number of transfers (exact; for tests and the page's claim)."""
    items = [(k, v) for k, v in balances.items() if v]
    return len(items) - len(zero_sum_groups(items))
