"""More than one machine (issue 59, item 3): the club's processes twice over, on one
PostgreSQL and one Redis, as several machines would run them.

Two web processes (gunicorn) and two live-update processes (uvicorn) on ports of their
own, two Celery workers and one beat, started with the commands `make run` and
docker-compose.yml run (club/runner/processes.py). Nothing ties a member to one process:
the login session, the table's state and its events live in PostgreSQL and Redis. Here a
move made through one web process reaches a phone streaming from the other live-update
process (each way); a balancing queued to both workers at once, beside beat's own sweep,
posts once; and beat's timed redraws, taken by whichever worker is free, open each
table's window once.
"""

from __future__ import annotations

import html
import json
import re
import shlex
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from club import tasks
from club.models import ClubSession, Posting, Table
from club.runner.processes import commands
from club.services.ledger import session_money
from games.play import reading
from games.play import services as game_services
from tests.e2e.servers import BIN, free_port, gunicorn, process, uvicorn

from .conftest import books_consistent
from .test_background import _closed_session, _due_tables, _redraws_exactly_once
from .test_concurrency import _online_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Beat's sweeps every second (a club's are every 15 s) so that the timed work comes at once.
SWEEPS = {"CLUB_SWEEP_SECONDS": "1", "GAMES_BOT_SWEEP_SECONDS": "1"}


def _wait(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)  # a moment, not a wait


def _argv(command: str) -> list[str]:
    argv = shlex.split(command)
    argv[0] = str(BIN / argv[0])
    return argv


class Nodes(dict[str, str]):
    """The base URLs of web A and B and events A and B; the workers' logs."""

    logs: list[Path]

    def succeeded(self, task: str) -> int:
        """How many runs of ``task`` the workers have finished (their INFO logs)."""
        pattern = re.compile(rf"Task {re.escape(task)}\[[^]]+\] succeeded")
        return sum(len(pattern.findall(p.read_text(errors="replace"))) for p in self.logs)


@pytest.fixture
def two_of_each(tmp_path: Path) -> Iterator[Nodes]:
    """Web A and B, events A and B, two workers and beat, running."""
    ports = {name: free_port() for name in ("web_a", "web_b", "events_a", "events_b")}
    club = commands(run_dir=str(tmp_path))
    worker = club["worker"].replace("--concurrency 2", "--concurrency 1")
    with ExitStack() as stack:
        for name in ("web_a", "web_b"):
            stack.enter_context(gunicorn(ports[name], workers=1, threads=4, kill=True))
        for name in ("events_a", "events_b"):
            stack.enter_context(uvicorn(ports[name], kill=True))
        for i in range(2):
            stack.enter_context(
                process(_argv(worker), extra=SWEEPS, log=tmp_path / f"worker{i}.log", kill=True)
            )
        stack.enter_context(
            process(_argv(club["beat"]), extra=SWEEPS, log=tmp_path / "beat.log", kill=True)
        )
        nodes = Nodes({name: f"http://127.0.0.1:{port}" for name, port in ports.items()})
        nodes.logs = [tmp_path / f"worker{i}.log" for i in range(2)]
        yield nodes


def _phone(member: Any, web: str) -> httpx.Client:
    """A member's phone on one web process: logged in (the session is the club's, kept
    in the database), with the CSRF cookie a page gives."""
    c = Client()
    c.force_login(member.user)
    phone = httpx.Client(
        base_url=web, cookies={settings.SESSION_COOKIE_NAME: c.cookies[settings.SESSION_COOKIE_NAME].value},
        timeout=20,
    )  # fmt: skip
    return phone


class Stream:
    """A phone's live stream of its table, opened on one live-update process, its lines
    read in the background."""

    def __init__(self, phone: httpx.Client, table: Table, events: str) -> None:
        page = phone.get(f"/tables/{table.pk}/").text
        url = html.unescape(re.search(r'sse-connect="([^"]+)"', page).group(1))  # type: ignore[union-attr]
        self.url = events + url[url.index("/events/") :]
        self.lines: list[str] = []
        self.status = 0
        self.open = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.open.wait(10) and self.status == 200, f"{self.url}: {self.status}"

    def _read(self) -> None:
        try:
            with httpx.stream("GET", self.url, timeout=httpx.Timeout(5, read=30)) as r:
                self.status = r.status_code
                for line in r.iter_lines():
                    self.open.set()
                    self.lines.append(line)
        except httpx.HTTPError:
            pass  # the processes stopped at the test's end
        finally:
            self.open.set()

    def updates(self) -> int:
        """Notices of a move: the part pushed (``live``) or, the mover's, ``update``."""
        return sum(line.startswith(("event: update", "event: live")) for line in self.lines)

    def pushed(self, deal: int, version: int) -> bool:
        """The viewer's live part at ``deal:version`` came on the stream (issue 59)."""
        return any(f'data-stamp="{deal}:{version}"' in line for line in self.lines)


def _move(phone: httpx.Client, table: Table) -> int:
    """The mover's first legal action, posted through ``phone``'s web process; the new
    version of the deal."""
    deal = reading.current_deal(table.pk)
    assert deal is not None
    state = reading.load_state(deal)
    seat = state.to_move()
    assert seat is not None
    action = state.legal_actions(seat)[0]
    r = phone.post(
        f"/tables/{table.pk}/act/",
        data={"version": deal.version, "deal": deal.pk, "token": f"two-nodes-{deal.version}",
              "action": json.dumps(action.to_json())},
        headers={"HX-Request": "true", "X-CSRFToken": phone.cookies.get("csrftoken", "")},
    )  # fmt: skip
    assert r.status_code == 200, r.text[:500]
    return deal.version + 1


def test_a_move_through_one_web_process_reaches_a_phone_on_the_other_events_process(
    make_members: Callable[..., list[Any]], two_of_each: Nodes
) -> None:
    ann, bob = make_members(2, "node")
    table = _online_table([ann, bob])
    game_services.ensure_deal(table.pk)
    ann_phone, bob_phone = _phone(ann, two_of_each["web_a"]), _phone(bob, two_of_each["web_b"])
    # Each watches from the live-update process the other's web process does not share.
    ann_stream = Stream(ann_phone, table, two_of_each["events_b"])
    bob_stream = Stream(bob_phone, table, two_of_each["events_a"])
    for n in range(4):
        deal = reading.current_deal(table.pk)
        assert deal is not None
        mover = reading.load_state(deal).to_move()
        mine, other = (ann_stream, bob_stream) if mover == 0 else (bob_stream, ann_stream)
        before = mine.updates()
        version = _move(ann_phone if mover == 0 else bob_phone, table)  # web A or web B
        # The mover's phone is told of it; the other is pushed its part at the move's
        # version (issue 59), each from the live-update process it streams from.
        _wait(
            lambda b=before, m=mine, o=other, d=deal.pk, v=version: (
                m.updates() > b and o.pushed(d, v)
            ),
            10, f"move {n}'s refresh on both phones",
        )  # fmt: skip


def test_balancing_and_timed_redraws_run_once_with_two_workers_racing(
    secretary: Any, make_members: Callable[..., list[Any]], two_of_each: Nodes
) -> None:
    session, _ = _closed_session(secretary, make_members)  # closing, its balancing not queued
    redraw_tables = _due_tables(secretary, make_members, 3)
    due = {t.pk: Table.objects.get(pk=t.pk).next_redraw_at for t in redraw_tables}
    # The balancing queued twice to the shared queue (each worker may take one) while
    # beat's balance sweep runs every second too: three claims or more at once.
    tasks.balance_session.delay(session.pk)
    tasks.balance_session.delay(session.pk)
    _wait(lambda: ClubSession.objects.get(pk=session.pk).status == "balanced", 40, "the balancing")
    # Beat's redraw sweep (every second here) on whichever worker: each window opened once.
    _wait(
        lambda: not Table.objects.filter(pk__in=due, next_redraw_at__lte=timezone.now()).exists(),
        40, "beat's redraws",
    )  # fmt: skip
    sweeps = two_of_each.succeeded("club.tasks.open_due_redraw_windows")
    _wait(
        lambda: two_of_each.succeeded("club.tasks.open_due_redraw_windows") >= sweeps + 2,
        20, "two more of beat's sweeps, which find nothing more to do",
    )  # fmt: skip
    _redraws_exactly_once(redraw_tables, due)
    assert Posting.objects.filter(session=session, kind="session-balance").count() == 1
    assert sum(session_money(session.pk).values()) == 0
    books_consistent()
