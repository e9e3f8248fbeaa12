"""Fixtures for the games app: members, online tables, logged-in clients."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

_n = itertools.count(1)


@pytest.fixture(autouse=True)
def no_celery(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Bot moves are recorded, not sent to a broker; tests play them with play_bot."""
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: queued.append((d, v)))
    return queued


@pytest.fixture
def make_member(db: Any) -> Callable[..., Any]:
    from club.services.base import create_member

    def make(name: str | None = None, *, is_bot: bool = False) -> Any:
        i = next(_n)
        name = name or f"Player {i}"
        return create_member(
            f"u{i}-{name.lower().replace(' ', '')}", name, password="pw-Cooncan-1", is_bot=is_bot
        )

    return make


@pytest.fixture
def make_table(db: Any, make_member: Callable[..., Any]) -> Callable[..., Any]:
    from club.models import Seat, Table

    def make(
        variant: str = "conquian",
        members: list[Any] | None = None,
        *,
        options: dict[str, Any] | None = None,
        size: int | None = None,
    ) -> Any:
        members = members or [make_member() for _ in range(size or 2)]
        table = Table.objects.create(
            variant=variant, size=len(members), options=options or {}, mode="online",
            status="playing", is_practice=any(m.is_bot for m in members),
        )  # fmt: skip
        for i, m in enumerate(members):
            Seat.objects.create(table=table, position=i, member=m)
        return table

    return make


@pytest.fixture
def client_for() -> Callable[[Any], Client]:
    def make(member: Any) -> Client:
        c = Client()
        c.force_login(member.user)
        return c

    return make
