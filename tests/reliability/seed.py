"""Seed a small club in the database of DATABASE_URL and print its ids and logins (JSON).

Used by the fault tests, whose servers run against their own database or Redis:
``python -m tests.reliability.seed`` prints ``{"session": .., "online": .., ...}``.
"""

from __future__ import annotations

import json
import os
import uuid


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from club.models import Seat, Table
    from club.services.base import create_member
    from club.services.practice import create_practice_table
    from club.services.sessions import check_in, open_session
    from club.services.tables import form_table
    from club.services.washbook import PhysicalResult, enter_physical_result
    from games.play import services as game_services

    tag = uuid.uuid4().hex[:6]

    def member(name: str, staff: bool = False) -> object:
        return create_member(f"{name}-{tag}", name.title(), password="pw-Fault-1", is_staff=staff)

    def cookie(m: object) -> str:
        c = Client()
        c.force_login(m.user)  # type: ignore[attr-defined]
        return c.cookies[settings.SESSION_COOKIE_NAME].value

    secretary = member("secretary", staff=True)
    players = [member(f"player{i}") for i in range(4)]
    session = open_session(stake="0.05", by=secretary.user)  # type: ignore[attr-defined]
    for m in players:
        check_in(session, m)  # type: ignore[arg-type]
    physical = form_table(session, variant="foster", size=4, mode=Table.PHYSICAL)
    ids = [m.pk for m in players]  # type: ignore[attr-defined]
    for i in range(3):
        enter_physical_result(
            physical.pk,
            PhysicalResult(
                winner_id=ids[i], losses={m: 5 + j + i for j, m in enumerate(ids) if m != ids[i]}
            ),
        )
    online_players = [member("east"), member("west")]
    online = Table.objects.create(variant="conquian", size=2, mode="online", status="playing")
    for i, m in enumerate(online_players):
        Seat.objects.create(table=online, position=i, member=m)
    game_services.ensure_deal(online.pk)
    solo = member("solo")
    practice = create_practice_table(solo, "conquian", 2)  # type: ignore[arg-type]
    game_services.ensure_deal(practice.pk)
    print(json.dumps({
        "session": session.pk, "physical": physical.pk, "online": online.pk,
        "practice": practice.pk,
        "cookies": {
            "secretary": cookie(secretary), "east": cookie(online_players[0]),
            "west": cookie(online_players[1]), "solo": cookie(solo),
        },
    }))  # fmt: skip


if __name__ == "__main__":
    main()
