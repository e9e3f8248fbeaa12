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

from club import services
from club.models import AuditEntry, ClubSession, Member, SignInLink
from club.services import logins

pytestmark = pytest.mark.django_db

GOOD = {"password": "a long pass phrase", "password_again": "a long pass phrase"}


@pytest.fixture
def secretary() -> Client:
    sec = services.create_member("sec", "The Sec", password="x", is_staff=True)
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
    services.create_member("taken", "Ann Taken")
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
    sec = services.create_member("sec2", "Sec Two", is_staff=True)
    mary = logins.add_member("Mary Newcomer", by=sec.user)
    link, token = logins.give_link(mary, by=sec.user)
    stored = SignInLink.objects.filter(pk=link.pk).values().get()
    assert not any(token in str(v) for v in stored.values())
    assert logins.open_link(token) == link


def test_a_disabled_login_cannot_use_its_link() -> None:
    sec = services.create_member("sec3", "Sec Three", is_staff=True)
    mary = logins.add_member("Mary Newcomer", by=sec.user)
    _, token = logins.give_link(mary, by=sec.user)
    get_user_model().objects.filter(pk=mary.user_id).update(is_active=False)
    with pytest.raises(logins.LinkRefused) as e:
        logins.use_link(token, GOOD["password"], GOOD["password"])
    assert e.value.why == "disabled"


def test_members_see_neither_the_form_nor_another_s_link(secretary: Client) -> None:
    ann = services.create_member("ann", "Ann Member", password="pw")
    c = Client()
    c.force_login(ann.user)
    assert c.post("/members/add/", {"display_name": "Sneaky"}).status_code == 403
    assert c.post(f"/members/{ann.pk}/signin-link/").status_code == 403
    assert "Give a sign-in link" not in c.get(f"/members/{ann.pk}/").text
    assert not Member.objects.filter(display_name="Sneaky").exists()
