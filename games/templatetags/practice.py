"""``{% practice_variants as variants %}``: the practice form is self-sufficient, so the
home page only has to include ``games/_practice_form.html``."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def practice_variants(context: Any) -> list[dict[str, Any]]:
    """The games, with a refused form's choices kept (``practice_posted``)."""
    from games.play.pages import variant_choices

    return variant_choices(context.get("practice_posted"))


@register.simple_tag
def house_rule_sets() -> list[Any]:
    """The club's house rules, for the practice form to start from (issue 43)."""
    from games.play import club_api

    return club_api.house_rule_sets()
