"""Shared fixtures for the club's tests (PostgreSQL, see the Makefile)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from decimal import Decimal

import pytest
from django.test import Client

from club.models import ClubSession, Member, Seat, Table, WashbookLine
from club.services import base
from club.services.base import create_member
from club.services.sessions import check_in, open_session
from club.services.tables import form_table


class ScriptedRandom(random.Random):
    """Deals the cards it is told to, in order, then falls back to a seeded shuffle."""

    def __init__(self, cards: list[str]) -> None:
        super().__init__(7)
        self.cards = list(cards)

    def sample(self, population, k, **kwargs):  # type: ignore[no-untyped-def,override]
        if len(self.cards) >= k:
            out, self.cards = self.cards[:k], self.cards[k:]
            return out
        return super().sample(population, k, **kwargs)


@pytest.fixture
def script_cuts(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[str]], None]:
    """script_cuts(["KS", "5H", ...]): the next cuts draw exactly these cards."""
    state: dict[str, ScriptedRandom] = {}

    def script(cards: list[str]) -> None:
        state["rng"] = ScriptedRandom(cards)
        monkeypatch.setattr(base, "rng", lambda: state["rng"])

    return script


@pytest.fixture(autouse=True)
def seeded_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(1913)
    monkeypatch.setattr(base, "rng", lambda: random.Random(rng.randrange(2**32)))


@pytest.fixture
def make_members() -> Callable[[int], list[Member]]:
    counter = iter(range(10_000))

    def make(n: int, prefix: str = "m") -> list[Member]:
        out = []
        for _ in range(n):
            i = next(counter)
            out.append(create_member(f"{prefix}{i}", f"Player {i}"))
        return out

    return make


@pytest.fixture
def secretary() -> Member:
    return create_member("secretary", "The Secretary", is_staff=True)


@pytest.fixture
def session(secretary: Member) -> ClubSession:
    return open_session(stake=Decimal("0.05"), by=secretary.user)


@pytest.fixture
def no_queue(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Record balancing tasks instead of sending them to the broker."""
    queued: list[int] = []

    monkeypatch.setattr("club.dispatch.queue_balance", queued.append)
    yield queued


def field_error(body: str, field: str) -> str:
    """The messages Django shows beside a form field (its error list, tied to the input)."""
    import re

    found = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', body, re.S)
    return re.sub(r"<[^>]+>", " ", found.group(1)).strip() if found else ""


@pytest.fixture
def staff(client: Client, secretary: Member) -> Client:
    """A client logged in as the secretary."""
    client.force_login(secretary.user)
    return client


def physical_three(
    session: ClubSession, members: list[Member], variant: str
) -> tuple[Table, list[Member]]:
    """A physical table of ``variant`` for three members checked in, and its players by seat."""
    for m in members:
        check_in(session, m)
    table = form_table(session, variant=variant, size=3, mode=Table.PHYSICAL)
    seats = Seat.objects.filter(table=table).select_related("member").order_by("position")
    return table, [s.member for s in seats]


def points(line: WashbookLine) -> dict[int, int]:
    """A line's points by member."""
    return dict(line.entries.values_list("member_id", "points"))
