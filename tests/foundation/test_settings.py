"""Settings come from the environment with safe production defaults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    skip = {
        "DEBUG",
        "TESTING",
        "SECRET_KEY",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    }  # the last is set by browser tests
    base = {k: v for k, v in os.environ.items() if k not in skip}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=base | env,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_it_passes_the_deploy_check_with_debug_off_and_a_real_secret() -> None:
    r = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        SECRET_KEY="x9!" + "k" * 60 + "Q7z#pL2",
        ALLOWED_HOSTS="club.example.org",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr + r.stdout
    assert "no issues" in r.stdout


def test_it_refuses_to_start_without_a_secret_when_debug_is_off() -> None:
    r = manage("check")
    assert r.returncode != 0
    assert "SECRET_KEY must be set" in r.stderr


def test_it_refuses_to_start_behind_a_proxy_it_is_not_told_the_address_of() -> None:
    """Issue 53, item 4: with BEHIND_PROXY and no TRUSTED_PROXIES every login seemed to
    come from the proxy, and ten wrong passwords for the secretary locked him out for
    everyone, again and again."""
    secret = {"SECRET_KEY": "x9!" + "k" * 60 + "Q7z#pL2", "BEHIND_PROXY": "1"}
    r = manage("check", **secret, TRUSTED_PROXIES="")
    assert r.returncode != 0
    assert "BEHIND_PROXY is set but TRUSTED_PROXIES is empty" in r.stderr
    r = manage("check", **secret, TRUSTED_PROXIES="the proxy")
    assert r.returncode != 0 and "TRUSTED_PROXIES: " in r.stderr
    r = manage("check", **secret, TRUSTED_PROXIES="172.30.53.2")
    assert r.returncode == 0, r.stderr


def test_debug_defaults_off(settings) -> None:  # type: ignore[no-untyped-def]
    import club.settings as s

    assert s.env_bool("NOT_SET_ANYWHERE") is False
    assert s.DEBUG is False
