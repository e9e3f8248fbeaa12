"""The secretary's office: the club's house rules and the audit log."""

from __future__ import annotations

from django.contrib import messages
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from club.models import (
    HouseRules,
)
from club.office.forms import HouseRulesForm
from club.pages.inputs import parse_id
from club.pages.web import form_error, staff_required
from club.services import house_rules
from club.services.base import ClubError


@staff_required
def house_rules_list(request: HttpRequest) -> HttpResponse:
    """The club's house rules (issue 43): each set with the options it changes, whether it
    is the club's default for its game and how many tables were formed with it; a form to
    save a new set, or (``?edit=N``) to change one. A refusal is shown beside its field;
    nothing is saved. A set changed never changes a table already formed."""
    editing = None
    given = request.GET.get("edit") or request.POST.get("edit") or ""
    if given:
        editing = get_object_or_404(HouseRules, pk=parse_id(given) or 0)
    if request.method == "POST":
        form = HouseRulesForm(request.POST, rules=editing)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved = house_rules.save(
                    name=data["name"],
                    variant=data["variant"],
                    options=form.chosen_options(data["variant"]),
                    default=data["is_default"],
                    rules=editing,
                    by=request.user,
                )
            except ClubError as e:
                form_error(form, e)
            else:
                said = house_rules.saved_words(saved, changed=editing is not None)
                messages.success(request, f"{said}.")
                return redirect("club:house_rules")
        status = 400
    else:
        form, status = HouseRulesForm(rules=editing), 200
    sets = [
        (r, house_rules.described(r.variant, r.options, to_reader=True))
        for r in HouseRules.objects.annotate(formed=models.Count("tables")).order_by(
            "variant", "name"
        )
    ]
    return render(
        request,
        "club/office/house_rules.html",
        {"form": form, "sets": sets, "editing": editing},
        status=status,
    )
