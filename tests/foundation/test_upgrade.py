"""Upgrades keep the books (issue 57, item 5): a database written by an earlier release
(``tests/data/releases/<commit>.dump``, made once with that release's code by
``make_fixture.py`` beside it: the demo club and a practice deal of every game played
part way) is loaded, migrated by this release, and read: every member's balance is what
that release said (``<commit>.json``), the ledger and every washbook line still balance,
and every deal's stored snapshot loads and equals its replay from the log. Each later
release adds its own fixture."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection

from club.models import HouseRules, Member, Table
from club.office import backups
from club.services import ledger
from club.services.ledger import balance_of, verify_balances
from games.models import Deal
from games.play import engine_api
from games.play import reading as play_reading
from tests.databases import drop, reading, url

ROOT = Path(__file__).resolve().parents[2]
RELEASES = sorted((ROOT / "tests" / "data" / "releases").glob("*.dump"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("dump", RELEASES, ids=[p.stem for p in RELEASES])
def test_a_database_of_an_earlier_release_migrates_and_keeps_its_books(dump: Path) -> None:
    said = json.loads(dump.with_suffix(".json").read_text())
    database = f"{connection.settings_dict['NAME']}_release_{dump.stem}"
    drop(database)
    backups.load(dump, database)
    try:
        env = dict(os.environ) | {"DATABASE_URL": url(database), "DB_POOL": "0"}
        migrated = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput"],
            env=env, capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        assert migrated.returncode == 0, migrated.stderr[-3000:]
        with reading(database):
            balances = {
                m.user.username: str(balance_of(m.pk))
                for m in Member.objects.filter(is_bot=False).select_related("user")
            }
            assert balances == said["balances"]
            assert any(Decimal(v) for v in balances.values())
            assert verify_balances() == []
            # a club started before issue 80 gains the sources' named sets
            named = HouseRules.objects.filter(variant="conquian").values_list("name", flat=True)
            assert {"Foster's Conquián", "Conquián as played today"} <= set(named)
            tables = list(Table.objects.values_list("pk", flat=True))
            assert ledger.proof_failures(tables) == []
            deals = list(Deal.objects.order_by("pk"))
            assert len(deals) == said["deals"]
            assert sum(d.log.count() for d in deals) == said["actions"]
            for deal in deals:
                stored = play_reading.load_state(
                    deal
                )  # its snapshot, as the earlier release wrote it
                replayed = play_reading.replay(deal)
                assert stored.version == deal.version == replayed.version, deal.pk
                assert engine_api.to_snapshot(stored) == engine_api.to_snapshot(replayed)
    finally:
        drop(database)
