"""The setup page of an empty club (issue 78): "Start your club" or "Try the demo club".

It opens only with the one-time setup code `make run` prints (the migrate service's log
on the compose path), and answers 404 once the club has been started. Wrong codes are
counted by the client's address: after SETUP_FAILURE_LIMIT of them in
SETUP_COOLOFF_MINUTES, that address is refused until the time is up, as a login is
(club.pages.auth.Tries: django-axes counts logins, and the setup code is not a login).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_http_methods

from club.pages.auth import SETUP_TRIES, client_ip
from club.pages.web import form_error
from club.services import setup as club_setup
from club.services.base import ClubError
from club.setup.forms import StartClubForm

BACKEND = "club.pages.auth.ClubBackend"


def _ask_code(request: HttpRequest, *, wrong: bool, status: int) -> HttpResponse:
    return render(
        request,
        "club/setup/code.html",
        {"wrong": wrong, "cooloff": settings.SETUP_COOLOFF_MINUTES},
        status=status,
    )


@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    if club_setup.started():
        raise Http404("this club has been started")
    if SETUP_TRIES.locked_out(request):
        return render(
            request,
            "club/setup/code.html",
            {"locked": True, "cooloff": settings.SETUP_COOLOFF_MINUTES},
            status=429,
        )
    code = str(request.POST.get("code") or request.GET.get("code") or "").strip()
    if not code:
        return _ask_code(request, wrong=False, status=200)
    if not club_setup.code_opens(code):
        SETUP_TRIES.failed(request)
        return _ask_code(request, wrong=True, status=403)
    if request.method == "POST" and request.POST.get("choice") == "demo":
        return _start_demo(request, code)
    if request.method == "POST":
        return _start_club(request, code)
    form = StartClubForm(
        initial={
            "code": code,
            "time_zone": settings.TIME_ZONE,
            "name": "",
            "language": get_language(),  # the browser's, as the page is shown in it
            **_money_initial(),
        }
    )
    return _page(request, form, code, status=200)


def _money_initial() -> dict[str, Any]:
    return {
        "currency_symbol": settings.CLUB_CURRENCY_SYMBOL,
        "currency_places": settings.CLUB_CURRENCY_PLACES,
    }


def _page(request: HttpRequest, form: StartClubForm, code: str, *, status: int) -> HttpResponse:
    return render(request, "club/setup/setup.html", {"form": form, "code": code}, status=status)


def _start_club(request: HttpRequest, code: str) -> HttpResponse:
    form = StartClubForm(request.POST)
    valid = form.is_valid()
    data = {k: form.cleaned_data.get(k, request.POST.get(k, "")) for k in form.fields}
    try:
        places = int(data["currency_places"])
    except (TypeError, ValueError):
        places = -1
    new = club_setup.NewClub(
        name=str(data["name"]),
        time_zone=str(data["time_zone"]),
        currency_symbol=str(data["currency_symbol"]),
        currency_places=places,
        default_variant=str(data["default_variant"]),
        username=str(data["username"]),
        display_name=str(data["display_name"]),
        password=str(data["password"]),
        language=str(data.get("language") or ""),
    )
    if not valid:
        # Every mistake at once: the service's checks beside the fields the form passed.
        # (all of a field's, where the form marked none of it: "too common" and "entirely
        # numeric" both)
        marked = set(form.errors)
        for field, said in club_setup.check(new).items():
            for message in said if field not in marked else []:
                form_error(form, ClubError(message, field=field))
    else:
        try:
            secretary = club_setup.start_club(code, new, address=client_ip(request))
        except club_setup.SetupRefused:
            SETUP_TRIES.failed(request)
            return _ask_code(request, wrong=True, status=403)
        except ClubError as e:
            form_error(form, e)
        else:
            login(request, secretary.user, backend=BACKEND)
            messages.success(
                request,
                gettext(
                    "%(club)s has started, with you as its secretary. Next: add the members, "
                    "then open the first evening."
                )
                % {"club": new.name.strip()},
            )
            return redirect("club:members")
    return _page(request, form, code, status=400)


def _start_demo(request: HttpRequest, code: str) -> HttpResponse:
    try:
        password = club_setup.start_demo(code, address=client_ip(request))
    except club_setup.SetupRefused:
        SETUP_TRIES.failed(request)
        return _ask_code(request, wrong=True, status=403)
    from django.contrib.auth import get_user_model

    login(request, get_user_model().objects.get(username="secretary"), backend=BACKEND)
    messages.success(
        request,
        gettext(
            "The demo club is loaded: you are its secretary. Every demo login (secretary, "
            "alice, bob, …) takes this install's demo password: %(password)s (make run "
            "prints it too)."
        )
        % {"password": password},
    )
    return redirect("home")
