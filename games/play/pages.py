"""Rules pages and practice tables against computer players."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from games.engine.rules import VARIANTS, OptionValue

from . import club_api, services
from .club_api import ClubError, Member, parse_id, parse_whole


def _players(variant: str, lo: int, hi: int) -> tuple[int, int]:
    """The engine's range, narrowed to what a club table seats (``Variant.seats``)."""
    seats = VARIANTS[variant].seats
    return max(lo, seats.low, 2), min(hi, seats.high, 7)


def _kept_players(spec: Any, posted: Any) -> int:
    """The number of players a refused form asked for, where it was one of the game's."""
    lo, hi = _players(spec.name, spec.min_players, spec.max_players)
    asked = parse_whole(str(posted.get(f"players-{spec.name}", ""))) if posted else None
    return asked if asked is not None and lo <= asked <= hi else int(spec.default_players)


def variant_choices(posted: Any = None) -> list[dict[str, Any]]:
    """The games and their options for the practice form; ``posted``: a refused form's
    data, whose game, players and options are kept (issue 79: after each refusal the
    game was back on the first one)."""

    def kept(spec: Any, o: Any) -> str:
        raw = str(posted.get(f"opt-{spec.name}-{o.name}", "")) if posted else ""
        return raw if raw in [str(c) for c in o.choices] else str(o.default)

    return [
        {
            "name": spec.name,
            "title": gettext(spec.title),
            "summary": gettext(spec.summary),
            "chosen": bool(posted) and posted.get("variant") == spec.name,
            "min": _players(spec.name, spec.min_players, spec.max_players)[0],
            "max": _players(spec.name, spec.min_players, spec.max_players)[1],
            "default": _kept_players(spec, posted),
            "player_range": list(
                range(
                    _players(spec.name, spec.min_players, spec.max_players)[0],
                    _players(spec.name, spec.min_players, spec.max_players)[1] + 1,
                )
            ),
            "options": [
                {
                    "name": o.name,
                    "label": gettext(o.title),
                    "help": gettext(o.help),
                    "source": gettext(o.source),
                    "default": kept(spec, o),
                    "choices": [str(c) for c in o.choices],
                    # each value with its words, as the form and the rules page say it
                    "values": [(str(c), gettext(o.word(c))) for c in o.choices],
                }
                for o in spec.options
            ],
        }
        for spec in VARIANTS.values()
    ]


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules.html", {"variants": variant_choices(), "one": None})


@require_GET
def rules_variant(request: HttpRequest, variant: str) -> HttpResponse:
    found = [v for v in variant_choices() if v["name"] == variant]
    if not found:
        raise Http404("no such variant")
    # The laws in the reader's language, their numbers as the sources give them (issue 82):
    # a citation's words translated ("book p.50", "L12 (two players)"), never its number.
    laws = [(gettext(law.number), gettext(law.text)) for law in VARIANTS[variant].laws]
    context: dict[str, Any] = {"variants": found, "one": found[0], "laws": laws}
    # ?table=N: the laws as a table of this game plays them, each option's value there
    # and its source (issue 43), house rules marked.
    given = request.GET.get("table", "")
    table_id = parse_id(given)
    table = club_api.table_rules(table_id, variant) if table_id else None
    if table is not None:
        context |= {"table": table[0], "in_force": table[1]}
    return render(request, "games/rules.html", context)


class PracticeRefusal(Exception):
    """A practice form that cannot start a table; the message says why."""


def _option_value(variant: str, name: str, raw: str) -> OptionValue:
    for c in VARIANTS[variant].option(name).choices:
        if str(c) == raw:
            return c
    raise PracticeRefusal(f"option {name}: {raw!r} is not one of its values")


@login_required
@require_http_methods(["GET", "POST"])
def practice(request: HttpRequest) -> HttpResponse:
    """Start a practice table: the member in seat 0, computer players in the others."""
    if request.method == "GET":
        return render(request, "games/practice.html", {"variants": variant_choices()})
    variant = request.POST.get("variant", "")

    def refused(said: str) -> HttpResponse:
        # A sentence, and the form as it was sent (issue 79): its game, players, options.
        messages.error(request, said[:1].upper() + said[1:] + ("" if said.endswith(".") else "."))
        context = {"variants": variant_choices(request.POST), "practice_posted": request.POST}
        return render(request, "games/practice.html", context, status=400)

    if variant not in VARIANTS:
        return refused("Choose a game.")
    spec = VARIANTS[variant]
    try:
        raw = (
            request.POST.get(f"players-{variant}")
            or request.POST.get("players")
            or spec.default_players
        )
        players = parse_whole(str(raw)) or 0
        if not players:
            raise PracticeRefusal(f"the number of players must be a whole number, not {raw!r}")
        lo, hi = _players(variant, spec.min_players, spec.max_players)
        if not lo <= players <= hi:
            raise PracticeRefusal(f"{spec.title} is for {lo} to {hi} players")
        chosen = request.POST.get("house_rules", "")
        rules_id = parse_id(chosen)
        rules = club_api.house_rules_for(rules_id) if rules_id else None
        if chosen and rules is None:
            raise PracticeRefusal("those house rules are not the club's (any more)")
        options = (
            None
            if rules is not None
            else {
                o.name: _option_value(
                    variant, o.name, request.POST.get(f"opt-{variant}-{o.name}", str(o.default))
                )
                for o in spec.options
            }
        )
    except PracticeRefusal as e:
        return refused(str(e))
    member = Member.objects.filter(user=request.user).first()
    if member is None:
        messages.error(request, "Only club members can start a practice table.")
        return redirect("home")
    try:
        table = club_api.create_practice_table(member, variant, players, options, house_rules=rules)
    except ClubError as e:
        return refused(str(e))
    services.ensure_deal(table.pk)
    return redirect("games:table", table.pk)
