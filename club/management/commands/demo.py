"""Load a demo club: a secretary, a dozen members, a balanced past session and an open one.

``python manage.py demo --if-empty`` (what `make run` calls) only prints the logins when
members exist already. Deals go through the services.
"""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from club import services
from club.models import ClubSession, Member, Seat, Table
from club.services import base as services_base
from games.engine.variant import VARIANTS, first_variant

PASSWORD = "cooncan-demo"
MEMBERS = [
    ("alice", "Alice Jones"),
    ("bob", "Bob Smith"),
    ("carol", "Carol Brown"),
    ("dan", "Dan White"),
    ("erin", "Erin Green"),
    ("frank", "Frank Hall"),
    ("grace", "Grace Lee"),
    ("henry", "Henry Ward"),
    ("iris", "Iris Cole"),
    ("jack", "Jack Moss"),
    ("kate", "Kate Dunn"),
    ("leo", "Leo Park"),
]


class Command(BaseCommand):
    help = "Load a demo club (members, sessions, tables, washbooks, a settlement)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if members exist already"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and Member.objects.filter(is_bot=False).exists():
            self.print_logins(loaded=False)
            return
        rng = random.Random(1913)
        services_base.rng = lambda: random.Random(rng.randrange(2**32))  # repeatable cuts
        with transaction.atomic():
            self.load(rng)
        self.print_logins(loaded=True)

    def load(self, rng: random.Random) -> None:
        secretary = services.create_member("secretary", "The Secretary", is_staff=True)
        members = [services.create_member(u, n) for u, n in MEMBERS]
        hashed = make_password(PASSWORD)  # hashed once: thirteen hashes take seconds
        User = get_user_model()
        User.objects.filter(pk__in=[m.user_id for m in [secretary, *members]]).update(
            password=hashed
        )

        # An earlier evening, played with real cards, closed and balanced.
        past = services.open_session(stake=Decimal("0.05"), by=secretary.user, name="Last week")
        ClubSession.objects.filter(pk=past.pk).update(opened_at=timezone.now() - timedelta(days=7))
        for m in members[:7]:
            services.check_in(past, m)
        # The club's first game (Foster's Cooncan) at physical tables of five, and the
        # first two-player game (Conquián) online: both taken from the registry.
        main = first_variant()
        pair = next(v for v in VARIANTS.values() if v.seats.high == 2)
        t = services.form_table(past, variant=main.name, size=5, mode=Table.PHYSICAL)
        self.play_physical(t, rng, 15, secretary)
        past.refresh_from_db()
        services.close_session(past.pk, by=secretary.user, queue=False)
        services.ledger.balance_session(past.pk)  # now, not waiting for the worker
        transfers = list(past.transfers.all())
        if transfers:
            services.record_payment(transfers[0].pk, by=secretary.user)

        # Tonight: open, two tables, some deals posted.
        tonight = services.open_session(stake=Decimal("0.05"), by=secretary.user, name="Tonight")
        for m in members[:10]:
            services.check_in(tonight, m)
        physical = services.form_table(
            tonight, variant=main.name, size=5, mode=Table.PHYSICAL, candidates=members[:6]
        )
        self.play_physical(physical, rng, 6, secretary)
        online = services.form_table(
            tonight, variant=pair.name, size=2, mode=Table.ONLINE, candidates=members[6:8]
        )
        for i in range(4):
            winner = rng.randrange(2)
            pts = rng.choice([1, 1, 2])
            services.post_online_deal(
                online.pk,
                deal_key=f"demo-{online.pk}-{i}",
                points={winner: pts, 1 - winner: -pts},
                detail={"kind": "out", "demo": True},
            )
            services.advance_after_deal(online.pk)

    def play_physical(self, table: Table, rng: random.Random, deals: int, by: Member) -> None:
        for _ in range(deals):
            seated = list(Seat.objects.filter(table=table).values_list("member_id", flat=True))
            winner = rng.choice(seated)
            losses = {m: rng.randint(3, 60) for m in seated if m != winner}
            services.enter_physical_result(
                table.pk, services.PhysicalResult(winner_id=winner, losses=losses), by=by.user
            )

    def print_logins(self, *, loaded: bool) -> None:
        head = "Demo club loaded." if loaded else "Demo club already present."
        names = ", ".join(u for u, _ in MEMBERS)
        self.stdout.write(
            f"  {head} Log in as 'secretary' (staff) or a member ({names});\n"
            f"  every demo password is '{PASSWORD}'.\n"
        )
