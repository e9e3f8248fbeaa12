"""Backups a treasurer can restore (issue 57, items 3 and 4).

A club with a balanced evening (a physical table's lines, an online deal's moves, fees
and a payment) is backed up with ``manage.py backup``, loaded into a new database, and
read there: every member's balance and statement, every washbook line and every deal's
replay are the same. Then ``manage.py restore`` puts a backup in a club database's place
after saying what it replaces, keeping the old one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from club.models import Member, Table, WashbookEntry, WashbookLine
from club.office import backups
from club.services.base import create_member
from club.services.ledger import balance_of, balance_session, member_history
from club.services.payments import record_club_payment
from club.services.sessions import check_in, close_session, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result
from games.models import Deal
from games.play import engine_api
from games.play import reading as play_reading
from games.play import services as game_services
from games.play.moves import Move
from tests.databases import drop, reading, url

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def _club(make_members: Callable[..., list[Member]], secretary: Member) -> list[Member]:
    ann, bob, cat, dan, eve, fay = make_members(6)
    evening = open_session(stake="0.05", by=secretary.user, name="Friday", fee_member="1.00")
    for m in (ann, bob, cat, dan, eve, fay):
        check_in(evening, m)
    table = form_table(
        evening, variant="foster", size=4, mode=Table.PHYSICAL, candidates=[ann, bob, cat, dan]
    )
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=ann.pk, losses={bob.pk: 2, cat.pk: 1, dan.pk: 0})
    )
    online = form_table(evening, variant="conquian", size=2, candidates=[eve, fay])
    deal = game_services.ensure_deal(online.pk)
    assert deal is not None
    for _ in range(12):  # a dozen moves of an online deal, for its replay
        deal = play_reading.current_deal(online.pk)
        assert deal is not None
        state = play_reading.load_state(deal)
        seat = state.to_move()
        if seat is None:
            break
        action = state.legal_actions(seat)[0]
        game_services.act(Move(online.pk, member_id=online.seats.get(position=seat).member_id, version=deal.version, deal_id=deal.pk, action=json.loads(json.dumps(action.to_json()))))  # fmt: skip
    assert close_session(evening.pk, queue=False)
    assert balance_session(evening.pk).posted
    record_club_payment(bob.pk, Decimal("1.00"), by=secretary.user)
    return [ann, bob, cat, dan, eve, fay]


def _books(members: list[Member]) -> dict[str, Any]:
    """Everything a treasurer and a player would check, read from the database in use."""
    return {
        "balances": {m.pk: balance_of(m.pk) for m in members},
        "statements": {
            m.pk: [(p.pk, p.kind, p.memo, a, r) for p, a, r in member_history(m.pk)]
            for m in members
        },
        "lines": list(
            WashbookLine.objects.order_by("pk").values_list(
                "pk", "table_id", "number", "kind", "value", "detail"
            )
        ),  # fmt: skip
        "entries": list(
            WashbookEntry.objects.order_by("pk").values_list("line_id", "member_id", "points")
        ),  # fmt: skip
        "replays": {
            d.pk: engine_api.to_snapshot(play_reading.replay(d))
            for d in Deal.objects.order_by("pk")
        },
        "stored": {d.pk: d.snapshot for d in Deal.objects.order_by("pk")},
    }


def test_a_backup_restored_into_a_new_database_holds_the_same_books(
    make_members: Callable[..., list[Member]], secretary: Member, tmp_path: Path
) -> None:
    members = _club(make_members, secretary)
    before = _books(members)
    assert before["replays"] and before["lines"] and any(before["balances"].values())
    call_command("backup", folder=str(tmp_path))
    (path,) = tmp_path.glob("club-*-by-hand.dump")
    restored = f"{connection.settings_dict['NAME']}_restored"
    drop(restored)
    backups.load(path, restored)
    try:
        with reading(restored):
            after = _books(members)
        assert after == before
        # The deals replay to what was stored for them, there as here.
        assert after["replays"] == after["stored"]
    finally:
        drop(restored)


def test_the_worker_keeps_its_newest_backups_and_never_one_made_by_hand(
    tmp_path: Path, settings: Any
) -> None:
    settings.BACKUP_DIR = tmp_path
    for name in ("club-2026-11-01-200000-evening-1.dump", "club-2026-11-08-200000-evening-2.dump",
                 "club-2026-11-15-200000-evening-3.dump", "club-2026-11-02-100000-by-hand.dump"):  # fmt: skip
        (tmp_path / name).write_bytes(b"x")
    gone = backups.prune(keep=2)
    assert [p.name for p in gone] == ["club-2026-11-01-200000-evening-1.dump"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "club-2026-11-02-100000-by-hand.dump",
        "club-2026-11-08-200000-evening-2.dump",
        "club-2026-11-15-200000-evening-3.dump",
    ]


def test_a_backup_the_power_cut_after_a_balancing_is_taken_at_the_next_start(
    make_members: Callable[..., list[Member]], secretary: Member, tmp_path: Path, settings: Any
) -> None:
    """Issue 57: the worker backs up after a balancing; the power going between the
    balancing's commit and its pg_dump left the evening balanced and never backed up (the
    balancing queued again at the start posts nothing, so no backup follows). Beat's
    start-up task takes it: once, and not again while a backup is newer than the balancing."""
    from club import tasks as club_tasks

    settings.BACKUP_DIR = tmp_path
    _club(make_members, secretary)  # balanced by hand here: no worker, no backup
    assert list(tmp_path.glob("club-*.dump")) == []
    assert club_tasks.resume_after_start() == []  # nothing left closing
    (taken,) = tmp_path.glob("club-*-evening-*.dump")
    assert backups.AUTOMATIC.match(taken.name)
    assert club_tasks.backup_missed_at_start() is False  # a backup is newer than it


def test_restore_says_what_it_replaces_and_keeps_the_old_database(
    make_members: Callable[..., list[Member]], secretary: Member, tmp_path: Path
) -> None:
    """``manage.py restore`` on a club database (a copy here: the suite's own stays in
    use): the backup's contents and the club's are said, the backup takes the club's
    name, and the replaced one is kept aside."""
    _club(make_members, secretary)
    path = backups.take_backup("by-hand", tmp_path)
    club_db = f"{connection.settings_dict['NAME']}_club"
    drop(club_db)
    backups.load(path, club_db)  # a club with the same books ...
    with reading(club_db):  # ... and a member and a payment more since the backup
        late = create_member("late", "Late Comer")
        record_club_payment(late.pk, Decimal("3.00"), by=secretary.user, credit=True)
        connection.close()
    env = dict(os.environ) | {
        "DATABASE_URL": url(club_db),
        # With the pool a club's processes use: its idle connections are the command's
        # own and must not count as the club running (they did, on make run).
        "DB_POOL": "1",
    }  # fmt: skip
    manage = [sys.executable, str(ROOT / "manage.py"), "restore", str(path)]
    asked = subprocess.run(
        manage, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert asked.returncode == 2 and "give --yes to replace it" in asked.stderr
    assert "Traceback" not in asked.stderr and "CommandError" not in asked.stderr
    assert asked.stderr.strip().endswith("Nothing was changed.")
    # What each holds is said (the secretary and six members; the late comer), then refused.
    assert "now holds 8 members, 1 evening (1 balanced)" in asked.stdout
    assert f"{path.name} holds 7 members" in asked.stdout
    # Issue 79: what a treasurer counts, in each, and what the restore would lose.
    assert asked.stdout.count("the last payment #") == 2, asked.stdout
    assert (
        # the payment's audit entry too: the service writes it with the payment (issue 80)
        "1 payment, 1 member and 1 audit entry recorded after this backup will be lost: payment #"
    ) in asked.stdout, asked.stdout
    assert " of 3.00 on " in asked.stdout
    done = subprocess.run([*manage, "--yes"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    aside = done.stdout.split("is kept as ")[1].split(";")[0]
    try:
        with reading(club_db):
            assert not Member.objects.filter(display_name="Late Comer").exists()
        with reading(aside):
            assert Member.objects.filter(display_name="Late Comer").exists()
        # The way to drop the one kept aside is said, and works on the same settings.
        assert f"python manage.py restore --drop {aside}" in done.stdout
        refused = subprocess.run(
            [*manage[:3], "--drop", "postgres"], env=env, capture_output=True, text=True
        )
        assert refused.returncode == 2 and "not a database a restore kept aside" in refused.stderr
        dropped = subprocess.run(
            [*manage[:3], "--drop", aside], env=env, capture_output=True, text=True
        )
        assert dropped.returncode == 0 and f"Dropped {aside}." in dropped.stdout
    finally:
        drop(club_db)
        drop(aside)


def test_a_connection_closing_as_the_restore_begins_is_not_the_club_running(
    make_members: Callable[..., list[Member]], secretary: Member, tmp_path: Path
) -> None:
    """The restore test failed now and then with "1 connection(s) ... are open": the
    command's own connection, closed a moment before, was still listed until its server
    process had gone. A restore now gives closing connections a moment (polled, up to
    GRACE_SECONDS); one that stays open still means the club is running."""
    import threading

    import psycopg

    club_db = f"{connection.settings_dict['NAME']}_closing"
    drop(club_db)
    with psycopg.connect(**backups._admin()) as c:
        c.execute(f'CREATE DATABASE "{club_db}"')
    try:
        closing = psycopg.connect(url(club_db))
        timer = threading.Timer(0.3, closing.close)  # closes while the restore asks
        timer.start()
        assert backups.others_connected(club_db)[0] == 0
        timer.join()
        held = psycopg.connect(url(club_db))
        try:
            count, who = backups.others_connected(club_db, grace=0.2)
            assert count == 1 and who  # still open after the moment: the club is running
        finally:
            held.close()
    finally:
        drop(club_db)


def test_a_backup_is_the_club_s_alone_and_holds_no_login_session(
    make_members: Callable[..., list[Member]], tmp_path: Path
) -> None:
    """Issue 79, item 1: backups were 0644 in 0755 folders and held django_session (a
    session key taken from one opened the staff's pages with no password) and axes'
    records. Now 0600 in a 0700 folder (an older 0644 one tightened too), with those
    tables empty in it; the members' password hashes are in it, as the README says."""
    import stat

    from django.contrib.sessions.models import Session
    from django.test import Client

    (ann,) = make_members(1, "bk")
    ann.user.set_password("a long pass phrase")
    ann.user.save()
    c = Client()
    c.force_login(ann.user)  # a login session in the database
    assert Session.objects.exists()
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    old = folder / "club-2026-11-02-100000-by-hand.dump"
    old.write_bytes(b"x")
    old.chmod(0o644)
    out = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "backup", "--folder", str(folder)],
        env=dict(os.environ) | {"DATABASE_URL": url(connection.settings_dict["NAME"])},
        capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "mode 0600, its folder 0700" in out.stdout and "keep it like a key" in out.stdout
    (path,) = [p for p in folder.glob("club-*.dump") if p != old]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
    restored = f"{connection.settings_dict['NAME']}_private"
    drop(restored)
    backups.load(path, restored)
    try:
        with reading(restored):
            with connection.cursor() as cursor:
                for table in backups.LEFT_OUT:
                    cursor.execute(f"SELECT count(*) FROM {table}")
                    assert cursor.fetchone()[0] == 0, table
            kept = Member.objects.get(pk=ann.pk).user.password
            assert "$" in kept and not kept.startswith("!")  # a password hash
    finally:
        drop(restored)


# One name holding every trap at once (one make run, not five): a quote, a backtick,
# $(...), a semicolon and spaces.
ODD_NAME = 'our "club" `touch pwned` $(touch pwned); touch pwned.dump'


def test_make_restore_takes_any_file_name_as_a_name(
    make_members: Callable[..., list[Member]], tmp_path: Path
) -> None:
    """Issue 79, item 2: the Makefile pasted FILE into the shell's text, so a backup whose
    name held a quote, a backtick or $(...) ran it. The name now reaches the program in
    the environment: each is only a name, the backup it names is read, and without a
    terminal the restore is refused in a sentence naming YES=1, with no "Error" from
    make and no traceback."""
    make_members(1, "nm")
    path = backups.take_backup("by-hand", tmp_path)
    name = ODD_NAME
    odd = tmp_path / name
    path.rename(odd)
    club_db = f"{connection.settings_dict['NAME']}_named"
    drop(club_db)
    backups.load(odd, club_db)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS")}
    env |= {"DATABASE_URL": url(club_db), "RUN_DIR": str(tmp_path / "run")}
    (tmp_path / "run").mkdir()
    try:
        out = subprocess.run(
            ["make", "-s", "restore", f"FILE={odd}"], cwd=ROOT, env=env,
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
        )  # fmt: skip
        said = out.stdout + out.stderr
        assert out.returncode == 0, said
        assert f"The backup {name} holds" in said, said
        assert "give YES=1 to replace it without asking" in said and "Nothing was changed." in said
        assert "Error" not in said and "Traceback" not in said
        assert not (tmp_path / "pwned").exists() and not (ROOT / "pwned").exists()
    finally:
        drop(club_db)


def test_a_backup_sealed_with_a_passphrase_opens_only_with_it(
    make_members: Callable[..., list[Member]], tmp_path: Path
) -> None:
    """Issue 79, item 1: an optional passphrase seals a backup for the USB stick (Fernet,
    its key from the passphrase by scrypt); restore asks for it, and a wrong one opens
    nothing and changes nothing."""
    import stat

    (ann,) = make_members(1, "seal")
    env = dict(os.environ) | {"DATABASE_URL": url(connection.settings_dict["NAME"])}
    manage = [sys.executable, str(ROOT / "manage.py")]
    out = subprocess.run(
        [*manage, "backup", "--folder", str(tmp_path), "--seal"],
        env=env | {"BACKUP_PASSPHRASE": "harbour lights 42"}, capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "sealed with your passphrase" in out.stdout
    (sealed,) = tmp_path.glob("club-*-by-hand.dump.sealed")
    assert list(tmp_path.glob("*.dump")) == []  # no plain copy left beside it
    assert stat.S_IMODE(sealed.stat().st_mode) == 0o600
    data = sealed.read_bytes()
    assert data.startswith(backups.SEALED) and ann.user.username.encode() not in data
    # Without the passphrase, with a wrong one: refused in a sentence, nothing changed.
    club_db = f"{connection.settings_dict['NAME']}_sealed"
    drop(club_db)
    with psycopg_connect() as c:
        c.execute(f'CREATE DATABASE "{club_db}"')
    at = env | {"DATABASE_URL": url(club_db)}
    try:
        asked = subprocess.run(
            [*manage, "restore", str(sealed)], env=at, capture_output=True, text=True,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert asked.returncode == 2 and "is sealed with a passphrase" in asked.stderr
        wrong = subprocess.run(
            [*manage, "restore", str(sealed), "--yes"],
            env=at | {"BACKUP_PASSPHRASE": "not the one"}, capture_output=True, text=True,
        )  # fmt: skip
        assert wrong.returncode == 2
        assert "The passphrase does not open this backup." in wrong.stderr
        right = subprocess.run(
            [*manage, "restore", str(sealed)],
            env=at | {"BACKUP_PASSPHRASE": "harbour lights 42"}, capture_output=True,
            text=True, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert f"The backup {sealed.name} holds" in right.stdout, right.stderr
        assert right.returncode == 2 and "give --yes" in right.stderr  # read, then asked
    finally:
        drop(club_db)


def psycopg_connect() -> Any:
    import psycopg

    return psycopg.connect(**backups._admin())
