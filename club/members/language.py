"""The language switcher on every page (issue 82): a member's choice is kept on his
profile and in his login session; anyone's, in the browser's cookie (as Django's
``set_language`` keeps it), so the login page too answers in it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.infra.locale import SESSION_KEY, supported
from club.models import Member
from club.services import logins


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    code = str(request.POST.get("language", ""))
    if code not in dict(settings.LANGUAGES):
        # Bad input: said, and nothing changed (no cookie, no profile).
        return render(
            request,
            "club/refused.html",
            {
                "error": _("The club speaks %(languages)s: choose one of them.")
                % {"languages": ", ".join(str(name) for _code, name in settings.LANGUAGES)},
                "back": "/",
            },
            status=400,
        )
    following = str(request.POST.get("next") or request.headers.get("referer") or "/")
    if not url_has_allowed_host_and_scheme(
        following, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        following = "/"
    if request.user.is_authenticated:
        logins.set_language(request.user, code)
        request.session[SESSION_KEY] = code
    translation.activate(code)
    response = HttpResponseRedirect(following)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE or 365 * 24 * 3600,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


def remember_member_language(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    """At login: the member's own language into his login session (``user_logged_in``)."""
    if request is None or not hasattr(request, "session"):
        return
    language = Member.objects.filter(user=user).values_list("language", flat=True).first()
    if language and supported(language):
        request.session[SESSION_KEY] = language
