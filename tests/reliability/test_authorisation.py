"""Authorisation: who may see and do what, every state change a POST with CSRF, and the
login rate limit.

Every URL of the club and games apps is classified below (a new URL fails the first
test until it is): a page (GET), or an action (POST) with the role it needs. Each action
is posted with VALID data, so that a 403/405/redirect proves the guard, not bad input:
the same request then succeeds for the right person with a CSRF token.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from club.models import ClubSession, Posting, Table
from games.play import reading

from .conftest import PASSWORD, World, state_snapshot

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = {
    "home", "games:rules", "games:rules_variant", "healthz", "login", "password_forgot",
    "password_reset_done",
}  # fmt: skip
LOGIN_PAGES = {
    "club:sessions", "club:session", "club:session_washbook", "club:session_print",
    "club:settlement", "club:table",
    "club:washbook", "club:cut", "club:standings", "games:table", "games:state",
    "games:club_panel", "games:practice", "password_change", "password_changed",
}  # fmt: skip
OWN_PAGES = {
    "club:member",
    "club:statement",
    "club:member_statement",
    "club:member_period_statement",
}
STAFF_PAGES = {
    "club:console", "club:session_close_confirm", "club:line_correct", "club:members", "club:audit",
    "club:table_progress", "club:club_account", "club:owed", "club:backups", "club:export",
}  # fmt: skip
# Actions whose GET is their form (a page): the rest answer GET with 405.
FORM_PAGES = {"games:practice", "club:line_correct", "club:house_rules"}
# Actions whose GET goes back to their form's page (issue 79: reloading the address a
# refused form left in the bar answered 405), changing nothing.
BACK_TO_FORM = {"club:session_open", "club:session_close", "club:table_result"}
# Token-authenticated and read-only (its own tests), or a benchmark's yardstick (404 here).
# The empty club's setup page too: 404 once the club has members (tests/club/test_setup.py).
# A sign-in link's page: its token is the authority (tests/club/test_logins.py).
# The language switcher: anyone's own choice, a POST that changes only the chooser's
# cookie and profile (tests/club/test_language.py).
SPECIAL = {
    "games:events", "club:session_events", "games:bench_ping", "setup", "signin",
    "password_reset_confirm", "set_language",
}  # fmt: skip


@dataclass(frozen=True)
class Action:
    name: str
    role: str  # "staff", "member", "seated"
    args: Callable[[World], list[int]]
    actor: Callable[[World], Any]
    data: Callable[[World], dict[str, Any]]


def _act_data(w: World) -> dict[str, Any]:
    deal = reading.current_deal(w.online.pk)
    state = reading.load_state(deal)
    action = state.legal_actions(state.to_move())[0]
    return {
        "version": deal.version,
        "deal": deal.pk,
        "token": "auth-1",
        "action": json.dumps(action.to_json()),
    }


def _last_payment() -> int:
    """The newest payment not yet reversed (0 before there is one: no such page)."""
    return (
        Posting.objects.filter(kind=Posting.PAYMENT, reversal__isnull=True)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
        or 0
    )


def _roster_file() -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("roster.csv", b"name\nRoster Person\n", content_type="text/csv")


def _mover(w: World) -> Any:
    deal = reading.current_deal(w.online.pk)
    return w.online_players[deal.to_move]


# In an order in which each, applied for real, leaves the next one valid.
ACTIONS = [
    Action("club:check_in", "member", lambda w: [w.session.pk], lambda w: w.idle, lambda w: {}),
    Action("club:table_join", "member", lambda w: [w.table.pk], lambda w: w.idle, lambda w: {}),
    Action("club:table_redraw", "seated", lambda w: [w.table.pk], lambda w: w.players[1], lambda w: {}),
    Action("club:table_substitute", "seated", lambda w: [w.table.pk], lambda w: w.players[1],
           lambda w: {"substitute": w.spectator.pk}),
    Action("club:sub_consent", "seated", lambda w: [w.sub.pk], lambda w: w.players[1],
           lambda w: {"agree": "yes"}),
    Action("games:act", "seated", lambda w: [w.online.pk], _mover, _act_data),
    Action("games:practice", "member", lambda w: [], lambda w: w.idle, lambda w: {"variant": "conquian"}),
    Action("club:arrival_add", "staff", lambda w: [w.mistake.pk], lambda w: w.secretary,
           lambda w: {"new_name": "Walk In"}),
    Action("club:arrival_leave", "staff", lambda w: [w.mistake.pk, w.present.pk],
           lambda w: w.secretary, lambda w: {}),
    Action("club:table_cancel", "staff", lambda w: [w.mistake_table.pk], lambda w: w.secretary,
           lambda w: {}),
    Action("club:table_computer", "staff", lambda w: [w.roomy_table.pk], lambda w: w.secretary,
           lambda w: {}),
    Action("club:session_cancel", "staff", lambda w: [w.mistake.pk], lambda w: w.secretary,
           lambda w: {}),
    Action("club:table_result", "staff", lambda w: [w.table.pk], lambda w: w.secretary,
           lambda w: {"winner": w.players[1].pk, f"pips_{w.players[2].pk}": 7,
                      f"pips_{w.players[0].pk}": 1, f"pips_{w.players[3].pk}": 2}),
    Action("club:line_correct", "staff", lambda w: [w.line.pk], lambda w: w.secretary,
           lambda w: {"reason": "misread", "reverse_only": "on"}),
    Action("club:transfer_pay", "staff", lambda w: [w.transfer.pk], lambda w: w.secretary, lambda w: {}),
    Action("club:member_payment", "staff", lambda w: [w.players[0].pk], lambda w: w.secretary,
           lambda w: {"to": "club", "amount": "2.00", "method": "cash", "credit": "on"}),
    # Issue 53, item 2: the club pays back part of that credit; a payment is reversed.
    Action("club:member_refund", "staff", lambda w: [w.players[0].pk], lambda w: w.secretary,
           lambda w: {"refund-amount": "1.00", "refund-method": "cash", "refund-note": "change"}),
    Action("club:payment_reverse", "staff", lambda w: [_last_payment()], lambda w: w.secretary,
           lambda w: {"reason": "recorded twice"}),
    Action("club:house_rules", "staff", lambda w: [], lambda w: w.secretary,
           lambda w: {"name": "Club rules", "variant": "foster", "opt-foster-splash": "25"}),
    # Issue 78: a member added, a sign-in link given (its page is token-authenticated).
    Action("club:member_add", "staff", lambda w: [], lambda w: w.secretary,
           lambda w: {"display_name": "Newly Added"}),
    Action("club:member_signin_link", "staff", lambda w: [w.idle.pk], lambda w: w.secretary,
           lambda w: {}),
    Action("club:member_import", "staff", lambda w: [], lambda w: w.secretary,
           lambda w: {"roster": _roster_file()}),
    Action("club:member_sign_out", "staff", lambda w: [w.outsider.pk], lambda w: w.secretary,
           lambda w: {}),
    Action("club:member_login", "staff", lambda w: [w.outsider.pk], lambda w: w.secretary,
           lambda w: {"enabled": "0"}),
    Action("club:member_join", "staff", lambda w: [w.guest.pk], lambda w: w.secretary,
           lambda w: {}),
    Action("club:session_open", "staff", lambda w: [], lambda w: w.secretary,
           lambda w: {"stake": "0.05", "default_variant": "foster", "name": "Next",
                      "second": "on"}),
    Action("club:table_create", "staff", lambda w: [w.session.pk], lambda w: w.secretary,
           lambda w: {"variant": "conquian", "mode": "physical", "size": 2}),
    Action("club:table_void", "staff", lambda w: [w.table.pk], lambda w: w.secretary,
           lambda w: {f"void-{w.table.pk}-reason": "the wrong game"}),
    Action("club:arrival_fee", "staff", lambda w: [w.session.pk, w.players[0].pk],
           lambda w: w.secretary, lambda w: {"waive": "1", "why": "helps the club"}),
    Action("club:check_out", "member", lambda w: [w.session.pk], lambda w: w.idle, lambda w: {}),
    Action("club:session_close", "staff", lambda w: [w.session.pk], lambda w: w.secretary,
           lambda w: {"deals": "end", "note": "the room closes"}),
    Action("club:session_void", "staff", lambda w: [w.session.pk], lambda w: w.secretary,
           lambda w: {"void-session-reason": "a practice night"}),
    Action("logout", "member", lambda w: [], lambda w: w.idle, lambda w: {}),
]  # fmt: skip


def _names(resolver: URLResolver, ns: str = "") -> set[str]:
    out: set[str] = set()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            if p.app_name == "admin":
                continue
            out |= _names(p, f"{p.namespace}:" if p.namespace else ns)
        elif isinstance(p, URLPattern) and p.name:
            out.add(ns + p.name)
    return out


def _ready(w: World) -> None:
    """Open the redraw window and check in the members the actions need."""

    from club.services.sessions import check_in

    Table.objects.filter(pk=w.table.pk).update(
        redraw_window_until=timezone.now() + timezone.timedelta(minutes=10)
    )
    check_in(w.session, w.spectator)


def _client(member: Any = None, *, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf)
    if member is not None:
        c.force_login(member.user)
    return c


def test_every_url_is_classified() -> None:
    known = PUBLIC_PAGES | LOGIN_PAGES | OWN_PAGES | STAFF_PAGES | SPECIAL
    known |= {a.name for a in ACTIONS}
    assert _names(get_resolver()) - known == set(), "classify the new URL in this test"


def _page_args(w: World, name: str) -> list[Any]:
    return {
        "club:session": [w.session.pk], "club:session_washbook": [w.session.pk],
        "club:session_print": [w.session.pk],
        "club:console": [w.session.pk], "club:session_close_confirm": [w.session.pk],
        "club:table_progress": [w.table.session_id, w.table.pk],
        "club:line_correct": [w.line.pk],
        "club:settlement": [w.closed.pk], "club:table": [w.table.pk], "club:washbook": [w.table.pk],
        "club:cut": [w.cut.pk], "games:table": [w.online.pk], "games:state": [w.online.pk],
        "games:club_panel": [w.online.pk], "games:rules_variant": ["conquian"],
        "club:member": [w.players[0].pk], "club:statement": [w.players[0].pk, w.closed.pk],
        "club:member_statement": [w.players[0].pk],
        "club:member_period_statement": [w.players[0].pk], "club:export": ["payments"],
    }.get(name, [])  # fmt: skip


def test_anonymous_visitors_see_public_pages_only_and_change_nothing(world: World) -> None:
    _ready(world)
    anon = Client()
    for name in sorted(PUBLIC_PAGES):
        r = anon.get(reverse(name, args=_page_args(world, name)))
        assert r.status_code in (200, 503), name  # /healthz may report a missing worker
    for name in sorted(LOGIN_PAGES | OWN_PAGES | STAFF_PAGES):
        r = anon.get(reverse(name, args=_page_args(world, name)))
        assert r.status_code == 302 and r["Location"].startswith(
            settings.LOGIN_URL and "/login/"
        ), name
    before = state_snapshot()
    for a in ACTIONS:
        r = anon.post(reverse(a.name, args=a.args(world)), a.data(world))
        if a.name == "logout":
            continue
        assert r.status_code == 302 and r["Location"].startswith("/login/"), a.name
    assert state_snapshot() == before


def test_members_cannot_do_the_secretarys_work(world: World) -> None:
    _ready(world)
    member = _client(world.players[1])
    before = state_snapshot()
    staff_actions = [a for a in ACTIONS if a.role == "staff"]
    assert {a.name for a in staff_actions} == {
        "club:session_open", "club:session_close", "club:table_create", "club:table_result",
        "club:line_correct", "club:transfer_pay", "club:member_payment", "club:house_rules",
        "club:member_refund", "club:payment_reverse",
        "club:table_cancel", "club:table_computer", "club:member_add", "club:member_signin_link",
        "club:member_sign_out", "club:member_login", "club:member_import",
        "club:member_join", "club:session_cancel",
        "club:arrival_add", "club:arrival_leave", "club:table_void", "club:session_void",
        "club:arrival_fee",
    }  # fmt: skip
    for a in staff_actions:
        r = member.post(reverse(a.name, args=a.args(world)), a.data(world))
        assert r.status_code == 403, a.name
    for name in sorted(STAFF_PAGES):
        assert member.get(reverse(name, args=_page_args(world, name))).status_code == 403, name
        assert (
            _client(world.secretary).get(reverse(name, args=_page_args(world, name))).status_code
            == 200
        )
    assert state_snapshot() == before


def test_only_a_seated_player_acts_at_the_club_table(world: World) -> None:
    _ready(world)
    outsider = _client(world.idle)
    before = state_snapshot()
    for a in ACTIONS:
        if a.role == "seated":
            r = outsider.post(reverse(a.name, args=a.args(world)), a.data(world))
            assert 400 <= r.status_code < 500, a.name
            assert b"Traceback" not in r.content
    assert state_snapshot() == before


def test_every_state_change_is_a_post_with_csrf_and_then_succeeds(world: World) -> None:
    """GET is refused (405), a POST without the CSRF token is refused (403) and changes
    nothing; the same POST with the token, by the right person, then applies."""
    _ready(world)
    for a in ACTIONS:
        url = reverse(a.name, args=a.args(world))
        actor = a.actor(world)
        data = a.data(world)
        before = state_snapshot()
        guarded = _client(actor, csrf=True)
        if a.name in FORM_PAGES:  # its GET is the form, and changes nothing
            assert guarded.get(url).status_code == 200, a.name
            assert state_snapshot() == before, a.name
        elif a.name in BACK_TO_FORM:
            back = guarded.get(url)
            assert back.status_code == 302 and back["Location"] != url, a.name
            assert guarded.get(back["Location"]).status_code == 200, a.name
            assert state_snapshot() == before, a.name
        else:
            assert guarded.get(url).status_code == 405, a.name
        r = guarded.post(url, data)
        assert r.status_code == 403 and b"CSRF" in r.content, a.name
        assert state_snapshot() == before, a.name
        # With the token (the page's form carries it), the request is accepted.
        guarded.get(reverse("home"))
        token = guarded.cookies[settings.CSRF_COOKIE_NAME].value
        # A fresh copy of the data: an uploaded file is read by the first post.
        r = guarded.post(url, a.data(world), headers={"X-CSRFToken": token})
        assert r.status_code in (200, 302), (a.name, r.status_code, r.content[:300])
        if a.name != "logout":
            assert state_snapshot() != before, f"{a.name} changed nothing: the test data is bad"
    assert ClubSession.objects.get(pk=world.session.pk).status == "voided"


def test_members_see_only_their_own_statements(world: World) -> None:
    me, other = world.players[0], world.players[1]
    pages = [
        ("club:member", [me.pk]),
        ("club:statement", [me.pk, world.closed.pk]),
        ("club:member_statement", [me.pk]),
    ]
    for name, args in pages:
        assert _client(me).get(reverse(name, args=args)).status_code == 200
        assert _client(other).get(reverse(name, args=args)).status_code == 403
        assert _client(world.secretary).get(reverse(name, args=args)).status_code == 200
    from club.services.base import bots

    bot = bots(1)[0]
    assert _client(world.secretary).get(reverse("club:member", args=[bot.pk])).status_code == 404


def test_a_player_acts_only_at_his_own_table(
    world: World, make_members: Callable[..., list[Any]]
) -> None:
    """A member seated at another online table cannot act here, even naming a seat."""
    from club.models import Seat

    a, b = make_members(2, "elsewhere")
    other = Table.objects.create(variant="conquian", size=2, mode="online", status="playing")
    Seat.objects.create(table=other, position=0, member=a)
    Seat.objects.create(table=other, position=1, member=b)
    deal = reading.current_deal(world.online.pk)
    before = state_snapshot()
    for who in (a, b):
        for seat in ("", "0", "1"):
            data = _act_data(world) | ({"seat": seat} if seat else {})
            r = _client(who).post(
                reverse("games:act", args=[world.online.pk]), data, headers={"HX-Request": "true"}
            )
            assert r.status_code == 403, r.content[:300]
            assert b"no seat" in r.content or b"own seat" in r.content
    assert state_snapshot() == before
    assert reading.current_deal(world.online.pk).version == deal.version


# --- Login lockouts (django-axes) --------------------------------------------------------


def _login(c: Client, username: str, password: str, ip: str = "127.0.0.1", **extra: Any) -> int:
    return c.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip, **extra
    ).status_code


def test_a_member_locked_out_from_one_address_logs_in_from_another(
    make_members: Callable[..., list[Any]],
) -> None:
    """Keyed on username and address together (issue 37): ten failures for the victim
    from one place lock that pair only; the victim logs in from home, and another member
    from the attacker's own address."""
    limit = settings.AXES_FAILURE_LIMIT
    victim, other = make_members(2, "login")
    codes = [_login(Client(), victim.user.username, "wrong", ip="10.0.0.1") for _ in range(limit)]
    assert codes == [200] * (limit - 1) + [429]  # the tenth failure locks the pair
    # Locked: even the right password is refused now, from that address...
    locked = Client()
    r = locked.post(
        reverse("login"), {"username": victim.user.username, "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
    )  # fmt: skip
    assert r.status_code == 429 and "_auth_user_id" not in locked.session
    assert "Too many failed attempts for this username from here" in r.content.decode()
    # ...but not from any other address, nor for another member from that one.
    assert _login(Client(), victim.user.username, PASSWORD, ip="10.0.0.2") == 302
    assert _login(Client(), other.user.username, PASSWORD, ip="10.0.0.1") == 302


def test_ten_addresses_do_not_lock_the_secretary_out_everywhere(
    make_members: Callable[..., list[Any]],
) -> None:
    (secretary,) = make_members(1, "sec", staff=True)
    for i in range(10):
        assert _login(Client(), secretary.user.username, "wrong", ip=f"10.0.1.{i}") == 200
    assert _login(Client(), secretary.user.username, PASSWORD, ip="10.0.2.1") == 302


def test_thirty_wrong_admin_passwords_are_throttled_and_lock_the_members_login_too(
    make_members: Callable[..., list[Any]],
) -> None:
    """The admin's login is limited alike: it had no limit, and admitted the victim while
    /login/ was locked."""
    (secretary,) = make_members(1, "adm", staff=True)
    admin = reverse("admin:login")
    answers = [
        Client().post(admin, {"username": secretary.user.username, "password": f"guess{i}"},
                      REMOTE_ADDR="10.0.3.3").status_code
        for i in range(30)
    ]  # fmt: skip
    limit = settings.AXES_FAILURE_LIMIT
    assert answers == [200] * (limit - 1) + [429] * (31 - limit)  # the form again, then locked
    right = Client().post(
        admin, {"username": secretary.user.username, "password": PASSWORD}, REMOTE_ADDR="10.0.3.3"
    )
    assert right.status_code == 429
    assert _login(Client(), secretary.user.username, PASSWORD, ip="10.0.3.3") == 429


def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(
    make_members: Callable[..., list[Any]], settings: Any
) -> None:
    (victim,) = make_members(1, "xff")
    # Not trusted: the header is the attacker's own words; each request is from 10.9.9.9.
    for i in range(settings.AXES_FAILURE_LIMIT):
        _login(Client(), victim.user.username, "wrong", ip="10.9.9.9",
               HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")  # fmt: skip
    assert _login(Client(), victim.user.username, PASSWORD, ip="10.9.9.9") == 429
    # Behind our proxy: each client is told apart by the address the proxy saw.
    settings.TRUSTED_PROXIES = ["10.8.0.0/16"]
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(Client(), victim.user.username, "wrong", ip="10.8.0.1",
               HTTP_X_FORWARDED_FOR="203.0.113.5")  # fmt: skip
    assert _login(Client(), victim.user.username, PASSWORD, ip="10.8.0.1",
                  HTTP_X_FORWARDED_FOR="203.0.113.5") == 429  # fmt: skip
    assert _login(Client(), victim.user.username, PASSWORD, ip="10.8.0.1",
                  HTTP_X_FORWARDED_FOR="203.0.113.6") == 302  # fmt: skip


def test_behind_the_compose_proxy_ten_failures_from_one_client_lock_out_only_that_client(
    make_members: Callable[..., list[Any]], settings: Any
) -> None:
    """Issue 53, item 4: every request comes from the proxy's address; with the compose
    file's proxy trusted, the client is the address the proxy saw, and ten wrong
    passwords from one place lock the secretary out from there only."""
    import yaml

    from tests.foundation.test_compose import compose

    proxy = compose()["services"]["proxy"]["networks"]["club"]["ipv4_address"]
    default = str(yaml.safe_dump(compose()["x-app"]["environment"]["TRUSTED_PROXIES"]))
    assert proxy in default
    settings.TRUSTED_PROXIES = [proxy]
    (secretary,) = make_members(1, "prx", staff=True)
    name = secretary.user.username
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(Client(), name, "wrong", ip=proxy, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert _login(Client(), name, PASSWORD, ip=proxy, HTTP_X_FORWARDED_FOR="198.51.100.7") == 429
    assert _login(Client(), name, PASSWORD, ip=proxy, HTTP_X_FORWARDED_FOR="203.0.113.9") == 302


def test_login_needs_csrf_and_logout_needs_post(make_members: Callable[..., list[Any]]) -> None:
    (m,) = make_members(1, "csrf")
    c = Client(enforce_csrf_checks=True)
    assert (
        c.post(reverse("login"), {"username": m.user.username, "password": PASSWORD}).status_code
        == 403
    )
    c.force_login(m.user)
    assert c.get(reverse("logout")).status_code == 405
    assert "_auth_user_id" in c.session


@pytest.mark.parametrize("url", ["/login/", "/admin/login/"])
def test_a_username_too_long_is_told_not_a_500(url: str) -> None:
    """Found by the fuzz (make test, 2026-11-26): a username longer than django-axes keeps
    (255 characters) reached axes' failed-login record and answered 500. A username is
    150 characters at most (Django's user model): a longer one is refused by the form,
    before authentication, and nothing is recorded."""
    from axes.models import AccessAttempt

    r = Client().post(url, {"username": "x" * 300, "password": "p"}, REMOTE_ADDR="10.0.7.7")
    assert r.status_code == 200
    assert "at most 150 characters" in r.content.decode()
    assert not AccessAttempt.objects.filter(ip_address="10.0.7.7").exists()
