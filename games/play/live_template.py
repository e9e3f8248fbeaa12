"""The live part's template engine: Jinja2, through Django's own Jinja2 backend.

The live part (``templates/jinja2/games/live.html``) is the hottest render of the app:
every move's answer, and every other phone's push in the events process (issue 59).
Django's template language walks its node tree on every render (about 0.35 ms of the
part's 0.48 in process, five renders a move at a table of five); Jinja2 compiles a
template to Python once. Everything else stays in Django's templates, which the pages
extend; the live part is handed to them rendered (``live_html``).

The cards and the log are drawn by the functions in games/templatetags/cards.py (Python,
each face's markup made once a process), handed to the template as globals.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2
from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from games.templatetags import cards


def pluralize(count: Any, suffixes: str = "s") -> str:
    """Django's ``pluralize`` filter: ``"s"`` or ``"y,ies"`` (singular, plural)."""
    singular, plural = suffixes.split(",", 1) if "," in suffixes else ("", suffixes)
    try:
        return singular if int(count) == 1 else plural
    except (TypeError, ValueError):
        return ""


class _Environment(jinja2.Environment):
    """``a.b`` looks in a dict first, as Django's templates do: the presenters hand the
    template dicts, and Jinja2's attribute-first lookup raised and caught an
    AttributeError for each of a render's 170 lookups (a quarter of its time)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options: Any) -> jinja2.Environment:
    """The Jinja2 environment of the ``jinja2`` template engine (settings.TEMPLATES).
    A name or attribute missing is empty and false, and so is any attribute of it, as
    in Django's templates (``call_round.called`` where there is no call round), in every
    mode: Django's backend would print it for debugging under DEBUG, so the page would
    differ between a laptop and the club."""
    options["undefined"] = jinja2.ChainableUndefined
    options["extensions"] = [*options.get("extensions", ()), "jinja2.ext.i18n"]
    env = _Environment(**options)
    # Its words in the reader's language (issue 82): Django's catalogs, the language the
    # request (or the push, games.play.events) activated. New-style: ``_("%(n)s cards",
    # n=3)`` formats and escapes its values.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(
        card=cards.card,
        cards=cards.cards,
        hand_cards=cards.hand_cards,
        card_back=cards.card_back,
        log_entries=cards.log_entries,
        game_and_deal=cards.game_and_deal,
        pluralize=pluralize,
    )
    return env


@lru_cache(maxsize=8)
def _template(name: str) -> jinja2.Template:
    """Compiled once a process (the environment does not look at the file again)."""
    env: jinja2.Environment = engines["jinja2"].env  # type: ignore[attr-defined]
    return env.get_template(name)


def render(name: str, context: dict[str, Any]) -> SafeString:
    """``name`` rendered with ``context``: markup, escaped as it was rendered."""
    return mark_safe(_template(name).render(context))
