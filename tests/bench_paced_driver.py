"""The paced load bench's driver (issue 59, item 1): a club's phones, in a process of its
own so that its CPU is its own and the server's figures are the server's.

``python -m tests.bench_paced_driver SPEC N SECONDS SEED`` reads the tables the bench
made (SPEC, JSON), and for the first N of them, as a club's evening would have it:

* every member's phone (five a table) listens to its table's live stream: a move's
  ``live`` event is its part, pushed (shown if newer than what it shows, as table.js
  does; issue 59); on an ``update`` (its own move's, or a push that could not be
  rendered) it fetches its table's fragment as the page does (``hx-get`` of the state on
  ``sse:update`` with ``?since=`` the stamp it shows, a 204 when it has it; the club
  panel 150 ms after the last of close ``club`` notices: a deal dealt or ended, or the
  club's side). As
  static/js/table.js does, a move's notice (no ``club`` in it) is not fetched by a phone
  that shows its version already; while the phone's own move is in flight it waits for
  the move's answer (then fetched only if newer than it), at most ``HOLD`` seconds;
* each table's player to move acts after a think time of 2 to 8 s (seeded), through
  his own phone's session (the move chosen by the ``greedy`` computer player from his
  own view, read from the database as the page's state is);
* the secretary's console listens to the evening's stream: a move within a deal brings
  its table's progress line itself (``line-<table>``, swapped in); a deal dealt or ended
  sends it to fetch that line (``sse:move-<table>``); any other notice, its live part
  300 ms after the last one (``delay:300ms``).

It prints JSON: each action's latency, the delay from an action's answer to each other
phone's refreshed fragment (and to the console's), counts (what the pages fetched while
measured, by kind), errors, its own CPU, and how
late its event loop ran a 10 ms timer (the driver's own share of the delays it reports).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import resource
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
from yarl import URL

THINK = (2.0, 8.0)
HOLD = 0.3  # table.js's HOLD: a move's notice waits for one's own move's answer
STAMP = re.compile(r'data-stamp="([^"]*)"')  # the live fragment's stamp (table.js)


def _choose(table_id: int, rng: random.Random) -> tuple[int, int, int, str] | None:
    """The mover's seat, the deal, its version and the move (as the page posts it)."""
    from django.db import connection

    from games.bots import choose
    from games.play import reading

    try:
        deal = reading.current_deal(table_id)
        if deal is None or deal.to_move is None:
            return None
        state = reading.load_state(deal)
        seat = state.to_move()
        if seat is None:
            return None
        action = choose("greedy", state.player_view(seat), state.legal_actions(seat), rng)
        return seat, deal.pk, deal.version, json.dumps(action.to_json())
    except Exception:
        connection.close()  # a broken connection is not kept; a sound one is (a connect a
        raise  # move cost PostgreSQL a new backend each time, the server's CPU the driver's)


class Reply:
    """An answer read whole: its status and text."""

    def __init__(self, status_code: int, text: str) -> None:
        self.status_code, self.text = status_code, text


class Client:
    """One phone's (or console's) HTTP client: its own cookies (the login, then the CSRF
    cookie the pages set) and at most 8 connections, as a browser keeps. aiohttp's C
    parser rather than httpx: httpx took half the driver's CPU (py-spy at 100 tables),
    CPU this two-core machine's server then lacked."""

    def __init__(self, base: str, cookie: str) -> None:
        self.base = URL(base)
        jar = aiohttp.CookieJar(unsafe=True)  # 127.0.0.1: an address, not a name
        jar.update_cookies({"sessionid": cookie}, self.base)
        self.session = aiohttp.ClientSession(
            base_url=self.base, cookie_jar=jar, connector=aiohttp.TCPConnector(limit=8),
            timeout=aiohttp.ClientTimeout(total=60),
        )  # fmt: skip

    @property
    def csrf(self) -> str:
        for c in self.session.cookie_jar:
            if c.key == "csrftoken":
                return str(c.value)
        return ""

    async def get(
        self, path: str, params: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> Reply:
        async with self.session.get(path, params=params, headers=headers) as r:
            return Reply(r.status, await r.text())

    async def post(self, path: str, data: dict[str, Any], headers: dict[str, str]) -> Reply:
        async with self.session.post(path, data=data, headers=headers) as r:
            return Reply(r.status, await r.text())

    def stream(self, url: str) -> Any:
        """A live stream (``url`` absolute: the events process), read line by line."""
        return self.session.get(
            url, timeout=aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=None)
        )


class Run:
    def __init__(self, spec: dict[str, Any], n: int, seconds: float, seed: int) -> None:
        self.spec, self.tables = spec, spec["tables"][:n]
        self.seconds, self.seed = seconds, seed
        self.measuring = False
        # (table, version): when the move's answer came, its seat, when it was sent
        self.answered: dict[tuple[int, int], tuple[float, int, float]] = {}
        self.refreshed: list[tuple[int, int, int, float]] = []  # table, version, seat, t
        self.console: list[float] = []
        self.clients: list[Client] = []  # every client made, closed at the end
        self.panel_timers: dict[tuple[int, int], asyncio.Task[None]] = {}  # (table, seat)
        self.fetched: dict[str, int] = {}  # what the pages fetched while measuring, by kind
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.statuses: dict[int, int] = {}
        self.open = 0
        self.stamps: dict[tuple[int, int], str] = {}  # (table, seat): the stamp shown
        self.moving: set[tuple[int, int]] = set()  # (table, seat): a move in flight
        self.told: dict[tuple[int, int], tuple[int, int]] = {}  # held back: (deal, version)
        self.held: dict[tuple[int, int], str] = {}  # a pushed part held back: its stamp
        self.lags: list[float] = []  # ms the loop ran a 10 ms timer late, while measuring

    def _client(self, cookie: str) -> Client:
        client = Client(self.spec["web"], cookie)
        self.clients.append(client)
        return client

    async def phone(self, table: dict[str, Any], seat: int, client: Client) -> None:
        url = self.spec["events"] + table["streams"][seat]
        tid = table["id"]
        async with client.stream(url) as r:
            if r.status != 200:
                self.errors.append(f"stream {r.status} at table {tid}")
                return
            self.open += 1
            event, data = "", []
            async for raw in r.content:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
                elif line == "":
                    if data:
                        self._event(client, tid, seat, event, "\n".join(data))
                    event, data = "", []

    def _event(self, client: Client, tid: int, seat: int, event: str, data: str) -> None:
        """One event of a phone's stream, as table.js takes it."""
        if event == "live":
            self._pushed(client, tid, seat, data)
        elif event == "update":
            msg = json.loads(data)
            version = int(msg.get("version", -1))
            if not msg.get("club") and "deal" in msg:  # a move within a deal
                told = (int(msg["deal"]), version)
                if (tid, seat) in self.moving:
                    self._hold(client, tid, seat)
                    self.told[(tid, seat)] = told
                    return
                if self._has(tid, seat, told):
                    return
            asyncio.get_running_loop().create_task(self.refresh(client, tid, seat, version))
        elif event == "club":
            self._club_later(client, tid, seat)

    def _pushed(self, client: Client, tid: int, seat: int, html: str) -> None:
        """The phone's part pushed on its stream (issue 59): shown if newer than what it
        shows; held, as a notice is, while its own move is in flight."""
        found = STAMP.search(html)
        if not found:
            self.errors.append(f"a pushed part without a stamp at table {tid}")
            return
        self._count("live part pushed")
        if (tid, seat) in self.moving:
            self._hold(client, tid, seat)
            self.held[(tid, seat)] = found.group(1)
            return
        self._show_pushed(tid, seat, found.group(1))

    def _show_pushed(self, tid: int, seat: int, stamp: str) -> None:
        found = re.match(r"(\d+):(\d+)", stamp)
        if not found:
            return
        told = (int(found.group(1)), int(found.group(2)))
        if self._has(tid, seat, told):
            return  # older than, or the state shown (table.js's beforeLive)
        self.stamps[(tid, seat)] = stamp
        if self.measuring:
            self.refreshed.append((tid, told[1], seat, time.monotonic()))

    def _hold(self, client: Client, tid: int, seat: int) -> None:
        """The first notice or push held while the phone's move is in flight starts the
        HOLD: then it is taken as if it came after the answer."""
        if (tid, seat) not in self.told and (tid, seat) not in self.held:
            asyncio.get_running_loop().create_task(self._release_later(client, tid, seat))

    def _count(self, kind: str) -> None:
        if self.measuring:
            self.fetched[kind] = self.fetched.get(kind, 0) + 1

    def _has(self, tid: int, seat: int, told: tuple[int, int]) -> bool:
        """Whether the phone shows that deal's version already, or a later one."""
        found = re.match(r"(\d+):(\d+)", self.stamps.get((tid, seat), ""))
        return bool(found) and told <= (int(found.group(1)), int(found.group(2)))

    def _release(self, client: Client, tid: int, seat: int) -> None:
        """A held push shown, a held notice fetched, if the phone does not show it
        (table.js's releaseTold)."""
        held = self.held.pop((tid, seat), None)
        if held is not None:
            self._show_pushed(tid, seat, held)
        told = self.told.pop((tid, seat), None)
        if told is not None and not self._has(tid, seat, told):
            asyncio.get_running_loop().create_task(self.refresh(client, tid, seat, told[1]))

    async def _release_later(self, client: Client, tid: int, seat: int) -> None:
        await asyncio.sleep(HOLD)
        self._release(client, tid, seat)

    def _shown(self, tid: int, seat: int, r: Reply) -> None:
        """What the phone now shows: the fragment's stamp (table.js's stamp())."""
        found = STAMP.search(r.text)
        if found:
            self.stamps[(tid, seat)] = found.group(1)

    async def refresh(self, client: Client, tid: int, seat: int, version: int) -> None:
        # As table.js asks: with what the phone shows (?since=), so that a refresh of what
        # it already has (the mover's, after his action's answer) is a 204.
        since = self.stamps.get((tid, seat), "")
        r = await client.get(
            f"/tables/{tid}/state/", params={"since": since}, headers={"HX-Request": "true"}
        )
        done = time.monotonic()
        self._count(f"live part {r.status_code}")
        if r.status_code == 200:
            self._shown(tid, seat, r)
        if r.status_code not in (200, 204):
            self.errors.append(f"state {r.status_code} at table {tid}")
        elif self.measuring and r.status_code == 200:
            self.refreshed.append((tid, version, seat, done))

    def _club_later(self, client: Client, tid: int, seat: int) -> None:
        """The club panel's hx-trigger, ``sse:club delay:150ms``: each notice starts the
        150 ms again, so notices close together make one fetch."""
        pending = self.panel_timers.get((tid, seat))
        if pending is not None and not pending.done():
            pending.cancel()  # its wait only: a fetch is a task of its own
        self.panel_timers[(tid, seat)] = asyncio.get_running_loop().create_task(
            self._club_after_delay(client, tid)
        )

    async def _club_after_delay(self, client: Client, tid: int) -> None:
        await asyncio.sleep(0.15)
        asyncio.get_running_loop().create_task(self.club_panel(client, tid))

    async def club_panel(self, client: Client, tid: int) -> None:
        r = await client.get(f"/tables/{tid}/club/", headers={"HX-Request": "true"})
        self._count("club panel")
        if r.status_code != 200:
            self.errors.append(f"club panel {r.status_code} at table {tid}")

    async def mover(self, table: dict[str, Any], clients: list[Client]) -> None:
        rng = random.Random(f"{self.seed}-{table['id']}")
        while True:
            await asyncio.sleep(rng.uniform(*THINK))
            chosen = await asyncio.to_thread(_choose, table["id"], rng)
            if chosen is None:
                continue
            seat, deal, version, action = chosen
            client = clients[seat]
            started = time.monotonic()
            self.moving.add((table["id"], seat))
            try:
                r = await client.post(
                    f"/tables/{table['id']}/act/",
                    data={"version": version, "deal": deal, "action": action,
                          "token": f"paced-{deal}-{version}"},
                    headers={"HX-Request": "true",
                             "X-CSRFToken": client.csrf},
                )  # fmt: skip
                status = r.status_code
                if status == 200:
                    self._shown(table["id"], seat, r)
            except (aiohttp.ClientError, TimeoutError) as e:
                status = 599
                self.errors.append(repr(e)[:200])
            done = time.monotonic()
            self.moving.discard((table["id"], seat))
            self._release(client, table["id"], seat)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if self.measuring:
                self.latencies.append((done - started) * 1000)
                if status == 200:
                    self.answered[(table["id"], version + 1)] = (done, seat, started)
            if status not in (200, 409) and len(self.errors) < 20:
                self.errors.append(f"act {status} at table {table['id']}")

    async def secretary(self, console: dict[str, str]) -> None:
        """A console: on each update, its live part fetched 300 ms after the last one
        (``delay:300ms``), one fetch at a time and the last update queued behind it (as
        htmx queues a trigger while its request is in flight)."""
        client = self._client(console["cookie"])
        timer: asyncio.Task[None] | None = None
        latest: list[float] = []  # the newest update's time not yet fetched
        busy = asyncio.Lock()

        async def debounce() -> None:
            await asyncio.sleep(0.3)
            asyncio.get_running_loop().create_task(fetch())  # its own task: never cancelled

        async def fetch() -> None:
            async with busy:
                if not latest:
                    return
                at = latest.pop()
                await client.get(console["page"], headers={"HX-Request": "true"})
                self._count("console")
                if self.measuring:
                    self.console.append(time.time() - at)

        async def progress(table: str, at: float) -> None:
            # A move: the table's progress line alone (hx-trigger="sse:move-<table>").
            await client.get(
                f"{console['page']}tables/{table}/progress/", headers={"HX-Request": "true"}
            )
            self._count("console line")
            if self.measuring:
                self.console.append(time.time() - at)

        url = self.spec["events"] + console["stream"]
        async with client.stream(url) as r:
            event, ident = "", ""
            async for raw in r.content:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("id:"):
                    ident = line[3:].strip()
                elif line.startswith("data:") and event.startswith("line-"):
                    # A move's line itself, swapped in (sse-swap): shown as it arrives.
                    self._count("console line pushed")
                    if self.measuring and ident:
                        self.console.append(time.time() - float(ident))
                elif line.startswith("data:") and event.startswith("move-"):
                    at = float(json.loads(line[5:]).get("at") or time.time())
                    asyncio.get_running_loop().create_task(progress(event[5:], at))
                elif line.startswith("data:") and event == "update":
                    at = float(json.loads(line[5:]).get("at") or time.time())
                    latest[:] = [min([at, *latest])]  # the oldest update waiting
                    if timer is not None and not timer.done():
                        timer.cancel()  # the timer only: a fetch under way goes on
                    timer = asyncio.get_running_loop().create_task(debounce())

    async def lag(self) -> None:
        """How late this process's event loop runs a timer: every reply the driver times
        waits at least that long for the loop after it arrives."""
        while True:
            t = time.monotonic()
            await asyncio.sleep(0.01)
            if self.measuring:
                self.lags.append((time.monotonic() - t - 0.01) * 1000)

    async def main(self) -> dict[str, Any]:
        clients = {t["id"]: [self._client(c) for c in t["cookies"]] for t in self.tables}
        for t in self.tables:  # each phone opens the table's page: its CSRF cookie (the
            for seat, c in enumerate(clients[t["id"]]):  # fragments carry none), what it shows
                r = await c.get(f"/tables/{t['id']}/")
                self._shown(t["id"], seat, r)
        rooms = (len(self.tables) + self.spec["room"] - 1) // self.spec["room"]
        tasks = [asyncio.create_task(self.secretary(c)) for c in self.spec["consoles"][:rooms]]
        for t in self.tables:
            for seat, c in enumerate(clients[t["id"]]):
                tasks.append(asyncio.create_task(self.phone(t, seat, c)))
        deadline = time.monotonic() + 60
        while self.open < 5 * len(self.tables) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)  # every phone listening before the first move
        tasks += [asyncio.create_task(self.mover(t, clients[t["id"]])) for t in self.tables]
        tasks.append(asyncio.create_task(self.lag()))
        await asyncio.sleep(THINK[1])  # the first moves, not yet measured
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        self.measuring, started, window_start = True, time.monotonic(), time.time()
        await asyncio.sleep(self.seconds)
        self.measuring, elapsed, window_end = False, time.monotonic() - started, time.time()
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(c.session.close() for c in self.clients))
        others = [
            (done, self.answered[(tid, v)])
            for tid, v, seat, done in self.refreshed
            if (tid, v) in self.answered and seat != self.answered[(tid, v)][1]
        ]
        # From the move's answer (the measure: negative where a phone was pushed
        # the move before its mover had the answer), and from the move sent (what the
        # players at the table see: the move made to the others' phones showing it).
        delays = [(done - answered[0]) * 1000 for done, answered in others]
        from_move = [(done - answered[2]) * 1000 for done, answered in others]
        return {
            "tables": len(self.tables), "seconds": round(elapsed, 1),
            "actions": len(self.latencies), "streams_open": self.open,
            "latencies_ms": self.latencies, "other_phones_ms": delays,
            "other_phones_from_move_ms": from_move,
            "console_ms": [d * 1000 for d in self.console],
            "statuses": self.statuses, "errors": self.errors[:10], "fetched": self.fetched,
            "window": [window_start, window_end],  # the measured span, wall-clock
            "driver_loop_lag_ms": self.lags,
            "driver_cpu_s": round(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime, 2),
        }  # fmt: skip


def main() -> None:
    import django

    django.setup()
    spec_file, n, seconds, seed = (
        sys.argv[1],
        int(sys.argv[2]),
        float(sys.argv[3]),
        int(sys.argv[4]),
    )
    spec = json.loads(Path(spec_file).read_text())
    result = asyncio.run(Run(spec, n, seconds, seed).main())
    sys.stdout.write(json.dumps(result))


if __name__ == "__main__":
    main()
