"""Each reader in his own language (issue 82).

Which language a request is answered in, first that applies:

1. the member's own choice, kept on his profile (`Member.language`) and copied into his
   login session when he logs in or changes it (so a page asks no query for it);
2. a choice made in this browser before (the switcher's cookie, as Django's
   ``set_language`` sets it), logged in or not;
3. the browser's preference list (``Accept-Language``): a first guess only, as the W3C
   advises, until a choice is made;
4. the club's language, chosen on the setup page (`Club.language`), else the settings'
   ``LANGUAGE_CODE`` (``CLUB_LANGUAGE``).

The events process (async) never reads a session: a stream's language comes with its
token (`games.play.events`), its other answers from 2-4.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers

SESSION_KEY = "language"  # the member's own choice, in his login session


def supported(code: str | None) -> str | None:
    """``code`` as one of the club's languages ("es-MX" → "es", "en-US" → "en-gb"), or
    None when it names none of them."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code.strip().lower())
    except LookupError:
        return None


def from_browser(request: HttpRequest) -> str | None:
    """The first language of the browser's preference list the club speaks."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _quality in translation.trans_real.parse_accept_lang_header(header):
        if code == "*":
            break
        found = supported(code)
        if found:
            return found
    return None


def club_language() -> str:
    from club.services.profile import profile

    return supported(profile(read=False).language) or settings.LANGUAGE_CODE


def language_for(request: HttpRequest, *, read_session: bool = True) -> str:
    """The language ``request`` is answered in (the module's docstring gives the order)."""
    if read_session:
        session = getattr(request, "session", None)
        own = supported(session.get(SESSION_KEY)) if session is not None else None
        if own:
            return own
    return (
        supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        or from_browser(request)
        or club_language()
    )


class ClubLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, choosing as this module says (it would put the
    settings' language before the club's, and knows no member)."""

    def process_request(self, request: HttpRequest) -> None:
        language = language_for(request, read_session=not iscoroutinefunction(self))
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


def reader_catalog() -> Any:
    """The active language's catalog (Django's, a ``gettext`` translations object), for
    the engine's words (``games.engine.words.speaking``): a page's reader's language."""
    from django.utils.translation import trans_real

    return trans_real.translation(translation.get_language() or settings.LANGUAGE_CODE)
