"""Logins: the lockouts are django-axes' (settings: AXES_*), for the members' login and
the admin's alike; this module tells axes who the client is and answers a lockout.

The client's address is REMOTE_ADDR, unless that is one of TRUSTED_PROXIES: then it is
the rightmost address of X-Forwarded-For that is not one of them (what the nearest
untrusted hop said; anything to its left, the client could have written himself).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.validators import MaxLengthValidator
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from club.infra.rows import fetch

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    try:
        return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)
    except ValueError as e:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {e}") from e


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_ip(request: HttpRequest) -> str:
    """The address a login attempt came from (see the module's docstring).

    >>> from django.test import RequestFactory, override_settings
    >>> r = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2",
    ...                          HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7, 10.0.0.1")
    >>> client_ip(r)  # no trusted proxy: the header is not believed
    '10.0.0.2'
    >>> with override_settings(TRUSTED_PROXIES=["10.0.0.0/8"]):
    ...     client_ip(r)  # the rightmost hop that is not ours
    '203.0.113.7'
    """
    remote = str(request.META.get("REMOTE_ADDR", ""))
    if not _trusted(remote):
        return remote
    hops = [h.strip() for h in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    for hop in reversed([h for h in hops if h]):
        if not _trusted(hop):
            return hop
    return remote


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """axes' answer to a locked-out pair (username, address): the login page, saying so,
    429. The admin's login answers the same."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {"rate_limited": True, "cooloff_minutes": minutes}
    return TemplateResponse(request, "registration/login.html", context, status=429).render()


class _UsernameKept:
    """A login form refusing a username longer than the user model keeps, before it
    authenticates: Django's own form only sets the input's maxlength, and a longer name
    (a client is not obliged to keep to it) reached django-axes' record of the failed
    attempt, which keeps 255 characters, and answered 500."""

    fields: dict[str, Any]

    def _keep_username(self) -> None:
        field = self.fields["username"]
        most = field.max_length or 150
        field.validators.append(MaxLengthValidator(most))
        field.error_messages["max_length"] = f"A username is at most {most} characters."


class LoginForm(_UsernameKept, AuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._keep_username()


class AdminLoginForm(_UsernameKept, AdminAuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._keep_username()


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class ClubBackend(ModelBackend):
    """Django's ModelBackend, the logged-in user read by a statement written once a
    process rather than compiled by the ORM on every request (issue 59: the user's read
    was a ninth of the web workers' CPU at 100 tables of the paced bench; 0.53 ms of CPU
    a read by the ORM). Everything else, passwords and permissions, is ModelBackend's."""

    def get_user(self, user_id: Any) -> Any:
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        found = fetch(model, _user_sql(), [pk])
        if not found:
            return None
        return found[0] if self.user_can_authenticate(found[0]) else None


@lru_cache(maxsize=1)
def _user_sql() -> str:
    model, q = get_user_model(), connection.ops.quote_name
    return f"SELECT * FROM {q(model._meta.db_table)} WHERE {q(model._meta.pk.column)} = %s"


class Tries:
    """Wrong tries at something guessed (a setup code, a sign-in link), counted by the
    client's address in the cache: after ``limit`` of them within ``cooloff_minutes``, that
    address is refused until the time is up, as django-axes refuses a login. Not axes
    itself: a code or a link is not a username and password it could count."""

    def __init__(self, name: str, limit_setting: str, cooloff_setting: str) -> None:
        self.name, self.limit_setting, self.cooloff_setting = name, limit_setting, cooloff_setting

    @property
    def cooloff_minutes(self) -> int:
        return int(getattr(settings, self.cooloff_setting))

    def _key(self, request: HttpRequest) -> str:
        return f"{self.name}:failures:{client_ip(request)}"

    def locked_out(self, request: HttpRequest) -> bool:
        from django.core.cache import cache

        limit = int(getattr(settings, self.limit_setting))
        return int(cache.get(self._key(request)) or 0) >= limit

    def forget(self, address: str) -> None:
        """The address's wrong tries forgotten (tests; an address let in again)."""
        from django.core.cache import cache

        cache.delete(f"{self.name}:failures:{address}")

    def failed(self, request: HttpRequest) -> None:
        from django.core.cache import cache

        key, timeout = self._key(request), self.cooloff_minutes * 60
        if cache.add(key, 1, timeout=timeout):
            return
        try:
            cache.incr(key)
        except ValueError:  # expired meanwhile
            cache.add(key, 1, timeout=timeout)


SETUP_TRIES = Tries("setup", "SETUP_FAILURE_LIMIT", "SETUP_COOLOFF_MINUTES")
SIGNIN_TRIES = Tries("signin", "SIGNIN_FAILURE_LIMIT", "SIGNIN_COOLOFF_MINUTES")
