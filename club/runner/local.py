"""`make run`'s safe defaults, for a club running on a laptop.

DEBUG stays off; a secret key is made on the first start and kept in ``.run/secret_key``
(mode 0600, readable by its owner only); the processes listen on 127.0.0.1 unless
``HOST`` says otherwise. With ``HOST=0.0.0.0`` the phones on the club's Wi-Fi may play:
the laptop's own addresses (and its name) become the allowed hosts and the trusted
origins for forms, and each page opens its live-update stream on the host it was loaded
from. The pages are plain http on the local network, so the settings that
need TLS (the redirect, secure-only cookies, HSTS) are off there (``PLAIN_HTTP``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import socket
import stat
import subprocess
from pathlib import Path

LOOPBACK = ["localhost", "127.0.0.1", "[::1]"]


def secret_key(run_dir: Path) -> str:
    """The key in ``run_dir/secret_key``, made on first use; the file is kept 0600."""
    path = run_dir / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if stat.S_IMODE(path.stat().st_mode) != 0o600:
            path.chmod(0o600)  # someone widened it: the key signs logins and stream tokens
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        key = secrets.token_urlsafe(50)
        f.write(key + "\n")
    return key


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def primary_address() -> str | None:
    """The address of the interface the default route uses (no packet is sent)."""
    with (
        contextlib.suppress(OSError),
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s,
    ):
        s.connect(("192.0.2.1", 80))  # TEST-NET-1: only the routing table is consulted
        address = str(s.getsockname()[0])
        return address if _usable(address) else None
    return None


def host_addresses() -> list[str]:
    """This machine's addresses a phone on the same network could use."""
    found: set[str] = set()
    primary = primary_address()
    if primary:
        found.add(primary)
    with contextlib.suppress(OSError):
        found |= {str(a[4][0]) for a in socket.getaddrinfo(socket.gethostname(), None)}
    with contextlib.suppress(OSError, subprocess.SubprocessError):  # Linux lists them all
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2)
        found |= set(out.stdout.split())
    return sorted(a for a in found if _usable(a))


def _host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def environment(host: str, port: int, events_port: int) -> tuple[dict[str, str], str]:
    """ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS and EVENTS_PORT for listening on ``host``, and
    the address to give the players. The live-update stream is found on EVENTS_PORT of
    the host the page was loaded from (club.live.streams.events_base): a phone that opened
    http://192.168.1.20:8000/ streams from http://192.168.1.20:8001/."""
    if host in ("127.0.0.1", "localhost", "::1"):
        names, shown = list(LOOPBACK), "127.0.0.1"
    elif host in ("0.0.0.0", "::"):
        addresses = host_addresses()
        name = socket.gethostname()
        names = [*LOOPBACK, *(_host(a) for a in addresses), name, f"{name}.local"]
        shown = primary_address() or (addresses[0] if addresses else "127.0.0.1")
    else:  # one address of this machine
        names, shown = [*LOOPBACK, _host(host)], host
    origins = [f"http://{n}:{port}" for n in names]
    env = {
        "ALLOWED_HOSTS": ",".join(dict.fromkeys(names)),
        "CSRF_TRUSTED_ORIGINS": ",".join(dict.fromkeys(origins)),
        "EVENTS_PORT": str(events_port),
        "PLAIN_HTTP": "1",
        # the address a sign-in link's QR code gives a phone (issue 78)
        "SITE_URL": f"http://{_host(shown)}:{port}",
    }
    return env, f"http://{_host(shown)}:{port}/"
