"""The power goes (issue 57, item 2): the whole `make run` stack (the embedded PostgreSQL
and Redis, web, live updates, worker, beat) is killed with SIGKILL, every process of it at
the same instant, while members play at browser tables, a computer player moves and the
secretary enters results at a real-cards table; then `make run` starts again on the same
`.run` folder. Two cuts: one while a member's move and a secretary's result are both in
flight, one during the evening's balancing.

After each start the books must hold what the club was told: every action answered 200 is
in its deal's log and nothing else a member sent is (an action in flight when the power
went is in it or not, never twice); each deal's log runs 0..version-1 and replays to its
stored snapshot; each ended deal has one washbook line; play goes on from where it was and
the computer player moves again; the evening's balancing finishes exactly once; every
washbook line and ledger posting sums to zero.

The moments are drawn from a seeded generator (POWER_CUT_SEED=n repeats one choice of
delays; the threads' timing still varies run to run, which is the point)."""

from __future__ import annotations

import html
import json
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from club.models import ClubSession, Leg, Posting, WashbookEntry, WashbookLine
from club.runner import postgres
from games.models import Deal, DealAction
from games.play import engine_api
from tests.makerun import Browser, MakeRun, processes_with, wait_until, words

SEED = int(os.environ.get("POWER_CUT_SEED", "57"))
ACTION = re.compile(
    r'<button type="submit"[^>]*name="action" value="([^"]+)"[^>]*data-type="([^"]*)"'
)
PLAY = re.compile(r'<button type="submit" class="small" name="action" value="([^"]+)"')
DISCARD = re.compile(r'name="intent" value="discard"[^>]*data-fits="([^"]*)"')
HIDDEN = re.compile(r'<input type="hidden" name="(version|deal|token|seat)" value="([^"]*)"')


def power_cut(run: MakeRun) -> None:
    """Every process of the club stops at one instant, as when the power goes: each is
    frozen (SIGSTOP, again until no new one appears), then all are killed (SIGKILL). No
    process gets to run a line of its own shutdown."""
    marker = str(run.run_dir)
    frozen: set[int] = set()
    while True:
        fresh = set(processes_with(marker)) - frozen
        if not fresh:
            break
        for pid in fresh:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        frozen |= fresh
    for pid in frozen:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    run.proc.wait(timeout=20)
    wait_until(lambda: not processes_with(marker), "every process of the club to be gone", 20)


@dataclass
class Sent:
    """One request a person made: what, and what came back (None: no answer, the power
    went while it was in flight)."""

    table: int
    token: str
    status: int | None = None


@dataclass
class Club:
    """What the club was told, across every run: each member's action and each result."""

    moves: list[Sent] = field(default_factory=list)
    results: list[Sent] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, sent: list[Sent], table: int, ok: int) -> int:
        return sum(1 for s in sent if s.table == table and s.status == ok)

    def in_flight(self, sent: list[Sent]) -> list[Sent]:
        return [s for s in sent if s.status is None]


class Logins:
    """Each person logs in once (a password hash is dear) and comes back after every cut
    with his session cookie: sessions live in PostgreSQL, so a phone stays logged in
    through the power cut, and a session lost with it would fail here."""

    def __init__(self) -> None:
        self.jars: dict[str, httpx.Cookies] = {}
        self.lock = threading.Lock()

    def back(self, run: MakeRun, name: str) -> Browser:
        with self.lock:
            if name not in self.jars:
                first = run.browser()
                first.log_in(name)
                self.jars[name] = first.client.cookies
                first.client.close()
            jar = httpx.Cookies(self.jars[name])
        b = Browser(run.url(""), cookies=jar)
        home = b.client.get("/")
        assert home.status_code == 200 and "/logout/" in home.text, f"{name} is logged out"
        return b


class Play:
    """Members at their browser tables and the secretary at the real-cards table, each in
    a thread, until ``stop`` is set or the club stops answering."""

    def __init__(self, run: MakeRun, club: Club, players: dict[int, list[str]],
                 real_cards: int, rng: random.Random, logins: Logins) -> None:  # fmt: skip
        self.run, self.club, self.rng, self.logins = run, club, rng, logins
        self.stop = threading.Event()
        self.moving = threading.Event()  # a member's action is in flight
        self.resulting = threading.Event()  # a result is in flight
        self.counts = {t: 0 for t in players}
        self.threads = [
            threading.Thread(target=self._table, args=(t, names), daemon=True)
            for t, names in players.items()
        ]
        self.threads.append(threading.Thread(target=self._results, args=(real_cards,), daemon=True))

    def __enter__(self) -> Play:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=30)

    def _table(self, table: int, names: list[str]) -> None:
        people = {name: self.logins.back(self.run, name) for name in names}
        rng = random.Random(self.rng.random())
        try:
            while not self.stop.is_set():
                moved = False
                for b in people.values():
                    page = b.client.get(f"/tables/{table}/state/", headers={"HX-Request": "true"})
                    if page.status_code == 204:  # no deal yet: opening the table deals it
                        page = b.client.get(f"/tables/{table}/")
                    if page.status_code != 200:
                        continue
                    data = self._choose(page.text, rng)
                    if data is None:
                        continue
                    sent = Sent(table, data["token"])
                    with self.club.lock:
                        self.club.moves.append(sent)
                    self.moving.set()
                    try:
                        r = b.client.post(
                            f"/tables/{table}/act/", data=data,
                            headers={"HX-Request": "true", "X-CSRFToken": b.client.cookies.get("csrftoken", "")},
                        )  # fmt: skip
                    finally:
                        self.moving.clear()
                    sent.status = r.status_code
                    if r.status_code == 200:
                        self.counts[table] += 1
                    moved = True
                if not moved:
                    time.sleep(0.05)  # a computer player's turn, or the next deal's deal
        except httpx.HTTPError:
            pass  # the power went
        finally:
            for b in people.values():
                b.client.close()

    @staticmethod
    def _choose(page: str, rng: random.Random) -> dict[str, Any] | None:
        """A random legal action from what the page offers this member; None if nothing."""
        hidden = dict(HIDDEN.findall(page))
        if "token" not in hidden:
            return None
        offers: list[dict[str, Any]] = [
            {"action": html.unescape(v)} for v, kind in ACTION.findall(page) if kind != "take-back"
        ]
        offers += [{"action": html.unescape(v)} for v in PLAY.findall(page)]
        fits = DISCARD.search(page)
        if fits and fits.group(1).split():
            offers += [{"intent": "discard", "cards": c} for c in fits.group(1).split()]
        if not offers:
            return None
        return hidden | rng.choice(offers)

    def _results(self, table: int) -> None:
        secretary = self.logins.back(self.run, "secretary")
        page = secretary.get(f"/club/tables/{table}/").text
        winner, loser = re.findall(r'name="pips_(\d+)"', page)[:2]
        n = 0
        try:
            while not self.stop.is_set():
                n += 1
                sent = Sent(table, f"result-{n}")
                with self.club.lock:
                    self.club.results.append(sent)
                token = secretary.client.cookies.get("csrftoken", "")
                self.resulting.set()
                try:
                    r = secretary.client.post(f"/club/tables/{table}/result/", data={
                        "winner": winner, f"pips_{loser}": str(1 + n % 20),
                        "csrfmiddlewaretoken": token,
                    })  # fmt: skip
                finally:
                    self.resulting.clear()
                sent.status = r.status_code
                time.sleep(0.2)
        except httpx.HTTPError:
            pass
        finally:
            secretary.client.close()


def cut_during(run: MakeRun, play: Play, rng: random.Random) -> None:
    """The power goes a random few milliseconds after the moment a member's move and a
    secretary's result are both in flight: one cut, both kinds of request interrupted
    (as a rule: a request may be answered within those milliseconds)."""
    deadline = time.monotonic() + 60
    while not (play.moving.is_set() and play.resulting.is_set()):
        assert time.monotonic() < deadline, "a move and a result were never in flight together"
        time.sleep(0.001)  # a moment, not a wait: the two events are looked at each ms
    time.sleep(rng.uniform(0.0, 0.005))  # a moment, not a wait
    power_cut(run)


def cut_in_the_balancing(run: MakeRun, run_dir: Path, evening: int) -> str:
    """The power goes while the worker balances the evening: its claim (closing to
    balancing, one transaction with the posting) holds the evening's row, which a probe
    that will not wait (FOR UPDATE NOWAIT) finds locked. Returns what the cut interrupted:
    "the balancing", or the evening's status if the balancing was done before the probe
    saw it (then the cut is right after it, with its backup in progress)."""
    sql = f"SELECT status FROM {ClubSession._meta.db_table} WHERE id = %s FOR UPDATE NOWAIT"
    status = ""
    deadline = time.monotonic() + 60
    with psycopg.connect(postgres.url(run_dir), autocommit=True) as c:
        while time.monotonic() < deadline:
            try:
                status = c.execute(sql, (evening,)).fetchone()[0]  # type: ignore[index]
            except psycopg.errors.LockNotAvailable:
                status = "the balancing"
                break
            if status != ClubSession.CLOSING:
                break
    power_cut(run)
    return status


@contextmanager
def books(run_dir: Path) -> Iterator[psycopg.Connection[Any]]:
    """The club's database as one snapshot (the computer player may move meanwhile)."""
    with psycopg.connect(postgres.url(run_dir)) as c:
        c.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        yield c


def rows(c: psycopg.Connection[Any], sql: str, *args: object) -> list[tuple[Any, ...]]:
    return c.execute(sql, args).fetchall()


def check_books(run_dir: Path, club: Club, tables: dict[str, int]) -> dict[str, int]:
    """Everything the club was told is in the books, and nothing else; each deal replays
    to its snapshot; every line and posting sums to zero. Returns each browser table's
    logged actions."""
    deal, action = Deal._meta.db_table, DealAction._meta.db_table
    line, entry = WashbookLine._meta.db_table, WashbookEntry._meta.db_table
    leg = Leg._meta.db_table
    logged: dict[str, int] = {}
    with books(run_dir) as c:
        for name, table in tables.items():
            if name == "real cards":
                done = club.answered(club.results, table, 302)
                lost = [s for s in club.in_flight(club.results) if s.table == table]
                n = rows(c, f"SELECT count(*) FROM {line} WHERE table_id = %s", table)[0][0]
                assert done <= n <= done + len(lost), (name, done, n, len(lost))
                continue
            tokens = {
                t
                for (t,) in rows(
                    c,
                    f"SELECT a.client_token FROM {action} a JOIN {deal} d "
                    f"ON d.id = a.deal_id WHERE d.table_id = %s "
                    "AND a.client_token NOT LIKE 'bot-%%'",  # a computer player's own
                    table,
                )  # fmt: skip
            }
            sent = [s for s in club.moves if s.table == table]
            ok = {s.token for s in sent if s.status == 200}
            unanswered = {s.token for s in sent if s.status is None}
            assert ok <= tokens, (name, "answered 200 but not in the log", ok - tokens)
            assert tokens <= ok | unanswered, (name, "in the log, never sent or refused",
                                               tokens - ok - unanswered)  # fmt: skip
            deals = rows(c, f"SELECT id, variant, options, players, dealer, seed, pack, carry_in, "
                            f"scores_in, version, snapshot, finished, outcome, washbook_line_id FROM {deal} "
                            "WHERE table_id = %s ORDER BY number", table)  # fmt: skip
            logged[name] = 0
            for d in deals:
                (pk, variant, options, players, dealer, seed, pack, carry_in, scores_in,
                 version, snapshot, finished, outcome, line_id) = d  # fmt: skip
                log = rows(c, f"SELECT index, seat, action FROM {action} WHERE deal_id = %s "
                              "ORDER BY index", pk)  # fmt: skip
                assert [i for i, _, _ in log] == list(range(version)), (name, pk, version)
                state = engine_api.new_state(variant, options, players, dealer, seed=seed,
                                             pack=list(pack), carry_in=carry_in,
                                             scores_in=tuple(scores_in or ()))  # fmt: skip
                for _, seat, data in log:
                    state.apply(engine_api.parse_action(data, state.legal_actions(seat), state))
                assert json.loads(json.dumps(engine_api.to_snapshot(state))) == snapshot, (name, pk)
                # A deal played out has its one line; one the closing evening stopped has none.
                played_out = finished and not (outcome or {}).get("stopped")
                assert (line_id is not None) == played_out, (name, pk, outcome)
                logged[name] += version
        unproven = rows(c, f"SELECT line_id FROM {entry} GROUP BY line_id HAVING sum(points) <> 0")
        assert unproven == [], unproven
        unbalanced = rows(
            c, f"SELECT posting_id FROM {leg} GROUP BY posting_id HAVING sum(amount) <> 0"
        )
        assert unbalanced == [], unbalanced
    return logged


def bot_moves_since(run_dir: Path, table: int, since: float) -> int:
    deal, action = Deal._meta.db_table, DealAction._meta.db_table
    with books(run_dir) as c:
        return int(rows(c, f"SELECT count(*) FROM {action} a JOIN {deal} d ON d.id = a.deal_id "
                           "WHERE d.table_id = %s AND a.client_token LIKE 'bot-%%' "
                           "AND a.created_at > to_timestamp(%s)", table, since)[0][0])  # fmt: skip


@pytest.fixture
def runs(tmp_path: Path) -> Iterator[Callable[[], MakeRun]]:
    started: list[MakeRun] = []

    def start() -> MakeRun:
        started.append(MakeRun(tmp_path))
        started[-1].wait_healthy()
        return started[-1]

    yield start
    for run in started:
        if run.proc.poll() is None:
            power_cut(run)


@pytest.mark.slow
def test_the_power_goes_twice_during_an_evening_and_nothing_is_lost(
    runs: Callable[[], MakeRun], tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    run = runs()
    logins = Logins()
    secretary = logins.back(run, "secretary")
    opened = secretary.post("/sessions/open/", {"name": "Friday", "stake": "0.05",
                                                "default_variant": "conquian", "second": "on"})  # fmt: skip
    evening = int(re.fullmatch(r"/sessions/(\d+)/", opened.headers["location"]).group(1))  # type: ignore[union-attr]
    console = secretary.get(f"/sessions/{evening}/console/")
    ticks = re.findall(
        r'<label for="id_member_\d+"><input type="checkbox" name="member" value="(\d+)"'
        r"[^>]*>\s*([^<]+?)\s*</label>", console.text,
    )[:4]  # fmt: skip
    members = [(pk, label.split(" (")[0].split()[0].lower()) for pk, label in ticks]
    # The demo's four members not at its own open evening (one evening at a time, issue
    # 79) play in the browser; two newcomers, who need no login, play with real cards.
    assert len(members) == 4, console.text[:2000]
    secretary.post(f"/sessions/{evening}/arrivals/", {"member": [pk for pk, _ in members]})
    for name in ("Walkin One", "Walkin Two"):
        secretary.post(f"/sessions/{evening}/arrivals/", {"new_name": name})
    console = secretary.get(f"/sessions/{evening}/console/")
    newcomers = re.findall(
        r'<input type="checkbox" name="players" value="(\d+)"[^>]*>\s*(Walkin \w+)', console.text
    )
    assert len(newcomers) == 2, console.text[:3000]
    seatings = {
        "real cards": ("conquian", "physical", [(pk, "") for pk, _ in newcomers], 0),
        "conquian": ("conquian", "online", members[0:2], 0),
        "tonk": ("tonk", "online", members[2:4], 1),  # and a computer player
    }
    tables: dict[str, int] = {}
    players: dict[int, list[str]] = {}
    for name, (variant, mode, who, computers) in seatings.items():
        before = set(
            re.findall(r'/club/tables/(\d+)/"', secretary.get(f"/sessions/{evening}/console/").text)
        )
        secretary.post(f"/sessions/{evening}/tables/new/", {
            "variant": variant, "mode": mode, "size": str(len(who) + computers),
            "computers": str(computers), "players": [pk for pk, _ in who],
        })  # fmt: skip
        after = set(
            re.findall(r'/club/tables/(\d+)/"', secretary.get(f"/sessions/{evening}/console/").text)
        )
        (table,) = after - before
        tables[name] = int(table)
        if mode == "online":
            players[int(table)] = [login for _, login in who]
    club = Club()

    # 1. While a member's move and a result at the real-cards table are in flight.
    with Play(run, club, players, tables["real cards"], rng, logins) as play:
        wait_until(lambda: all(play.counts.values()), "a member's move at every table")
        time.sleep(rng.uniform(0.0, 2.0))  # a moment, not a wait
        cut_during(run, play, rng)
    run = runs()
    before = check_books(tmp_path, club, tables)
    assert sum(before.values()) > 0, before

    # Play goes on after the start, and the computer player moves again.
    started = time.time()
    with Play(run, club, players, tables["real cards"], rng, logins) as play:
        wait_until(lambda: bot_moves_since(tmp_path, tables["tonk"], started) > 0,
                   "the computer player to move again after the start")  # fmt: skip
        wait_until(lambda: all(play.counts.values()), "a member's move at every table",
                   timeout=30)  # fmt: skip
    after = check_books(tmp_path, club, tables)
    assert all(after[t] > before[t] for t in before), (before, after)

    # 2. During the balancing: the evening closes (deals in play end unscored) and the
    # worker balances it; the power goes a few milliseconds into that.
    secretary = logins.back(run, "secretary")
    secretary.post(f"/sessions/{evening}/close/", {"deals": "end", "note": "the lights went"})
    status = cut_in_the_balancing(run, tmp_path, evening)
    run = runs()
    secretary = logins.back(run, "secretary")
    wait_until(lambda: "balanced" in words(secretary.get(f"/sessions/{evening}/")).lower(),
               f"the evening to be balanced after the start (it was {status} at the cut)")  # fmt: skip
    check_books(tmp_path, club, tables)
    with books(tmp_path) as c:
        posted = rows(c, f"SELECT count(*) FROM {Posting._meta.db_table} WHERE session_id = %s "
                         "AND kind = %s", evening, Posting.SESSION_BALANCE)[0][0]  # fmt: skip
        assert posted == 1, f"the evening balanced {posted} times"
    # and backed up after it: by the worker after the balancing, or at the start if the
    # power went between the two.
    wait_until(lambda: list((tmp_path / "backups").glob(f"club-*-evening-{evening}.dump")),
               "the backup after the balancing")  # fmt: skip
    print(
        f"seed {SEED}: {len(club.moves)} moves sent, {len(club.in_flight(club.moves))} in flight "
        f"at a cut; {len(club.results)} results, {len(club.in_flight(club.results))} in flight; "
        f"the second cut interrupted {status}"
    )
