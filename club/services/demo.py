"""The demo club (issue 78): a secretary, a dozen members, a balanced past evening and an
open one, loaded through the services into an empty club (`make run DEMO=1`, `make demo`,
the setup page's "Try the demo club").

The demo's logins share one password made at random for this install (a password in the
README opened every account of every club that kept the demo, from anywhere on the
club's Wi-Fi). It is kept in RUN_DIR/demo-password, mode 0600, and printed by `make run`;
tests read it there. A demo loaded before, whose logins still take the password once
published, is given a new one at the next start (``retire_published_password``).
"""

from __future__ import annotations

import os
import random
import secrets
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from club.models import ClubSession, Member, Seat, Table
from club.services import base as services_base
from club.services.base import create_member
from club.services.ledger import balance_session
from club.services.payments import record_payment
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import advance_after_deal, form_table
from club.services.washbook import PhysicalResult, enter_physical_result, post_online_deal
from games.engine.variant import VARIANTS, first_variant

# The password every demo login had until issue 78, printed in the README: never again.
PUBLISHED = "cooncan-demo"
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

DEMO_USERNAMES = ["secretary", *(u for u, _ in MEMBERS)]


def password_file() -> Path:
    return Path(settings.RUN_DIR) / "demo-password"


def demo_password() -> str:
    """This install's demo password: read from its file, or made at random and kept
    there, readable by its owner alone."""
    path = password_file()
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(12)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(password + "\n")
    return password


def set_password(user_ids: list[int], password: str) -> None:
    """One password for these logins, hashed once (thirteen hashes take seconds)."""
    get_user_model().objects.filter(pk__in=user_ids).update(password=make_password(password))


def load_demo() -> Member:
    """The demo club, loaded into this empty club through the services; its secretary."""
    rng = random.Random(1913)
    services_base.rng = lambda: random.Random(rng.randrange(2**32))  # repeatable cuts
    with transaction.atomic():
        return _load(rng)


def _load(rng: random.Random) -> Member:
    secretary = create_member("secretary", "The Secretary", is_staff=True)
    members = [create_member(u, n) for u, n in MEMBERS]
    set_password([secretary.user_id, *(m.user_id for m in members)], demo_password())

    # An earlier evening, played with real cards, closed and balanced.
    past = open_session(stake=Decimal("0.05"), by=secretary.user, name="Last week")
    ClubSession.objects.filter(pk=past.pk).update(opened_at=timezone.now() - timedelta(days=7))
    for m in members[:7]:
        check_in(past, m)
    # The club's first game (Foster's Cooncan) at physical tables of five, and the
    # first two-player game (Conquián) online: both taken from the registry.
    main = first_variant()
    pair = next(v for v in VARIANTS.values() if v.seats.high == 2)
    t = form_table(past, variant=main.name, size=5, mode=Table.PHYSICAL)
    play_physical(t, rng, 15, secretary)
    past.refresh_from_db()
    close_session(past.pk, by=secretary.user, queue=False)
    balance_session(past.pk)  # now, not waiting for the worker
    transfers = list(past.transfers.all())
    if transfers:
        record_payment(transfers[0].pk, by=secretary.user)

    # Tonight: open, two tables, some deals posted.
    tonight = open_session(stake=Decimal("0.05"), by=secretary.user, name="Tonight")
    # Those at its two tables: the other four are free to come to a second evening (a
    # member is in one open evening at a time, issue 79).
    for m in members[:8]:
        check_in(tonight, m)
    physical = form_table(
        tonight, variant=main.name, size=5, mode=Table.PHYSICAL, candidates=members[:6]
    )
    play_physical(physical, rng, 6, secretary)
    online = form_table(
        tonight, variant=pair.name, size=2, mode=Table.ONLINE, candidates=members[6:8]
    )
    for i in range(4):
        winner = rng.randrange(2)
        pts = rng.choice([1, 1, 2])
        post_online_deal(
            online.pk,
            deal_key=f"demo-{online.pk}-{i}",
            points={winner: pts, 1 - winner: -pts},
            detail={"kind": "out", "demo": True},
        )
        advance_after_deal(online.pk)
    return secretary


def play_physical(table: Table, rng: random.Random, deals: int, by: Member) -> None:
    for _ in range(deals):
        seated = list(Seat.objects.filter(table=table).values_list("member_id", flat=True))
        winner = rng.choice(seated)
        losses = {m: rng.randint(3, 60) for m in seated if m != winner}
        enter_physical_result(table.pk, PhysicalResult(winner_id=winner, losses=losses), by=by.user)


def retire_published_password() -> int:
    """A demo loaded before issue 78 (the number of logins changed): its logins that still take the published
    password are given this install's own (checked on the secretary's login alone,
    once: a hash check costs most of a second, and the file says it is done)."""
    if password_file().exists():
        return 0
    User = get_user_model()
    demo = User.objects.filter(username__in=DEMO_USERNAMES)
    secretary = demo.filter(username="secretary").first()
    if secretary is None or not secretary.check_password(PUBLISHED):
        return 0
    stale = [u.pk for u in demo if u.check_password(PUBLISHED)]
    set_password(stale, demo_password())
    return len(stale)
