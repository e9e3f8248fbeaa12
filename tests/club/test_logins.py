"""Members who can sign in (issue 78, item 3): the secretary adds a member and gives a
one-use sign-in link (a QR code); the member opens it on a phone, chooses a password and
is signed in; the roster shows each login's state."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
import segno
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from club.models import AuditEntry, ClubSession, Member, SignInLink
from club.pages.auth import SIGNIN_TRIES
from club.services import logins
from club.services.base import create_member
from club.services.ledger import balance_of, member_history
from club.services.sessions import add_newcomer, check_in, open_session

pytestmark = pytest.mark.django_db

GOOD = {"password": "a long pass phrase", "password_again": "a long pass phrase"}


@pytest.fixture
def secretary() -> Client:
    sec = create_member("sec", "The Sec", password="x", is_staff=True)
    c = Client()
    c.force_login(sec.user)
    return c


def link_from(page: str) -> str:
    found = re.search(r'id="signin-address">[^<]*?(/signin/[\w-]+/)<', page)
    assert found, page[:3000]
    return found.group(1)


def test_the_secretary_adds_a_member_who_is_not_yet_invited(secretary: Client) -> None:
    r = secretary.post("/members/add/", {"display_name": "Mary Newcomer", "email": "m@x.org"})
    mary = Member.objects.get(display_name="Mary Newcomer")
    assert r.status_code == 302 and r["Location"] == f"/members/{mary.pk}/"
    assert not mary.user.has_usable_password() and mary.user.email == "m@x.org"
    assert mary.user.username.startswith("mary-newcomer-")
    roster = secretary.get("/members/").text
    assert 'data-login="not invited"' in roster and "Mary Newcomer" in roster
    assert AuditEntry.objects.filter(action=AuditEntry.MEMBER_ADD).count() == 1


def test_adding_a_member_shows_every_mistake_and_adds_nobody(secretary: Client) -> None:
    create_member("taken", "Ann Taken")
    r = secretary.post(
        "/members/add/",
        {"display_name": "Ann Taken", "username": "taken", "email": "not-an-address"},
    )
    assert r.status_code == 400
    for said in ("already called Ann Taken", "username taken is taken", "not an e-mail"):
        assert said in r.text, said
    assert Member.objects.filter(display_name="Ann Taken").count() == 1


def test_a_sign_in_link_sets_the_password_once_and_signs_the_member_in(
    secretary: Client,
) -> None:
    mary = logins.add_member("Mary Newcomer", by=get_user_model().objects.get(username="sec"))
    tonight = ClubSession.objects.create(stake=Decimal("0.05"), name="Tonight")
    page = secretary.post(f"/members/{mary.pk}/signin-link/")
    assert page.status_code == 200
    path = link_from(page.text)
    # The QR code, inline, is the very link shown beside it.
    address = re.search(r'id="signin-address">([^<]+)<', page.text).group(1)  # type: ignore[union-attr]
    assert address == f"http://testserver{path}"
    qr = segno.make(address, error="m").svg_inline(
        scale=6, dark="#111", light="#fff", omitsize=True
    )
    assert qr in page.text
    roster = secretary.get("/members/?login=invited").text
    assert "Mary Newcomer" in roster and "by The Sec" in roster
    phone = Client()
    form = phone.get(path)
    assert form.status_code == 200 and "Welcome, Mary Newcomer" in form.text
    r = phone.post(path, GOOD)
    assert r.status_code == 302 and r["Location"] == tonight.get_absolute_url()
    assert phone.get("/").context["member"] == mary  # signed in
    mary.user.refresh_from_db()
    assert mary.user.check_password(GOOD["password"])
    assert 'data-login="signed in"' in secretary.get("/members/").text
    again = Client().get(path)
    assert again.status_code == 410 and 'data-why="used"' in again.text
    assert Client().post(path, GOOD | {"password": "another long one"}).status_code == 410
    used = AuditEntry.objects.get(action=AuditEntry.SIGNIN_USED)
    assert used.actor == mary.user
    assert AuditEntry.objects.filter(action=AuditEntry.SIGNIN_LINK).count() == 1


def test_a_weak_password_is_refused_with_every_reason_and_the_link_kept(
    secretary: Client,
) -> None:
    mary = logins.add_member("Mary Newcomer", by=get_user_model().objects.get(username="sec"))
    path = link_from(secretary.post(f"/members/{mary.pk}/signin-link/").text)
    r = Client().post(path, {"password": "12345678", "password_again": "1234567"})
    assert r.status_code == 400
    for said in ("too common", "entirely numeric", "two passwords differ"):
        assert said in r.text, said
    mary.user.refresh_from_db()
    assert not mary.user.has_usable_password()
    assert Client().get(path).status_code == 200  # still open


def test_a_newer_link_revokes_the_older_and_links_expire(secretary: Client, settings: Any) -> None:
    mary = logins.add_member("Mary Newcomer", by=get_user_model().objects.get(username="sec"))
    first = link_from(secretary.post(f"/members/{mary.pk}/signin-link/").text)
    second = link_from(secretary.post(f"/members/{mary.pk}/signin-link/").text)
    r = Client().get(first)
    assert r.status_code == 410 and 'data-why="revoked"' in r.text
    SignInLink.objects.filter(revoked_at=None).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    r = Client().get(second)
    assert r.status_code == 410 and 'data-why="expired"' in r.text
    assert 'data-login="link expired"' in secretary.get("/members/").text
    unknown = Client().get("/signin/not-a-real-token/")
    assert unknown.status_code == 410 and 'data-why="unknown"' in unknown.text


def test_only_the_token_s_hash_is_kept() -> None:
    sec = create_member("sec2", "Sec Two", is_staff=True)
    mary = logins.add_member("Mary Newcomer", by=sec.user)
    link, token = logins.give_link(mary, by=sec.user)
    stored = SignInLink.objects.filter(pk=link.pk).values().get()
    assert not any(token in str(v) for v in stored.values())
    assert logins.open_link(token) == link


def test_a_disabled_login_cannot_use_its_link() -> None:
    sec = create_member("sec3", "Sec Three", is_staff=True)
    mary = logins.add_member("Mary Newcomer", by=sec.user)
    _, token = logins.give_link(mary, by=sec.user)
    get_user_model().objects.filter(pk=mary.user_id).update(is_active=False)
    with pytest.raises(logins.LinkRefused) as e:
        logins.use_link(token, GOOD["password"], GOOD["password"])
    assert e.value.why == "disabled"


def test_members_see_neither_the_form_nor_another_s_link(secretary: Client) -> None:
    ann = create_member("ann", "Ann Member", password="pw")
    c = Client()
    c.force_login(ann.user)
    assert c.post("/members/add/", {"display_name": "Sneaky"}).status_code == 403
    assert c.post(f"/members/{ann.pk}/signin-link/").status_code == 403
    assert "Give a sign-in link" not in c.get(f"/members/{ann.pk}/").text
    assert not Member.objects.filter(display_name="Sneaky").exists()


def _signed_in(c: Client) -> bool:
    return c.get("/password/").status_code == 200


def _login(username: str, password: str) -> Client:
    c = Client()
    r = c.post("/login/", {"username": username, "password": password})
    assert r.status_code == 302, r.content[:500]
    return c


def test_the_secretary_signs_a_member_out_everywhere(
    secretary: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """A lost phone: both of Mary's devices are signed out, her stream grants revoked; her
    password stays."""
    from club.infra import redis as club_redis

    create_member("mary", "Mary Phone", password="mary plays on tuesdays")
    phone, laptop = (
        _login("mary", "mary plays on tuesdays"),
        _login("mary", "mary plays on tuesdays"),
    )
    mary = Member.objects.get(user__username="mary")
    club_redis.client().sadd(club_redis.key("stream-grants", mary.user_id), "g1")
    with django_capture_on_commit_callbacks(execute=True):
        r = secretary.post(f"/members/{mary.pk}/sign-out/")
    assert r.status_code == 302
    assert not _signed_in(phone) and not _signed_in(laptop)
    assert not club_redis.client().exists(club_redis.key("stream-grants", mary.user_id))
    assert _signed_in(_login("mary", "mary plays on tuesdays"))
    entry = AuditEntry.objects.get(action=AuditEntry.SIGN_OUT)
    assert "2 sign-ins" in entry.what


def test_a_disabled_login_is_signed_out_and_keeps_its_books(secretary: Client) -> None:
    create_member("leo", "Leo Leaving", password="leo plays on mondays")
    phone = _login("leo", "leo plays on mondays")
    leo = Member.objects.get(user__username="leo")
    _, token = logins.give_link(leo, by=get_user_model().objects.get(username="sec"))
    secretary.post(f"/members/{leo.pk}/login/", {"enabled": "0"})
    leo.user.refresh_from_db()
    assert not leo.user.is_active and not _signed_in(phone)
    assert (
        Client()
        .post("/login/", {"username": "leo", "password": "leo plays on mondays"})
        .status_code
        == 200
    )
    assert Client().get(f"/signin/{token}/").status_code == 410
    assert 'data-login="disabled"' in secretary.get("/members/").text
    assert Member.objects.filter(pk=leo.pk).exists()  # history and money stay
    secretary.post(f"/members/{leo.pk}/login/", {"enabled": "1"})
    assert _signed_in(_login("leo", "leo plays on mondays"))
    sec = Member.objects.get(user__username="sec")
    r = secretary.post(f"/members/{sec.pk}/login/", {"enabled": "0"}, follow=True)
    assert "cannot disable your own login" in r.text
    assert get_user_model().objects.get(username="sec").is_active


def test_a_member_changes_his_password_and_his_other_devices_are_signed_out() -> None:
    create_member("ann", "Ann Own", password="ann plays on fridays")
    phone, laptop = _login("ann", "ann plays on fridays"), _login("ann", "ann plays on fridays")
    bad = phone.post(
        "/password/",
        {"old_password": "wrong", "new_password1": "1234", "new_password2": "1234"},
    )
    assert bad.status_code == 200 and "incorrectly" in bad.text
    r = phone.post(
        "/password/",
        {
            "old_password": "ann plays on fridays",
            "new_password1": "ann now plays on sundays",
            "new_password2": "ann now plays on sundays",
        },
    )
    assert r.status_code == 302 and r["Location"] == "/password/changed/"
    assert _signed_in(phone) and not _signed_in(laptop)
    assert _signed_in(_login("ann", "ann now plays on sundays"))


def test_forgot_password_asks_the_secretary_where_the_club_sends_no_mail(
    settings: Any,
) -> None:
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.filebased.EmailBackend"}}
    r = Client().get("/password/forgot/")
    assert r.status_code == 200 and "Ask the club's secretary for a new sign-in link" in r.text
    assert "Forgot your password?" in Client().get("/login/").text


def test_forgot_password_mails_a_one_use_link_where_the_club_sends_mail(settings: Any) -> None:
    from django.core import mail

    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    create_member("bea", "Bea Mail", password="bea plays on mondays")
    get_user_model().objects.filter(username="bea").update(email="bea@example.org")
    r = Client().post("/password/forgot/", {"email": "bea@example.org"})
    assert r.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bea@example.org"]
    path = re.search(r"http://testserver(/password/reset/\S+/)", mail.outbox[0].body).group(1)  # type: ignore[union-attr]
    c = Client()
    form = c.get(path, follow=True)
    assert "Choose a new password" in form.text
    done = c.post(
        form.redirect_chain[-1][0],
        {"new_password1": "bea now plays on fridays", "new_password2": "bea now plays on fridays"},
    )
    assert done.status_code == 302
    assert _signed_in(_login("bea", "bea now plays on fridays"))
    again = Client().get(path, follow=True)
    assert "This link does not work" in again.text


def test_a_link_is_mailed_to_a_file_where_mail_is_not_set_up(
    secretary: Client, settings: Any, tmp_path: Any
) -> None:
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(tmp_path)},
        }
    }
    r = secretary.post("/members/add/", {"display_name": "Mia Mail", "email": "mia@example.org"})
    mia = Member.objects.get(display_name="Mia Mail")
    assert r.status_code == 302
    page = secretary.post(f"/members/{mia.pk}/signin-link/")
    path = link_from(page.text)
    assert "Mail is not set up" in page.text
    written = "".join(f.read_text() for f in tmp_path.iterdir())
    assert path in written and "mia@example.org" in written


def test_members_stay_signed_in_for_a_season_and_the_staff_for_an_evening() -> None:
    create_member("long", "Long Member", password="a long pass phrase")
    create_member("boss", "Boss Staff", password="a long pass phrase", is_staff=True)
    member, staff = _login("long", "a long pass phrase"), _login("boss", "a long pass phrase")
    assert member.session.get_expiry_age() == 30 * 24 * 3600
    assert staff.session.get_expiry_age() == 12 * 3600


def _roster(text: str) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("roster.csv", text.encode("utf-8-sig"), content_type="text/csv")


def test_a_roster_with_a_bad_row_imports_nobody_and_says_every_reason(
    secretary: Client,
) -> None:
    create_member("taken", "Old Member")
    r = secretary.post(
        "/members/import/",
        {"roster": _roster(
            "Name,Username,Email,Phone\n"
            "Ann Roster,ann,ann@example.org,0123\n"
            ",nobody,,\n"
            "Bob Roster,taken,bob@,\n"
            "Ann Roster,,,\n"
        )},
    )  # fmt: skip
    assert r.status_code == 400
    problems = re.findall(r"<li>([^<]+)</li>", r.text.split('id="import-problems"')[1])
    assert problems == [
        "Row 3: no name.",
        "Row 4: the username taken is taken.",
        "Row 4: bob@ is not an e-mail address.",
        "Row 5: Ann Roster is on row 2 too.",
    ], problems
    assert not Member.objects.filter(display_name__endswith="Roster").exists()


def test_a_good_roster_imports_every_member_not_yet_invited(secretary: Client) -> None:
    r = secretary.post(
        "/members/import/",
        {"roster": _roster(
            "name,email,phone\nAnn Roster,ann@example.org,0123 456\nBob Roster,,\nCy Roster,,\n"
        )},
    )  # fmt: skip
    assert r.status_code == 302 and r["Location"] == "/members/?login=not+invited"
    added = Member.objects.filter(display_name__endswith="Roster").order_by("display_name")
    assert [m.display_name for m in added] == ["Ann Roster", "Bob Roster", "Cy Roster"]
    ann = added[0]
    assert ann.user.email == "ann@example.org" and ann.phone == "0123 456"
    assert not ann.user.has_usable_password()
    page = secretary.get("/members/?login=not+invited").text
    assert all(n in page for n in ("Ann Roster", "Bob Roster", "Cy Roster"))
    entry = AuditEntry.objects.filter(action=AuditEntry.MEMBER_ADD).get()
    assert "Imported 3 members" in entry.what


def test_a_file_that_is_not_a_roster_is_refused(secretary: Client) -> None:
    for text, said in (
        ("who,what\nx,y\n", "The first row must name the columns"),
        ("name,age\nAnn,3\n", "Unknown column"),
        ("name\n", "holds no member"),
    ):
        r = secretary.post("/members/import/", {"roster": _roster(text)})
        assert r.status_code == 400 and said in r.text, said
    r = secretary.post("/members/import/", {})
    assert r.status_code == 400 and "Choose the roster" in r.text


@pytest.fixture(autouse=True)
def _no_tries_kept() -> None:
    """Wrong sign-in links are counted by address (the test client's is 127.0.0.1); a test
    starts with none counted, whatever ran before it in this worker."""
    SIGNIN_TRIES.forget("127.0.0.1")


def test_links_that_do_not_work_tried_from_one_address_lock_it_out_for_a_while(
    secretary: Client, settings: Any
) -> None:
    """Item 6: tries are throttled as logins are. After SIGNIN_FAILURE_LIMIT refused links
    from an address, every link is refused there (429), the right one too, and it is not
    spent; another address is not held back."""
    settings.SIGNIN_FAILURE_LIMIT = 3
    mary = logins.add_member("Mary Newcomer", by=get_user_model().objects.get(username="sec"))
    path = link_from(secretary.post(f"/members/{mary.pk}/signin-link/").text)
    guesser = Client()
    for n in range(3):
        assert guesser.get(f"/signin/guess-{n}/").status_code == 410
    locked = guesser.get(path)
    assert locked.status_code == 429 and 'data-why="locked"' in locked.text
    assert "Wait 15 minutes" in locked.text
    assert guesser.post(path, GOOD).status_code == 429
    mary.user.refresh_from_db()
    assert not mary.user.has_usable_password()  # nothing changed
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    assert elsewhere.get(path).status_code == 200  # the link itself still works
    SIGNIN_TRIES.forget("127.0.0.1")
    assert guesser.post(path, GOOD).status_code == 302


def test_the_audit_log_says_who_gave_used_and_revoked_a_link_and_from_where(
    secretary: Client,
) -> None:
    """Item 6: every link issued, used or revoked is in the audit log: who, when, from
    which address."""
    mary = logins.add_member("Mary Newcomer", by=get_user_model().objects.get(username="sec"))
    secretary.post(f"/members/{mary.pk}/signin-link/", REMOTE_ADDR="192.0.2.10")
    path = link_from(secretary.post(f"/members/{mary.pk}/signin-link/").text)
    Client(REMOTE_ADDR="198.51.100.4").post(path, GOOD)
    given = list(AuditEntry.objects.filter(action=AuditEntry.SIGNIN_LINK).order_by("pk"))
    assert [e.address for e in given] == ["192.0.2.10", "127.0.0.1"]
    assert "revoked" not in given[0].what
    assert "the link given before it revoked" in given[1].what
    assert all(e.actor.username == "sec" for e in given)
    used = AuditEntry.objects.get(action=AuditEntry.SIGNIN_USED)
    assert (used.actor, used.address) == (mary.user, "198.51.100.4")
    # A disabled login's open link is revoked, and the log says so.
    link_from(secretary.post(f"/members/{mary.pk}/signin-link/").text)
    secretary.post(f"/members/{mary.pk}/login/", {"enabled": "0"})
    disabled = AuditEntry.objects.get(action=AuditEntry.LOGIN_DISABLED)
    assert "1 open sign-in link revoked" in disabled.what and disabled.address == "127.0.0.1"
    page = secretary.get("/audit/").text
    assert "198.51.100.4" in page and "<th>From</th>" in page


def test_a_guest_at_check_in_gets_a_link_and_joining_keeps_his_history_and_money(
    secretary: Client,
) -> None:
    """Item 3: a guest at check-in is given a link the same way, from the console; a guest
    who becomes a member keeps his history and money (the same member row)."""
    sec = get_user_model().objects.get(username="sec")
    tonight = open_session(stake="0.05", by=sec, name="Tonight")
    gus = add_newcomer(tonight, "Gus Guest", guest=True)
    known = create_member("kim", "Kim Known", password="a long pass phrase")
    check_in(tonight, known)
    console = secretary.get(f"/sessions/{tonight.pk}/console/").text
    signin = f'action="/members/{gus.pk}/signin-link/"'
    assert signin in console  # the guest has no password yet
    assert f'action="/members/{known.pk}/signin-link/"' not in console  # Kim has one
    page = secretary.post(f"/members/{gus.pk}/signin-link/")
    assert page.status_code == 200 and "<svg" in page.text
    phone = Client()
    assert phone.post(link_from(page.text), GOOD)["Location"] == tonight.get_absolute_url()
    assert signin not in secretary.get(f"/sessions/{tonight.pk}/console/").text
    paid = secretary.post(
        f"/members/{gus.pk}/payments/",
        {"to": "club", "amount": "2.00", "method": "cash", "credit": "on"},
    )
    assert paid.status_code == 302
    before = (balance_of(gus), len(member_history(gus.pk)))
    assert before[0] == Decimal("2.00")
    assert "Make Gus Guest a member" in secretary.get(f"/members/{gus.pk}/").text
    joined = secretary.post(f"/members/{gus.pk}/join/")
    assert joined.status_code == 302 and joined["Location"] == f"/members/{gus.pk}/"
    gus.refresh_from_db()
    assert not gus.is_guest
    assert (balance_of(gus), len(member_history(gus.pk))) == before
    assert phone.get("/").context["member"] == gus  # his login kept
    entry = AuditEntry.objects.filter(action=AuditEntry.MEMBER).latest("pk")
    assert "Gus Guest, a guest, became a member" in entry.what
    # Twice is refused plainly, and changes nothing.
    again = secretary.post(f"/members/{gus.pk}/join/", follow=True)
    assert "Gus Guest is a member already." in again.text
    assert AuditEntry.objects.filter(action=AuditEntry.MEMBER).count() == 1
    # A member cannot make himself a member of anything: staff only.
    assert phone.post(f"/members/{gus.pk}/join/").status_code == 403
