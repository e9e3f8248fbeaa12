"""``{% seated as seat %}``: where the logged-in member sits tonight, for the menu."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from club.infra.locale import reader_catalog
from club.services import money as club_money
from club.services.base import member_for
from club.services.tables import current_seat
from games.engine.errors import InvalidActionError
from games.engine.variant import find_variant
from games.engine.words import speaking

register = template.Library()


@register.filter
def game_name(variant: str) -> str:
    """A game's one name, from the engine's registry (a table's variant → its display_name, issue 79);
    a name the registry no longer knows is shown as stored."""
    try:
        return gettext(find_variant(variant).display_name)
    except InvalidActionError:
        return variant


@register.filter
def money(amount: Any) -> str:
    """An amount with the club's currency, in the reader's digits: "£1.50", "-£0.30";
    "£1,50" in Spanish (``club_money.shown_to_reader``)."""
    return club_money.shown_to_reader(amount)


@register.simple_tag(takes_context=True)
def seated(context: dict[str, Any]) -> Any:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return current_seat(member_for(user))


@register.filter
def play_url(table: Any) -> str:
    """One tap to play: the browser table, or the club page of a table with real cards."""
    return str(table.get_absolute_url() if table.mode == "online" else table.get_club_url())


@register.simple_tag(takes_context=True)
def member_link(context: dict[str, Any], member: Any) -> Any:
    """The member's name, a link to his page for whoever may open it (the secretary and
    other staff, and the member himself); a computer player's name is never a link."""
    from django.urls import reverse
    from django.utils.html import format_html

    request = context.get("request")
    user = getattr(request, "user", None)
    if member is None:
        return ""
    may = (
        user is not None
        and user.is_authenticated
        and (user.is_staff or getattr(member, "user_id", None) == user.pk)
    )
    if getattr(member, "is_bot", False) or not may:
        return format_html("{}", member)
    return format_html('<a href="{}">{}</a>', reverse("club:member", args=[member.pk]), member)


@register.inclusion_tag("club/office/_rules_in_force.html")
def rules_in_force(table: Any, open_: bool = False) -> dict[str, Any]:
    """The rules a table plays under (issue 43): its house rules' name as formed, and
    every option of its game with its value and source, house rules marked. A table whose
    options no longer fit its game says so (its page explains)."""
    from club.services import house_rules

    try:
        options = house_rules.in_force(table)
    except (InvalidActionError, KeyError):  # options of old that do not fit: shown as none
        options = []
    return {
        "table": table,
        "options": options,
        "label": house_rules.rules_label(table, to_reader=True) if options else "",
        "open": open_,
    }


@register.filter
def rules_label(table: Any) -> str:
    """ "Dalton rules: Ratting: six; Jokers: spade-twos", or "the game's own rules"."""
    from club.services import house_rules

    try:
        return house_rules.rules_label(table, to_reader=True)
    except (InvalidActionError, KeyError):  # see rules_in_force
        return gettext("options that do not fit the game")


@register.filter
def where_in_game(table: Any) -> str:
    """Where a table's deal stands in its game ("Game 2, deal 3 of 4"), in the reader's
    language (issue 82: the engine's words, spoken in his catalog)."""
    with speaking(reader_catalog()):
        return str(table.game_and_deal)
