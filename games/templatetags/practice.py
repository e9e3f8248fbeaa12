"""``{% practice_variants as variants %}``: the practice form is self-sufficient, so the
home page only has to include ``games/_practice_form.html``."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag
def practice_variants() -> list[dict[str, Any]]:
    from games.views_more import variant_choices

    return variant_choices()
