"""``{% seated as seat %}``: where the logged-in member sits tonight, for the menu."""

from __future__ import annotations

from typing import Any

from django import template

from club import services

register = template.Library()


@register.filter
def money(amount: Any) -> str:
    """An amount with the club's currency: "£1.50", "-£0.30" (``services.money.shown``)."""
    return services.money.shown(amount)


@register.simple_tag(takes_context=True)
def seated(context: dict[str, Any]) -> Any:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return services.current_seat(services.member_for(user))


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
