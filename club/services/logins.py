"""Members' logins (issue 78): the secretary adds a member and gives him a sign-in link;
the member opens it, chooses his password and is signed in.

As clubs that run their members' logins well do (BridgeWebs, MyABF, TeamSnap): the
secretary registers the members, each gets a link that sets his own password, and the
roster shows who is not invited, invited, signed in or disabled. No password is ever told
or published. A link is random (``secrets``, 256 bits), kept only as its SHA-256, works
once, expires after SIGNIN_LINK_DAYS, and a newer link revokes the one before. Each
function owns its transaction and writes its audit entry in it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, pgettext_lazy

from club.models import AuditEntry, Member, SignInLink
from club.services.base import ClubError, create_member, reserved_name, shown_name


class LinkRefused(ClubError):
    """A sign-in link that is unknown, used, expired or revoked: ``why`` says which."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def add_member(
    display_name: str, *, username: str = "", email: str = "", by: AbstractBaseUser
) -> Member:
    """A new member with no usable password yet (his sign-in link sets it). Every mistake
    at once (:meth:`ClubError.all_of`), and nothing made."""
    problems: list[ClubError] = []
    name = ""
    try:
        name = shown_name(display_name, field="display_name")
        if not name:
            raise ClubError(gettext("give the member's name"), field="display_name")
        if reserved_name(name):
            raise ClubError(
                gettext("%(name)s is a computer player's name") % {"name": name},
                field="display_name",
            )
        if Member.objects.filter(display_name__iexact=name, is_bot=False).exists():
            raise ClubError(
                gettext("a member is already called %(name)s") % {"name": name},
                field="display_name",
            )
    except ClubError as e:
        problems.append(e)
    User = get_user_model()
    username = username.strip()
    if username:
        try:
            User.username_validator(username)
        except ValidationError as e:
            problems.append(ClubError(" ".join(e.messages), field="username"))
        if User.objects.filter(username__iexact=username).exists():
            problems.append(
                ClubError(
                    gettext("the username %(username)s is taken") % {"username": username},
                    field="username",
                )
            )
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            problems.append(
                ClubError(
                    gettext("%(email)s is not an e-mail address") % {"email": email}, field="email"
                )
            )
    if problems:
        raise ClubError.all_of(problems)
    if not username:
        username = f"{slugify(name)[:20] or 'member'}-{secrets.token_hex(3)}"
    with transaction.atomic():
        member = create_member(username, name)
        if email:
            User.objects.filter(pk=member.user_id).update(email=email)
        AuditEntry.objects.create(
            actor=by, action=AuditEntry.MEMBER_ADD, what=f"Added {name} (login {username})"
        )
    return member


def give_link(member: Member, *, by: AbstractBaseUser, address: str = "") -> tuple[SignInLink, str]:
    """A new sign-in link for ``member`` and its token (shown once: only its hash is kept);
    the member's open links before it stop working (the audit entry says so)."""
    if member.is_bot:
        raise ClubError(gettext("a computer player does not sign in"))
    if not member.user.is_active:
        raise ClubError(gettext("%(member)s's login is disabled") % {"member": member})
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        revoked = SignInLink.objects.filter(
            member=member, used_at=None, revoked_at=None, expires_at__gt=now
        ).update(revoked_at=now)
        link = SignInLink.objects.create(
            member=member,
            token_sha256=_digest(token),
            created_by=by,
            expires_at=now + timedelta(days=settings.SIGNIN_LINK_DAYS),
        )
        AuditEntry.objects.create(
            actor=by,
            action=AuditEntry.SIGNIN_LINK,
            what=f"Sign-in link given to {member} (until {link.expires_at:%Y-%m-%d %H:%M} UTC)"
            + ("; the link given before it revoked" if revoked == 1 else "")
            + (f"; the {revoked} links given before it revoked" if revoked > 1 else ""),
            address=address[:45],
        )
    return link, token


REFUSALS = {
    "unknown": "This sign-in link is not one of the club's.",
    "used": "This sign-in link has been used already: it works once.",
    "expired": "This sign-in link has expired.",
    "revoked": "This sign-in link was replaced by a newer one.",
    "disabled": "This member's login is disabled.",
}


def open_link(token: str) -> SignInLink:
    """The link ``token`` opens, if it is open; :class:`LinkRefused` saying why not."""
    link = (
        SignInLink.objects.select_related("member__user")
        .filter(token_sha256=_digest(token))
        .first()
    )
    why = "unknown" if link is None else link.state()
    if link is not None and why == "open" and not link.member.user.is_active:
        why = "disabled"
    if why != "open":
        raise LinkRefused(why, REFUSALS[why])
    assert link is not None
    return link


def password_problems(member: Member, password: str, again: str) -> list[str]:
    """What is wrong with the password a member chose (Django's validators), if anything."""
    said = [] if password == again else ["the two passwords differ"]
    try:
        password_validation.validate_password(password, member.user)
    except ValidationError as e:
        said.extend(e.messages)
    return said


def use_link(token: str, password: str, again: str, *, address: str = "") -> Member:
    """The member sets his password through his link, which is then spent: the member.
    :class:`LinkRefused` for a link not open, :class:`ClubError` for a password refused
    (every reason at once); either way nothing changes."""
    with transaction.atomic():
        link = open_link(token)
        link = SignInLink.objects.select_for_update().get(pk=link.pk)
        if link.state() != "open":  # used by a second tap meanwhile
            raise LinkRefused(link.state(), REFUSALS[link.state()])
        member = link.member
        said = password_problems(member, password, again)
        if said:
            raise ClubError.all_of([ClubError(m, field="password") for m in said])
        member.user.set_password(password)
        member.user.save(update_fields=["password"])
        link.used_at = timezone.now()
        link.used_from = address[:45]
        link.save(update_fields=["used_at", "used_from"])
        AuditEntry.objects.create(
            actor=member.user,
            action=AuditEntry.SIGNIN_USED,
            what=f"{member} chose a password through a sign-in link",
            address=address[:45],
        )
    return member


@dataclass(frozen=True)
class LoginState:
    """What the roster says of a member's login."""

    kind: str  # "disabled", "signed in", "invited", "link expired", "not invited"
    when: datetime | None = None
    by: str = ""

    def __str__(self) -> str:
        return self.kind

    @property
    def said(self) -> str:
        """The state in the reader's language (issue 82); ``kind`` stays the code."""
        return str(_LOGIN_WORDS.get(self.kind, self.kind))


_LOGIN_WORDS = {
    "disabled": pgettext_lazy("login", "disabled"),
    "signed in": pgettext_lazy("login", "signed in"),
    "invited": pgettext_lazy("login", "invited"),
    "link expired": pgettext_lazy("login", "link expired"),
    "has a password": pgettext_lazy("login", "has a password"),
    "not invited": pgettext_lazy("login", "not invited"),
}


def login_states(members: list[Member]) -> dict[int, LoginState]:
    """Each member's login state, in two queries for the whole roster."""
    latest: dict[int, SignInLink] = {}
    for link in (
        SignInLink.objects.filter(member__in=members)
        .select_related("created_by__member")
        .order_by("member_id", "-created_at", "-pk")
    ):
        latest.setdefault(link.member_id, link)
    states = {}
    for m in members:
        user = m.user
        link = latest.get(m.pk)
        if not user.is_active:
            states[m.pk] = LoginState("disabled")
        elif user.last_login is not None:
            states[m.pk] = LoginState("signed in", user.last_login)
        elif link is not None and link.state() == "open":
            by = getattr(getattr(link.created_by, "member", None), "display_name", "")
            states[m.pk] = LoginState("invited", link.created_at, by)
        elif link is not None and link.state() in ("expired", "revoked"):
            states[m.pk] = LoginState("link expired", link.expires_at)
        elif user.has_usable_password():
            states[m.pk] = LoginState("has a password")
        else:
            states[m.pk] = LoginState("not invited")
    return states


def _end_sessions(user_id: int) -> int:
    """End every login session of the user (their cached copies too); how many. A club's
    sessions are a few hundred: each is read once."""
    from django.contrib.sessions.models import Session

    from club.infra.login_sessions import SessionStore

    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
            SessionStore(session_key=session.session_key).delete()
            ended += 1
    return ended


def sign_out_everywhere(
    member: Member, *, by: AbstractBaseUser, why: str = "", address: str = ""
) -> int:
    """A lost phone: every login session of the member ends, and his live streams with them
    (at their next keepalive: their grants are revoked). His password and history stay.
    The number of sessions ended."""
    from club.live.streams import revoke_user

    with transaction.atomic():
        ended = _end_sessions(member.user_id)
        AuditEntry.objects.create(
            actor=by,
            action=AuditEntry.SIGN_OUT,
            what=f"{member} signed out everywhere ({ended} sign-in{'s' if ended != 1 else ''})",
            why=why[:200],
            address=address[:45],
        )
        user_id = member.user_id
        transaction.on_commit(lambda: revoke_user(user_id))
    return ended


def set_login_enabled(
    member: Member, enabled: bool, *, by: AbstractBaseUser, address: str = ""
) -> None:
    """Disable a member's login (he left the club: his history and money stay in the books)
    and sign him out everywhere; or enable it again."""
    if member.user_id == getattr(by, "pk", None) and not enabled:
        raise ClubError(gettext("you cannot disable your own login"))
    if member.is_bot:
        raise ClubError(gettext("a computer player has no login"))
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=member.user_id)
        if user.is_active == enabled:
            return
        user.is_active = enabled
        user.save(update_fields=["is_active"])  # club.apps revokes his streams on commit
        revoked = 0
        if not enabled:
            _end_sessions(user.pk)
            now = timezone.now()
            revoked = SignInLink.objects.filter(
                member=member, used_at=None, revoked_at=None, expires_at__gt=now
            ).update(revoked_at=now)
        AuditEntry.objects.create(
            actor=by,
            action=AuditEntry.LOGIN_ENABLED if enabled else AuditEntry.LOGIN_DISABLED,
            what=f"{member}'s login {'enabled' if enabled else 'disabled'}"
            + (
                f"; {revoked} open sign-in link{'s' if revoked > 1 else ''} revoked"
                if revoked
                else ""
            ),
            address=address[:45],
        )


def make_member(guest: Member, *, by: AbstractBaseUser, address: str = "") -> Member:
    """A guest joins the club: the same member row, so his history, his balance and his
    login stay; from now on he pays the member's table fee (issue 78)."""
    with transaction.atomic():
        member = Member.objects.select_for_update().get(pk=guest.pk)
        if member.is_bot:
            raise ClubError(gettext("a computer player cannot join the club"))
        if not member.is_guest:
            raise ClubError(gettext("%(member)s is a member already") % {"member": member})
        member.is_guest = False
        member.save(update_fields=["is_guest"])
        AuditEntry.objects.create(
            actor=by,
            action=AuditEntry.MEMBER,
            what=f"{member}, a guest, became a member (history and balance kept)",
            address=address[:45],
        )
    return member


ROSTER_COLUMNS = {"name", "username", "email", "phone"}
ROSTER_MAX_ROWS = 2000


def read_roster(data: bytes) -> list[dict[str, str]]:
    """The rows of a roster CSV (a header row naming its columns: name, and any of
    username, email, phone), each with its columns by name; :class:`ClubError` for a file
    that is not such a CSV."""
    import csv
    import io

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ClubError(
            gettext("the file is not text in UTF-8: save it as CSV UTF-8"), field="roster"
        ) from e
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    if "name" not in header:
        raise ClubError(
            gettext("the first row must name the columns: name, and any of username, email, phone"),
            field="roster",
        )
    unknown = [h for h in header if h and h not in ROSTER_COLUMNS]
    if unknown:
        raise ClubError(
            f"unknown column {unknown[0]!r}: use name, username, email, phone", field="roster"
        )
    rows = []
    for raw in reader:
        row = {k.strip().lower(): (v or "").strip() for k, v in raw.items() if k}
        if any(row.values()):
            rows.append(row)
        if len(rows) > ROSTER_MAX_ROWS:
            raise ClubError(
                gettext("at most %(ROSTER_MAX_ROWS)s members a file")
                % {"ROSTER_MAX_ROWS": ROSTER_MAX_ROWS},
                field="roster",
            )
    if not rows:
        raise ClubError(gettext("the file holds no member"), field="roster")
    return rows


def import_roster(rows: list[dict[str, str]], *, by: AbstractBaseUser) -> list[Member]:
    """The members of a roster, added together or not at all: every mistake of every row
    is said at once ("row 3: ..."; the header is row 1), and nothing is imported until the
    file has none."""
    User = get_user_model()
    problems: list[ClubError] = []
    names: dict[str, int] = {}
    usernames: dict[str, int] = {}
    existing_names = {
        n.lower()
        for n in Member.objects.filter(is_bot=False).values_list("display_name", flat=True)
    }
    cleaned = []
    for i, row in enumerate(rows, start=2):
        said: list[str] = []
        try:
            name = shown_name(row.get("name", ""), field="roster")
        except ClubError as e:
            said.append(str(e))
            name = ""
        if not name and not said:
            said.append("no name")
        elif name:
            if reserved_name(name):
                said.append(f"{name} is a computer player's name")
            elif name.lower() in existing_names:
                said.append(f"a member is already called {name}")
            elif name.lower() in names:
                said.append(f"{name} is on row {names[name.lower()]} too")
            names.setdefault(name.lower(), i)
        username = row.get("username", "")
        if username:
            try:
                User.username_validator(username)
            except ValidationError as e:
                said.append(f"username {username!r}: {' '.join(e.messages)}")
            if User.objects.filter(username__iexact=username).exists():
                said.append(f"the username {username} is taken")
            elif username.lower() in usernames:
                said.append(f"the username {username} is on row {usernames[username.lower()]} too")
            usernames.setdefault(username.lower(), i)
        email = row.get("email", "")
        if email:
            try:
                validate_email(email)
            except ValidationError:
                said.append(f"{email} is not an e-mail address")
        phone = row.get("phone", "")
        if len(phone) > 40:
            said.append("the phone number is longer than 40 characters")
        problems.extend(
            ClubError(gettext("row %(i)s: %(s)s") % {"i": i, "s": s}, field="roster") for s in said
        )
        cleaned.append((name, username, email, phone))
    if problems:
        raise ClubError.all_of(problems)
    added = []
    with transaction.atomic():
        for name, username, email, phone in cleaned:
            login = username or f"{slugify(name)[:20] or 'member'}-{secrets.token_hex(3)}"
            member = create_member(login, name)
            if email:
                User.objects.filter(pk=member.user_id).update(email=email)
            if phone:
                Member.objects.filter(pk=member.pk).update(phone=phone)
            added.append(member)
        AuditEntry.objects.create(
            actor=by,
            action=AuditEntry.MEMBER_ADD,
            what=f"Imported {len(added)} member{'s' if len(added) != 1 else ''} from a roster: "
            + ", ".join(m.display_name for m in added)[:200],
        )
    return added


def set_language(user: AbstractBaseUser, code: str) -> bool:
    """The member's own language, kept on his profile (issue 82); a user with no member
    profile (the admin) keeps it in his session and cookie only. Refuses a language the
    club does not speak. True when a profile was changed."""
    if code not in dict(settings.LANGUAGES):
        raise ClubError(
            gettext("The club speaks no language %(code)s.") % {"code": repr(code)},
            field="language",
        )
    return Member.objects.filter(user=user).exclude(language=code).update(language=code) > 0
