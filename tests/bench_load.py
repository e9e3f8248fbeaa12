"""Load and soak: 50 tables of five computer-driven players through the HTTP layer.

Called by the bench runner (``python -m tests.bench --only load``) inside a fresh test
database with Django set up. It starts the real processes (gunicorn for pages and
actions, uvicorn for the event streams, a Celery worker for balancing) against that
database and the runner's Redis prefix, then:

* forms 50 online Foster tables of five members in one open session (quick: 5 tables);
* drives them for 120 s (quick: 15 s): for each table, the player to move chooses with
  the ``greedy`` bot from his own ``player_view`` and POSTs the action to
  ``/tables/<id>/act/`` as that member (his session cookie), exactly as a browser would;
* listens to every table's event stream (``/events/tables/<id>/`` on uvicorn);
* stops, closes the session (the worker balances it), and checks every invariant:
  each deal's cards conserved (replayed from pack + log), every washbook line proves,
  the ledger sums to zero with exactly one balance posting, no error responses, and no
  lost or duplicated action (the log holds exactly the actions answered 200, in order).
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ACTOR_THREADS = 10


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args} exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def _env() -> dict[str, str]:
    from django.conf import settings
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    env = dict(os.environ)
    env.update(
        TESTING="1",
        DATABASE_URL=f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}",
        TEST_DB_NAME="",
        DB_POOL="0",
        REDIS_URL=settings.REDIS_URL,
        REDIS_PREFIX=settings.REDIS_PREFIX,
        PYTHONUNBUFFERED="1",
    )
    return env


def _start(env: dict[str, str]) -> tuple[list[subprocess.Popen[bytes]], int, int]:
    from club.runner.processes import commands

    web_port, events_port = _port(), _port()
    cmds = commands(port=web_port, events_port=events_port)
    procs = []
    web = cmds["web"].replace("0.0.0.0", "127.0.0.1").replace(" --access-logfile -", "")
    events = cmds["events"].replace("0.0.0.0", "127.0.0.1")
    for cmd in (web, events, cmds["worker"].replace("--loglevel INFO", "--loglevel WARNING")):
        argv = cmd.split()
        argv[0] = str(BIN / argv[0])
        procs.append(
            subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )
    _wait_port(web_port, procs[0])
    _wait_port(events_port, procs[1])
    return procs, web_port, events_port


def online_table(session: Any, prefix: str, t: int) -> tuple[Any, list[Any]]:
    """Table ``t`` of the bench's evening: five new members checked in, an online Foster
    table formed of them (seats cut), its first deal dealt; the table and its members."""
    from club.models import Table
    from club.services.base import create_member
    from club.services.sessions import check_in
    from club.services.tables import form_table
    from games.play import services as game_services

    name = prefix.title()
    members = [create_member(f"{prefix}-{t}-{i}", f"{name} {t}.{i}") for i in range(5)]
    for m in members:
        check_in(session, m)
    table = form_table(session, variant="foster", size=5, mode=Table.ONLINE, candidates=members)
    game_services.ensure_deal(table.pk)
    return table, members


def _setup(n_tables: int) -> tuple[Any, list[dict[str, Any]]]:
    from django.conf import settings
    from django.test import Client

    from club.services.base import create_member
    from club.services.sessions import open_session

    secretary = create_member("load-secretary", "Load Secretary", is_staff=True)
    session = open_session(stake="0.01", by=secretary.user, name="Load")
    tables = []
    for t in range(n_tables):
        table, members = online_table(session, "load", t)
        cookies = {}
        for m in members:
            c = Client()
            c.force_login(m.user)
            cookies[m.pk] = c.cookies[settings.SESSION_COOKIE_NAME].value
        tables.append({"id": table.pk, "cookies": cookies, "user": members[0].user_id})
    return session, tables


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.applied: Counter[int] = Counter()  # deal id -> actions answered 200
        self.errors: list[str] = []
        self.events = 0


def _actor(
    tables: list[dict[str, Any]], base: str, stop_at: float, stats: Stats, seed: int
) -> None:
    import httpx
    from django.db import connection

    from games.bots import choose
    from games.play import reading
    from games.play.club_api import table_seating

    rng = random.Random(seed)
    clients: dict[tuple[int, int], httpx.Client] = {}
    seating = {t["id"]: {s.position: s.member_id for s in table_seating(t["id"])} for t in tables}
    try:
        while time.monotonic() < stop_at:
            for t in tables:
                if time.monotonic() >= stop_at:
                    break
                deal = reading.current_deal(t["id"])
                if deal is None or deal.to_move is None:
                    continue
                state = reading.load_state(deal)
                seat = state.to_move()
                if seating[t["id"]].get(seat) is None:  # the seats were redrawn (L4/L5)
                    seating[t["id"]] = {s.position: s.member_id for s in table_seating(t["id"])}
                member = seating[t["id"]][seat]
                key = (t["id"], member)
                if key not in clients:
                    c = httpx.Client(
                        base_url=base, cookies={"sessionid": t["cookies"][member]}, timeout=30
                    )
                    c.get(
                        f"/tables/{t['id']}/"
                    )  # the table's page, as a phone opens it: its CSRF cookie
                    clients[key] = c
                c = clients[key]
                action = choose("greedy", state.player_view(seat), state.legal_actions(seat), rng)
                data = {"version": deal.version, "deal": deal.pk, "token": f"{deal.pk}-{deal.version}",
                        "action": __import__("json").dumps(action.to_json())}  # fmt: skip
                started = time.perf_counter()
                try:
                    r = c.post(f"/tables/{t['id']}/act/", data=data,
                               headers={"HX-Request": "true", "X-CSRFToken": c.cookies.get("csrftoken", "")})  # fmt: skip
                    status = r.status_code
                except httpx.HTTPError as e:
                    status = 599
                    with stats.lock:
                        stats.errors.append(repr(e)[:200])
                elapsed = (time.perf_counter() - started) * 1000
                with stats.lock:
                    stats.latencies.append(elapsed)
                    stats.statuses[status] += 1
                    if status == 200:
                        stats.applied[deal.pk] += 1
                    elif len(stats.errors) < 20:
                        stats.errors.append(
                            f"{status} at table {t['id']}: {r.text[:200] if status != 599 else ''}"
                        )
    finally:
        for c in clients.values():
            c.close()
        connection.close()


def _listener(url: str, stop_at: float, stats: Stats) -> None:
    import httpx

    try:
        with httpx.stream("GET", url, timeout=httpx.Timeout(5, read=20)) as r:
            for line in r.iter_lines():
                # a move's part pushed (issue 59), or a notice to fetch it
                if line.startswith(("event: update", "event: live")):
                    with stats.lock:
                        stats.events += 1
                if time.monotonic() >= stop_at:
                    break
    except httpx.HTTPError:
        pass


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return round(s[min(len(s) - 1, int(p / 100 * len(s)))], 1)


def _check(session: Any, tables: list[dict[str, Any]], stats: Stats) -> dict[str, Any]:
    from django.db.models import Sum

    from club.models import ClubSession, Leg, Posting, WashbookEntry
    from games.models import Deal, DealAction
    from games.play import reading

    deals = list(Deal.objects.filter(table_id__in=[t["id"] for t in tables]))
    bad_cards = 0
    bad_logs = 0
    for deal in deals:
        state = reading.replay(deal)
        if state.version != deal.version:
            bad_logs += 1
        view = state.player_view(0)
        held = sum(view["hand_counts"]) + view["pack_count"] + view.get("stock_count", 0)
        held += sum(len(c["cards"]) for c in view["combinations"])
        if held != len(deal.pack) or len(set(deal.pack)) > len(deal.pack):
            bad_cards += 1
        indices = list(
            DealAction.objects.filter(deal=deal).order_by("index").values_list("index", flat=True)
        )
        if indices != list(range(deal.version)) or stats.applied.get(deal.pk, 0) != deal.version:
            bad_logs += 1
    lines = WashbookEntry.objects.values("line").annotate(s=Sum("points"))
    unproven = lines.exclude(s=0).count()
    bad_postings = Leg.objects.values("posting").annotate(s=Sum("amount")).exclude(s=0).count()
    balance_postings = Posting.objects.filter(session=session, kind="session-balance").count()
    status = ClubSession.objects.get(pk=session.pk).status
    total = Leg.objects.aggregate(s=Sum("amount"))["s"] or 0
    return {
        "cards_conserved": {"ok": bad_cards == 0, "deals": len(deals), "bad": bad_cards},
        "washbooks_prove": {"ok": unproven == 0, "lines": lines.count(), "bad": unproven},
        "ledger_zero": {
            "ok": bad_postings == 0
            and total == 0
            and balance_postings == 1
            and status == "balanced",
            "postings": Posting.objects.count(),
            "bad": bad_postings,
            "session": status,
        },  # fmt: skip
        "no_lost_or_duplicated_actions": {
            "ok": bad_logs == 0,
            "actions_logged": DealAction.objects.filter(deal__in=deals).count(),
            "answered_200": sum(stats.applied.values()),
            "bad_deals": bad_logs,
        },  # fmt: skip
    }


def run(quick: bool = False) -> dict[str, Any]:
    from club.live.streams import grant_for
    from club.models import ClubSession
    from club.services.sessions import close_session
    from games.play.events import event_token

    n_tables, seconds = (5, 15) if quick else (50, 120)
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    session, tables = _setup(n_tables)
    procs, web_port, events_port = _start(_env())
    stats = Stats()
    try:
        base = f"http://127.0.0.1:{web_port}"
        stop_at = time.monotonic() + seconds
        listeners = [
            threading.Thread(
                target=_listener,
                args=(f"http://127.0.0.1:{events_port}/events/tables/{t['id']}/?t={event_token(t['user'], t['id'], grant_for(t['user']))}", stop_at, stats),
                daemon=True,
            )
            for t in tables
        ]  # fmt: skip
        groups = [
            tables[i::ACTOR_THREADS] for i in range(ACTOR_THREADS) if tables[i::ACTOR_THREADS]
        ]
        actors = [
            threading.Thread(target=_actor, args=(g, base, stop_at, stats, i))
            for i, g in enumerate(groups)
        ]
        started = time.monotonic()
        for th in listeners + actors:
            th.start()
        for th in actors:
            th.join()
        elapsed = time.monotonic() - started
        for th in listeners:
            th.join(25)
        close_session(session.pk)  # the worker balances it
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline
            and ClubSession.objects.get(pk=session.pk).status != "balanced"
        ):
            time.sleep(0.5)
        invariants = _check(session, tables, stats)
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
    actions = stats.statuses.get(200, 0)
    errors = sum(n for s, n in stats.statuses.items() if s != 200)
    result = {
        "tables": n_tables, "players_per_table": 5, "seconds": round(elapsed, 1),
        "actions": actions, "actions_per_s": round(actions / elapsed, 1),
        "latency_ms": {"p50": _pct(stats.latencies, 50), "p95": _pct(stats.latencies, 95), "p99": _pct(stats.latencies, 99)},
        "errors": errors, "statuses": {str(k): v for k, v in stats.statuses.items()}, "error_samples": stats.errors[:5],
        "events_received": stats.events, "invariants": invariants,
    }  # fmt: skip
    ok = all(v["ok"] for v in invariants.values()) and errors == 0
    result["summary"] = (
        f"{n_tables} tables x 5 players for {result['seconds']} s: {actions} actions "
        f"({result['actions_per_s']}/s), latency p50/p95/p99 {result['latency_ms']['p50']}/"
        f"{result['latency_ms']['p95']}/{result['latency_ms']['p99']} ms, {errors} errors, "
        f"{stats.events} events; invariants {'all hold' if ok else 'BROKEN'}"
    )
    return result
