"""`make run`'s safe defaults (club/runner/local.py): a private secret key kept between runs,
loopback only unless HOST says otherwise, and with HOST=0.0.0.0 the machine's own
addresses admitted as hosts and form origins, so phones on the club's Wi-Fi can play."""

from __future__ import annotations

import stat
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import RequestFactory

from club.runner import local
from club.runner.processes import commands
from games.play.events import events_base, events_url


def test_the_secret_key_is_made_once_kept_0600_and_reused(tmp_path: Path) -> None:
    key = local.secret_key(tmp_path)
    path = tmp_path / "secret_key"
    assert len(key) >= 50 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert local.secret_key(tmp_path) == key  # the next start signs with the same key
    path.chmod(0o644)
    assert local.secret_key(tmp_path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # widened by someone: narrowed again


def test_by_default_only_this_machine_is_admitted_and_the_processes_listen_on_loopback() -> None:
    env, url = local.environment("127.0.0.1", 8000, 8001)
    assert env["ALLOWED_HOSTS"].split(",") == ["localhost", "127.0.0.1", "[::1]"]
    assert env["EVENTS_PORT"] == "8001" and url == "http://127.0.0.1:8000/"
    assert env["PLAIN_HTTP"] == "1" and "DEBUG" not in env
    procs = commands(host="127.0.0.1", port=8000, events_port=8001)
    assert "--bind 127.0.0.1:8000" in procs["web"] and "--host 127.0.0.1 " in procs["events"]


def test_host_0_0_0_0_admits_the_machines_addresses_for_phones_on_the_wifi(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local, "host_addresses", lambda: ["192.168.1.20", "fd00::20"])
    monkeypatch.setattr(local, "primary_address", lambda: "192.168.1.20")
    monkeypatch.setattr(local.socket, "gethostname", lambda: "clubhouse")
    env, url = local.environment("0.0.0.0", 8000, 8001)
    hosts = env["ALLOWED_HOSTS"].split(",")
    assert {"192.168.1.20", "[fd00::20]", "clubhouse", "clubhouse.local", "127.0.0.1"} <= set(hosts)
    origins = env["CSRF_TRUSTED_ORIGINS"].split(",")
    assert "http://192.168.1.20:8000" in origins and "http://[fd00::20]:8000" in origins
    assert env["EVENTS_PORT"] == "8001" and "EVENTS_URL" not in env  # found by the page's host
    assert url == "http://192.168.1.20:8000/"


def test_the_real_machine_addresses_are_usable_ones() -> None:
    for address in local.host_addresses():
        assert not address.startswith(("127.", "fe80")) and address != "::1"


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("192.168.1.20:8000", "http://192.168.1.20:8001"),
        ("127.0.0.1:8000", "http://127.0.0.1:8001"),
        ("[fd00::20]:8000", "http://[fd00::20]:8001"),
        ("clubhouse.local:8000", "http://clubhouse.local:8001"),
    ],
)
def test_the_event_stream_is_found_on_the_host_the_page_was_loaded_from(
    settings: Any, rf: RequestFactory, host: str, expected: str
) -> None:
    settings.EVENTS_URL, settings.EVENTS_PORT = "", "8001"
    settings.ALLOWED_HOSTS = ["*"]
    request = rf.get("/tables/1/", HTTP_HOST=host)
    request.session, request.user = {}, SimpleNamespace(pk=3)  # a logged-in page's
    assert events_base(request) == expected
    assert events_url(request, 7, 3).startswith(f"{expected}/events/tables/7/?t=")


def test_a_deployments_own_events_url_wins_and_none_means_the_same_origin(
    settings: Any, rf: RequestFactory
) -> None:
    request = rf.get("/", HTTP_HOST="club.example.org")
    settings.ALLOWED_HOSTS = ["club.example.org"]
    settings.EVENTS_URL, settings.EVENTS_PORT = "https://events.example.org/", "8001"
    assert events_base(request) == "https://events.example.org"
    settings.EVENTS_URL, settings.EVENTS_PORT = "", ""
    assert events_base(request) == ""
