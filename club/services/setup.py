"""Starting a club (issue 78): the one-time setup code, the club of one's own, the demo.

An empty club (no member, no club started) shows a setup page that opens only with the
code `make run` prints. These functions own their transactions: the club row is locked,
the code checked, the club started and the audit entry written together, or nothing is.

A club that had members before the setup page existed (an upgrade) counts as started:
``ensure_started`` records it with the settings' defaults, and no code is ever issued.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import zoneinfo
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from club.models import AuditEntry, Club, Member
from club.services import demo, house_rules
from club.services.base import ClubError, create_member
from games.engine.variant import VARIANTS

DEMO_NAME = "Cooncan Club (demo)"


class SetupRefused(ClubError):
    """The setup code is wrong or old, or the club has been started already."""


def club() -> Club | None:
    return Club.objects.filter(pk=1).first()


def started() -> bool:
    """Whether the club has been started: by the setup page, `start_club`, the demo, or
    (before issue 78) by having members."""
    row = club()
    if row is not None and row.started:
        return True
    return Member.objects.filter(is_bot=False).exists()


def ensure_started() -> None:
    """A club with members but no record of its start (made before issue 78) is recorded
    as started, with the settings' currency and time zone: its setup page never opens."""
    if Member.objects.filter(is_bot=False).exists():
        Club.objects.update_or_create(
            pk=1,
            defaults={},
            create_defaults=_defaults() | {"started_at": timezone.now()},
        )
        Club.objects.filter(pk=1, started_at__isnull=True).update(
            started_at=timezone.now(), setup_salt=""
        )


def _defaults() -> dict[str, Any]:
    return {
        "time_zone": settings.TIME_ZONE,
        "currency_symbol": settings.CLUB_CURRENCY_SYMBOL,
        "currency_places": settings.CLUB_CURRENCY_PLACES,
    }


def _derive(salt: str) -> str:
    mac = hmac.new(settings.SECRET_KEY.encode(), f"setup:{salt}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:16]).decode().rstrip("=")


def setup_code() -> str:
    """The empty club's one-time setup code, the same from every process until the club
    is started; :class:`SetupRefused` once it has been."""
    with transaction.atomic():
        row, _ = Club.objects.select_for_update().get_or_create(pk=1, defaults=_defaults())
        if row.started or Member.objects.filter(is_bot=False).exists():
            raise SetupRefused("the club has been started already")
        if not row.setup_salt:
            row.setup_salt = secrets.token_urlsafe(24)
            row.save(update_fields=["setup_salt"])
    return _derive(row.setup_salt)


def code_opens(code: str) -> bool:
    """Whether ``code`` is the club's setup code (compared in constant time), the club
    not yet started."""
    row = club()
    if row is None or row.started or not row.setup_salt or not code:
        return False
    return hmac.compare_digest(_derive(row.setup_salt), code.strip())


@dataclass(frozen=True)
class NewClub:
    """What "Start your club" asks for."""

    name: str
    time_zone: str
    currency_symbol: str
    currency_places: int
    default_variant: str
    username: str
    display_name: str
    password: str
    language: str = ""  # the club's language (issue 82); "": the settings' LANGUAGE_CODE


def check(new: NewClub) -> dict[str, list[str]]:
    """Every mistake in ``new`` by its field, all at once (empty when there is none)."""
    errors: dict[str, list[str]] = {}

    def bad(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    if not new.name.strip():
        bad("name", "give the club's name")
    elif len(new.name.strip()) > 80:
        bad("name", "at most 80 characters")
    if new.time_zone not in zoneinfo.available_timezones():
        bad("time_zone", f"{new.time_zone!r} is not a time zone (Europe/London, say)")
    symbol = new.currency_symbol.strip()
    if not symbol or len(symbol) > 4:
        bad("currency_symbol", "one to four characters (£, $, €, MX$)")
    if new.currency_places not in (0, 1, 2):
        bad("currency_places", "0, 1 or 2 decimal places")
    if new.default_variant not in VARIANTS:
        bad("default_variant", "choose one of the games")
    if new.language and new.language not in dict(settings.LANGUAGES):
        bad("language", "choose one of the club's languages")
    User = get_user_model()
    username = new.username.strip()
    try:
        User.username_validator(username)
    except ValidationError as e:
        bad("username", " ".join(e.messages))
    if not username:
        bad("username", "give the secretary's username")
    elif User.objects.filter(username__iexact=username).exists():
        bad("username", f"{username} is taken")
    if not new.display_name.strip():
        bad("display_name", "give the secretary's name as members will see it")
    try:
        password_validation.validate_password(new.password, User(username=username))
    except ValidationError as e:
        for message in e.messages:
            bad("password", message)
    return errors


def start_club(code: str, new: NewClub, *, address: str = "") -> Member:
    """Start the club with ``new``'s settings and its secretary (staff), if ``code`` is
    the current setup code: the code is spent, the start is in the audit log. Raises
    :class:`SetupRefused` (wrong code, or started already) or :class:`ClubError` (the
    first mistake of ``new``; :func:`check` gives them all) and changes nothing."""
    errors = check(new)
    if errors:
        raise ClubError.all_of([ClubError(m, field=f) for f, ms in errors.items() for m in ms])
    with transaction.atomic():
        row = _locked_for(code)
        secretary = create_member(
            new.username.strip(), new.display_name.strip(), password=new.password, is_staff=True
        )
        row.name = new.name.strip()
        row.time_zone = new.time_zone
        row.currency_symbol = new.currency_symbol.strip()
        row.currency_places = new.currency_places
        row.default_variant = new.default_variant
        row.language = new.language or settings.LANGUAGE_CODE
        _start(row, secretary, demo=False)
        _audit(secretary, f"Club started: {row.name}, secretary {secretary.display_name}", address)
    return secretary


def start_demo(code: str, *, address: str = "") -> str:
    """Load the demo club into this empty club, if ``code`` is the current setup code;
    the demo's password (made for this install)."""
    with transaction.atomic():
        row = _locked_for(code)
        secretary = demo.load_demo()
        row.name = DEMO_NAME
        _start(row, secretary, demo=True)
        _audit(secretary, "Club started as the demo club", address)
    return demo.demo_password()


def load_demo_into_empty_club() -> Member:
    """The demo loaded without the setup page (`make run DEMO=1`, `manage.py demo`): the
    club recorded as started as the demo. :class:`SetupRefused` in a started club."""
    with transaction.atomic():
        row, _ = Club.objects.select_for_update().get_or_create(pk=1, defaults=_defaults())
        if row.started or Member.objects.filter(is_bot=False).exists():
            raise SetupRefused("the club has been started already")
        secretary = demo.load_demo()
        row.name = DEMO_NAME
        _start(row, secretary, demo=True)
        _audit(secretary, "Club started as the demo club", "")
    return secretary


def _locked_for(code: str) -> Club:
    row = Club.objects.select_for_update().filter(pk=1).first()
    if row is None or row.started or Member.objects.filter(is_bot=False).exists():
        raise SetupRefused("the club has been started already")
    if (
        not row.setup_salt
        or not code
        or not hmac.compare_digest(_derive(row.setup_salt), code.strip())
    ):
        raise SetupRefused("that is not this club's setup code", field="code")
    return row


def _start(row: Club, secretary: Member, *, demo: bool) -> None:
    row.started_at = timezone.now()
    row.started_by = secretary.user
    row.demo = demo
    row.setup_salt = ""
    row.save()
    # the sources' own sets, ready to choose (issue 80)
    house_rules.add_named_sets(by=secretary.user)


def _audit(secretary: Member, what: str, address: str) -> None:
    AuditEntry.objects.create(
        actor=secretary.user,
        action=AuditEntry.CLUB_START,
        what=what[:300],
        address=address[:45],
    )
