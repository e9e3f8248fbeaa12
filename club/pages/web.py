"""What every page of the club shares: access helpers answering 404 and 403 (`member_or_403`, `session_or_404`, `table_or_404`, `staff_required`) and a service's refusal shown on the page or beside its field (`refused`, `form_error`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render

from club.models import (
    ClubSession,
    Member,
    Table,
)
from club.services.base import ClubError, member_for

View = Callable[..., HttpResponse]


View = Callable[..., HttpResponse]


def staff_required(view: View) -> View:
    @wraps(view)
    @login_required
    def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("the secretary only")
        return view(request, *args, **kwargs)

    return inner


def post_or_back(back: Callable[..., str]) -> Callable[[View], View]:
    """A form's action that answers a GET by going back to the form's page, ``back(**the
    URL's arguments)``, rather than 405 (issue 79: after a refused form the address bar
    kept the action's URL, and reloading it answered 405). Other methods: 405."""

    def decorate(view: View) -> View:
        @wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return redirect(back(*args, **kwargs))
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, *args, **kwargs)

        return inner

    return decorate


def member_or_403(request: HttpRequest) -> Member:
    member = member_for(request.user)
    if member is None:
        raise PermissionDenied("you have no member profile")
    return member


def session_or_404(pk: int) -> ClubSession:
    return get_object_or_404(ClubSession, pk=pk)


def table_or_404(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("session"), pk=pk)


def sentence(said: object) -> str:
    """A refusal as a sentence (issue 79): its first letter a capital, a full stop at its
    end ("the evening is not open" → "The evening is not open.")."""
    text = str(said).strip()
    text = text[:1].upper() + text[1:]
    return text if not text or text.endswith((".", "?", "!")) else text + "."


def refused(request: HttpRequest, error: Exception, back: str) -> HttpResponse:
    return render(
        request, "club/refused.html", {"error": sentence(error), "back": back}, status=400
    )


def form_error(form: forms.Form, error: ClubError, *, beside_fields_only: bool = False) -> None:
    """A service's refusal shown on the form: each of its problems beside its field when
    it names one (all at once: three mistakes, one submit). ``beside_fields_only``: for
    a form its own fields already refused, only the problems of fields not yet marked
    (the service's words on the whole result assume every field was read)."""
    for problem in error.each():
        field = problem.field if problem.field in form.fields else None
        if beside_fields_only and (field is None or form.has_error(field)):
            continue
        form.add_error(field, sentence(problem))
