"""docker-compose.yml is valid and runs exactly the processes `make run` starts."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from club.runner.processes import commands

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_docker_compose_config_accepts_it() -> None:
    assert shutil.which("docker-compose"), "make test installs Debian's docker-compose"
    r = subprocess.run(
        ["docker-compose", "-f", "docker-compose.yml", "config", "-q"],
        cwd=ROOT, capture_output=True, text=True, env=os.environ | {"SECRET_KEY": "x" * 50},
    )  # fmt: skip
    assert r.returncode == 0, r.stderr


def test_it_has_the_production_services_with_healthchecks() -> None:
    services = compose()["services"]
    assert {"db", "redis", "web", "events", "worker", "beat"} <= set(services)
    assert services["db"]["image"] == "postgres:17"
    for name in ("db", "redis", "web", "events", "worker", "beat"):
        assert "healthcheck" in services[name], name
    assert {"pgdata", "redisdata"} <= set(compose()["volumes"])


def test_the_services_run_what_make_run_starts() -> None:
    services = compose()["services"]
    expected = commands(host="0.0.0.0", port=8000, events_port=8001, run_dir="/tmp/beat")
    for name, cmd in expected.items():
        got = services[name]["command"]
        got_argv = got if isinstance(got, list) else shlex.split(got)
        assert got_argv == shlex.split(cmd), name


def test_every_setting_is_in_the_environment() -> None:
    env = compose()["x-app"]["environment"]
    for setting in (
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "DEBUG",
        "ALLOWED_HOSTS",
        "EVENTS_URL",
    ):
        assert setting in env


def test_the_dockerfile_builds_from_python_3_13_slim() -> None:
    assert (ROOT / "Dockerfile").read_text().splitlines()[1] == "FROM python:3.13-slim"


def _resolve(value: str, given: dict[str, str]) -> str:
    """compose's ${NAME:-default} and ${NAME:?message}, as `docker compose` reads them."""
    import re

    def one(m: re.Match[str]) -> str:
        name, op, default = m.group(1), m.group(2) or "", m.group(3) or ""
        if given.get(name):
            return given[name]
        assert op != ":?", f"compose requires {name}"
        return default

    return re.sub(r"\$\{(\w+)(:-|:\?)?([^}]*)\}", one, value)


def test_check_deploy_is_clean_with_the_environment_compose_gives() -> None:
    given = {"SECRET_KEY": "x9!" + "k" * 60 + "Q7z#pL2", "ALLOWED_HOSTS": "club.example.org"}
    env = {k: v for k, v in os.environ.items()
           if k not in {"TESTING", "DEBUG", "TEST_DB_NAME", "DJANGO_ALLOW_ASYNC_UNSAFE"}}  # fmt: skip
    for name, value in compose()["x-app"]["environment"].items():
        env[name] = _resolve(str(value), given)
    assert env["DEBUG"] == "0" and env["SECRET_KEY"] == given["SECRET_KEY"]
    r = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    # Without a mail server the club writes mail to files on purpose (issue 78): Django's
    # check for a development-only mail backend alone is silenced; with one, nothing is.
    assert "no issues (1 silenced)" in r.stdout
    r = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env | {"EMAIL_HOST": "smtp.example.org"}, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert r.returncode == 0 and "no issues (0 silenced)" in r.stdout, r.stdout + r.stderr


def test_the_proxy_is_the_only_way_in_and_the_app_trusts_it_alone() -> None:
    """Issue 53, item 4: the app believes X-Forwarded-For from the proxy's fixed address
    on the club's network and no other, so a login lockout is per client address."""
    import ipaddress

    doc = compose()
    services = doc["services"]
    address = services["proxy"]["networks"]["club"]["ipv4_address"]
    (subnet,) = [c["subnet"] for c in doc["networks"]["club"]["ipam"]["config"]]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    env = doc["x-app"]["environment"]
    assert env["BEHIND_PROXY"] == "${BEHIND_PROXY:-1}"
    assert env["TRUSTED_PROXIES"] == "${TRUSTED_PROXIES:-" + address + "}"
    for name in ("web", "events"):  # reached through the proxy only
        assert "ports" not in services[name], name
    assert {p.split(":")[0] for p in services["proxy"]["ports"]} == {"80", "443", "8001"}


def test_web_events_and_workers_scale_behind_the_proxy() -> None:
    """Issue 59, item 3: `docker-compose up --scale web=3 --scale events=2 --scale
    worker=2` runs; the proxy finds every replica of web and events on Docker's DNS and
    spreads the requests; one beat whatever the scale; PostgreSQL has room for every
    replica's pool at that scale (docs/scaling.md gives the sum)."""
    import re

    doc = compose()
    services = doc["services"]
    for name in ("web", "events", "worker"):  # what --scale needs: no fixed name or port
        assert "container_name" not in services[name] and "ports" not in services[name], name
    caddyfile = services["proxy"]["environment"]["CADDYFILE"]
    assert re.search(r"dynamic a web 8000 \{\s*refresh 5s", caddyfile)
    assert re.search(r"dynamic a events 8001 \{\s*refresh 5s", caddyfile)
    assert "reverse_proxy web:8000" not in caddyfile  # one upstream address: one replica
    assert "replicas" not in services["beat"].get("deploy", {})
    pool = int(_resolve(doc["x-app"]["environment"]["DB_POOL_MAX"], {}))
    gunicorn_workers = int(services["web"]["command"].split("--workers ")[1].split()[0])
    worker_concurrency = int(services["worker"]["command"].split("--concurrency ")[1].split()[0])
    web, events, workers = 3, 2, 2
    needed = web * gunicorn_workers * pool + events * pool + workers * (worker_concurrency + 1) + 2
    (setting,) = [a for a in services["db"]["command"] if a.startswith("max_connections=")]
    assert int(_resolve(setting.split("=", 1)[1], {})) >= needed
