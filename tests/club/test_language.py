"""Each reader in his own language (issue 82, item 2): a member's choice on his profile
first, then a choice made in this browser, then the browser's preference list, then the
club's language; the switcher on every page; the club's language on the setup page."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from club.models import Club, Member
from club.services import setup
from club.services.base import create_member

pytestmark = pytest.mark.django_db

SPANISH_LOGIN = "Iniciar sesión"
ENGLISH_LOGIN = "Log in"


def _lang(page: Any) -> str:
    return page.text.split('<html lang="', 1)[1].split('"', 1)[0]


def _started_club(language: str) -> None:
    Club.objects.update_or_create(
        pk=1, defaults={"language": language, "started_at": timezone.now(), "name": "El Club"}
    )


def test_a_first_visit_answers_in_the_browsers_first_language_the_club_speaks() -> None:
    page = Client(headers={"accept-language": "fr-FR,es-MX;q=0.8,en;q=0.5"}).get("/login/")
    assert page.status_code == 200
    assert _lang(page) == "es" and page.headers["Content-Language"] == "es"
    assert f"<h1>{SPANISH_LOGIN}</h1>" in page.text
    assert "Accept-Language" in page.headers["Vary"]
    english = Client(headers={"accept-language": "en-US,en;q=0.9"}).get("/login/")
    assert _lang(english) == "en-gb" and f"<h1>{ENGLISH_LOGIN}</h1>" in english.text


def test_with_no_language_of_the_browsers_the_clubs_language_answers() -> None:
    french = {"accept-language": "fr-FR,fr;q=0.9"}
    assert _lang(Client(headers=french).get("/login/")) == settings.LANGUAGE_CODE
    _started_club("es")
    page = Client(headers=french).get("/login/")
    assert _lang(page) == "es" and SPANISH_LOGIN in page.text
    # The browser's own preference still comes first, where the club speaks it.
    assert _lang(Client(headers={"accept-language": "en"}).get("/login/")) == "en-gb"


def test_the_switcher_keeps_a_visitors_choice_in_this_browser() -> None:
    c = Client(headers={"accept-language": "en-GB"})
    form = c.get("/login/")
    assert 'action="/language/"' in form.text and 'name="language"' in form.text
    changed = c.post("/language/", {"language": "es", "next": "/login/?next=/standings/"})
    assert changed.status_code == 302 and changed["Location"] == "/login/?next=/standings/"
    assert changed.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    assert _lang(c.get("/login/")) == "es"  # the browser still says English


def test_a_members_choice_is_kept_on_his_profile_and_follows_him_to_another_phone() -> None:
    ann = create_member("ann", "Ann", password="a long pass phrase")
    phone = Client(headers={"accept-language": "en-GB"})
    phone.force_login(ann.user)
    assert phone.post("/language/", {"language": "es", "next": "/"}).status_code == 302
    ann.refresh_from_db()
    assert ann.language == "es"
    # Another browser, set to English, with no cookie: his login brings his language.
    other = Client(headers={"accept-language": "en-GB"})
    assert _lang(other.get("/login/")) == "en-gb"
    other.post("/login/", {"username": "ann", "password": "a long pass phrase"})
    page = other.get(f"/members/{ann.pk}/")
    assert page.status_code == 200 and _lang(page) == "es"
    # His choice comes before a cookie this browser kept from before.
    other.cookies[settings.LANGUAGE_COOKIE_NAME] = "en-gb"
    assert _lang(other.get(f"/members/{ann.pk}/")) == "es"


def test_a_language_the_club_does_not_speak_is_refused_and_changes_nothing() -> None:
    ann = create_member("ann", "Ann")
    c = Client()
    c.force_login(ann.user)
    refused = c.post("/language/", {"language": "fr", "next": "/"})
    assert refused.status_code == 400
    assert "The club speaks English, Español: choose one of them." in refused.text
    assert settings.LANGUAGE_COOKIE_NAME not in refused.cookies
    assert Member.objects.get(pk=ann.pk).language == ""


def test_the_switcher_never_sends_a_reader_to_another_site() -> None:
    c = Client()
    gone = c.post("/language/", {"language": "es", "next": "https://evil.example/"})
    assert gone.status_code == 302 and gone["Location"] == "/"


def test_the_clubs_language_is_chosen_on_the_setup_page() -> None:
    code = setup.setup_code()
    c = Client(headers={"accept-language": "es-MX"})
    page = c.get("/setup/", {"code": code})
    assert "Idioma del club" in page.text and '<option value="es" selected>' in page.text
    started = c.post(
        "/setup/",
        {
            "code": code,
            "choice": "start",
            "name": "Club del Martes",
            "time_zone": "America/Mexico_City",
            "currency_symbol": "MX$",
            "currency_places": "2",
            "default_variant": "conquian",
            "language": "es",
            "display_name": "Rosa",
            "username": "rosa",
            "password": "a long pass phrase",
            "password_again": "a long pass phrase",
        },
    )
    assert started.status_code == 302
    assert Club.objects.get().language == "es"
    # A visitor whose browser names no language of the club's gets the club's.
    assert _lang(Client(headers={"accept-language": "de"}).get("/login/")) == "es"


def test_setup_refuses_a_language_the_club_cannot_speak() -> None:
    new = setup.NewClub(
        name="X",
        time_zone="UTC",
        currency_symbol="$",
        currency_places=2,
        default_variant="conquian",
        username="x",
        display_name="X",
        password="a long pass phrase",
        language="fr",
    )
    assert setup.check(new)["language"] == ["choose one of the club's languages"]
