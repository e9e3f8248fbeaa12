"""Deployment settings: `check --deploy` is clean with production settings, every response
carries the security headers and a strict Content Security Policy, and the pages still
work under that policy in a real browser (htmx loads, a click swaps a fragment, and the
browser reports no CSP violation)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.play import reading
from games.play import services as game_services

from .conftest import ROOT, World

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API


def _production_env(**extra: str) -> dict[str, str]:
    drop = ("TESTING", "DEBUG", "TEST_DB_NAME", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="club.example.org",
        DATABASE_URL=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cooncan"),
        **extra,
    )
    return env


@pytest.mark.parametrize(("mail_host", "silenced"), [("mail.example.org", 0), ("", 1)])
def test_check_deploy_is_clean_with_production_settings(mail_host: str, silenced: int) -> None:
    """With a mail server nothing is silenced. Without one the club writes its mail to
    files on purpose (issue 78: the pages offer the QR code instead), and the one check
    silenced is Django's for a development-only mail backend, mail.E001."""
    env = _production_env(EMAIL_HOST=mail_host)
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"no issues ({silenced} silenced)" in out.stdout
    show = "from django.conf import settings; print(settings.SILENCED_SYSTEM_CHECKS)"
    listed = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", show], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert listed.stdout.strip().splitlines()[-1] == ("['mail.E001']" if silenced else "[]")


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = _production_env()
    env.pop("SECRET_KEY")
    out = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert out.returncode != 0 and "SECRET_KEY" in out.stderr


def test_the_live_stream_sources_are_ones_a_browser_accepts() -> None:
    """make run's local settings (issue 56): the stream's port on each allowed host, but no
    IPv6 literal, which a policy cannot name: Chromium logged "contains an invalid source:
    'http://[::1]:8401'" on every page."""
    show = "from django.conf import settings; print(settings.SECURE_CSP['connect-src'])"
    env = _production_env(EVENTS_PORT="8401") | {"ALLOWED_HOSTS": "localhost,127.0.0.1,[::1]"}
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", show], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    sources = out.stdout.strip().splitlines()[-1]  # the list, after the shell's banner
    assert "://127.0.0.1:8401'" in sources and "://localhost:8401'" in sources
    assert "[" not in sources[1:-1], sources


def _policy(header: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_secure(response: Any, where: str) -> None:
    csp = response.get("Content-Security-Policy")
    assert csp, f"{where}: no Content-Security-Policy"
    p = _policy(csp)
    assert p["default-src"] == ["'self'"], where
    assert p["script-src"] == ["'self'"], where  # htmx is served from our static files
    assert p["style-src"] == ["'self'"], where
    assert p["object-src"] == ["'none'"] and p["frame-ancestors"] == ["'none'"], where
    assert p["base-uri"] == ["'self'"] and p["form-action"] == ["'self'"], where
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "*" not in csp, where
    assert response["X-Content-Type-Options"] == "nosniff", where
    assert response["Referrer-Policy"] == "same-origin", where
    assert response["X-Frame-Options"] == "DENY", where
    assert response["Cross-Origin-Opener-Policy"] == "same-origin", where


@pytest.mark.django_db
def test_every_page_fragment_refusal_and_error_carries_the_headers(world: World) -> None:
    # From a loopback host: COOP is sent where a browser applies it, https or loopback
    # (test_the_opener_policy_is_sent_only_where_a_browser_applies_it).
    c = Client(HTTP_HOST="localhost")
    assert_secure(c.get(reverse("login")), "login")
    assert_secure(c.get(reverse("home")), "home")
    assert_secure(c.get("/no/such/page/"), "404")
    c.force_login(world.online_players[0].user)
    deal = reading.current_deal(world.online.pk)
    for url, headers in [
        (reverse("games:table", args=[world.online.pk]), {}),
        (reverse("games:state", args=[world.online.pk]), {"HX-Request": "true"}),
        (reverse("games:club_panel", args=[world.online.pk]), {"HX-Request": "true"}),
        (reverse("club:session", args=[world.session.pk]), {}),
        (reverse("club:washbook", args=[world.table.pk]), {}),
    ]:
        assert_secure(c.get(url, headers=headers), url)
    refused = c.post(
        reverse("games:act", args=[world.online.pk]),
        {"version": deal.version + 5, "deal": deal.pk, "action": "{}"},
        headers={"HX-Request": "true"},
    )
    assert refused.status_code == 409
    assert_secure(refused, "a refused action")
    member = Client(HTTP_HOST="localhost")
    member.force_login(world.players[1].user)
    assert_secure(member.post(reverse("club:session_close", args=[world.session.pk])), "403")


@pytest.mark.django_db
def test_every_page_and_fragment_that_carries_a_hand_is_never_stored(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Table page, state fragment, act answers (applied and refused), practice: no cache
    (browser, proxy) may keep them; static files stay cacheable."""
    c = Client()
    c.force_login(world.online_players[0].user)
    deal = reading.current_deal(world.online.pk)
    assert deal is not None
    state = reading.load_state(deal)
    mover = Client()
    mover.force_login(world.online_players[state.to_move()].user)
    act = reverse("games:act", args=[world.online.pk])
    legal = json.dumps(state.legal_actions(state.to_move())[0].to_json())
    responses = {
        "table page": c.get(reverse("games:table", args=[world.online.pk])),
        "state fragment": c.get(
            reverse("games:state", args=[world.online.pk]), headers={"HX-Request": "true"}
        ),
        "club panel": c.get(reverse("games:club_panel", args=[world.online.pk])),
        "act applied": mover.post(
            act,
            {
                "version": deal.version,
                "deal": deal.pk,
                "token": "ns-1",
                "action": legal,
            },
            headers={"HX-Request": "true"},
        ),  # fmt: skip
        "act refused": c.post(
            act,
            {"version": deal.version + 9, "deal": deal.pk, "action": legal},
            headers={"HX-Request": "true"},
        ),  # fmt: skip
        "act page": c.post(act, {"version": deal.version + 9, "deal": deal.pk, "action": legal}),
        "practice form": c.get(reverse("games:practice")),
    }
    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: None)
    started = c.post(reverse("games:practice"), {"variant": "conquian"}, follow=True)
    responses["practice table"] = started
    assert responses["act applied"].status_code == 200
    assert responses["act refused"].status_code == 409
    assert started.status_code == 200 and started.redirect_chain
    for what, r in responses.items():
        assert "no-store" in r.get("Cache-Control", ""), what
    static = c.get("/static/css/site.css")
    assert "no-store" not in static.get("Cache-Control", "")


@pytest.mark.django_db
def test_the_error_pages_are_the_clubs_own_and_say_what_happened(world: World) -> None:
    """404, 403, the CSRF refusal, 400 and 500 in the app's style (its stylesheet and
    name), never Django's bare pages, and never a traceback."""
    from django.test import RequestFactory
    from django.views.defaults import server_error

    anon = Client()
    member = Client()
    member.force_login(world.players[1].user)
    pages = {
        404: anon.get("/no/such/page/"),
        403: member.post(reverse("club:session_close", args=[world.session.pk])),
        400: anon.get("/", headers={"Host": "evil.example"}),
        500: server_error(RequestFactory().get("/")),
    }
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(world.players[1].user)
    pages[4031] = csrf.post(reverse("club:check_in", args=[world.session.pk]))
    for status, r in pages.items():
        body = r.content.decode()
        assert r.status_code == int(str(status)[:3]), status
        assert "css/site.css" in body and "Cooncan Club" in body, status
        assert f'data-status="{str(status)[:3]}"' in body and 'role="alert"' in body, status
        assert "Traceback" not in body and "DEBUG" not in body, status
    assert "the secretary only" in pages[403].content.decode().lower()
    assert "CSRF" in pages[4031].content.decode()


@pytest.mark.django_db
def test_the_templates_have_no_inline_script_or_style() -> None:
    """The CSP forbids them; a template that used one would break silently in browsers."""
    import re

    bad = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\sstyle=\"|\son[a-z]+=\"|<style", re.I)
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        for m in bad.finditer(path.read_text()):
            offenders.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert offenders == []


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_table_page_works_under_the_policy_in_chromium(
    live_server: Any, make_members: Callable[..., list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chromium loads the table page (htmx and our scripts from our static files), the
    player clicks an action (htmx posts it and swaps the live region), and no CSP
    violation is reported, neither to the console nor as a securitypolicyviolation."""
    from playwright.sync_api import sync_playwright

    from club.models import Seat, Table

    monkeypatch.setattr("games.play.services.schedule_bot", lambda d, v: None)
    a, b = make_members(2, "browser")
    table = Table.objects.create(variant="conquian", size=2, mode="online", status="playing")
    for i, m in enumerate((a, b)):
        Seat.objects.create(table=table, position=i, member=m)
    deal = game_services.ensure_deal(table.pk)
    assert deal is not None
    mover = (a, b)[deal.to_move]
    c = Client()
    c.force_login(mover.user)
    session_cookie = c.cookies["sessionid"].value
    violations: list[str] = []
    console: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            context = browser.new_context()
            context.add_cookies(
                [{"name": "sessionid", "value": session_cookie, "url": live_server.url}]
            )
            context.add_init_script(
                "window.__csp = []; document.addEventListener('securitypolicyviolation',"
                " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
                " window.__settled = 0; document.addEventListener('htmx:afterSettle',"
                " () => { window.__settled += 1; });"
            )
            page = context.new_page()
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            page.goto(f"{live_server.url}/tables/{table.pk}/")
            assert page.evaluate("typeof htmx") == "object", "htmx did not load"
            stamp = page.get_attribute("#play", "data-stamp")
            button = page.locator("#play .actions.simple button").first
            button.click()
            # (wait_for_function would evaluate a string: the policy forbids eval, rightly.)
            for _ in range(100):
                if page.get_attribute("#play", "data-stamp") != stamp:
                    break
                page.wait_for_timeout(100)
            assert page.get_attribute("#play", "data-stamp") != stamp, (
                "the live region was not swapped"
            )
            # htmx has settled the swapped region (its content inserted and processed).
            for _ in range(100):
                if page.evaluate("window.__settled") > 0:
                    break
                page.wait_for_timeout(100)
            assert page.evaluate("window.__settled") > 0, "htmx never settled the swap"
            violations = page.evaluate("window.__csp")
        finally:
            browser.close()
    deal.refresh_from_db()
    assert deal.version == 1, "the click applied one action"
    assert violations == []
    assert not [m for m in console if "Content Security Policy" in m or "Refused to" in m], console


@pytest.mark.django_db
def test_a_bad_host_is_one_log_line_not_a_traceback() -> None:
    """Issue 79, item 4: a request with a bad Host got a clean 400 but wrote a traceback
    to the log, so anyone on the Wi-Fi could fill it. The console handler's filter now
    keeps it to one line."""
    import io
    import logging

    (console,) = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    written = io.StringIO()
    before = console.setStream(written)
    try:
        r = Client().get("/login/", HTTP_HOST="evil.example.org")
    finally:
        console.setStream(before)
    assert r.status_code == 400
    log = written.getvalue()
    assert "Invalid HTTP_HOST header: 'evil.example.org'" in log, log
    assert "Traceback" not in log and len(log.strip().splitlines()) == 1, log


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("host", "secure", "kept"),
    [("192.168.1.20:8000", False, False), ("club.local:8000", False, False),
     ("127.0.0.1:8000", False, True), ("localhost:8000", False, True),
     ("[::1]:8000", False, True), ("192.168.1.20:8000", True, True)],
)  # fmt: skip
def test_the_opener_policy_is_sent_only_where_a_browser_applies_it(
    host: str, secure: bool, kept: bool, settings: Any
) -> None:
    """Issue 79, item 4: on `make run HOST=0.0.0.0` every page logged "The
    Cross-Origin-Opener-Policy header has been ignored" in Chromium (plain http on a LAN
    address). COOP is now sent over https and on loopback only."""
    settings.ALLOWED_HOSTS = ["*"]
    r = Client().get("/login/", HTTP_HOST=host, secure=secure)
    assert r.status_code == 200
    assert r.has_header("Cross-Origin-Opener-Policy") is kept
