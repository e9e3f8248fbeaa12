"""``{% seated as seat %}``: where the logged-in member sits tonight, for the menu."""

from __future__ import annotations

from typing import Any

from django import template

from club import services

register = template.Library()


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
