"""Cards drawn as cards: rank and suit symbol, red or black, with an accessible name."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from games.engine.variant import find_variant
from games.engine.words import speaking
from games.play.presenters import CardFace, face, reader

register = template.Library()


def _inner(f: CardFace) -> SafeString:
    named = ""
    if f.named:
        n = face(f.named)
        named = format_html('<span class="as" aria-hidden="true">{}{}</span>', n.rank, n.suit)
    return format_html(
        '<span class="corner" aria-hidden="true">{}<br>{}</span>'
        '<span class="pip" aria-hidden="true">{}</span>{}',
        f.rank,
        f.suit,
        f.suit or "★",
        named,
    )


def _classes(f: CardFace, extra: str = "") -> str:
    cls = ["card"]
    cls.append("red" if f.red else "black")
    if f.code == "JK":
        cls.append("joker")
    if f.named:
        cls.append("wild")
    if f.crossways:
        cls.append("crossways")
    if extra:
        cls.append(extra)
    return " ".join(cls)


@register.simple_tag
def card(f: CardFace | str, extra: str = "") -> SafeString:
    """A card on the table (not selectable)."""
    return _card(face(f) if isinstance(f, str) else f, extra)


# A face's markup never changes: every page draws the same 53 cards, so render each once.
@lru_cache(maxsize=2048)
def _card(f: CardFace, extra: str) -> SafeString:
    return format_html(
        '<span class="{}" role="img" aria-label="{}" data-card="{}">{}</span>',
        _classes(f, extra),
        f.label,
        f.code,
        _inner(f),
    )


@register.simple_tag
def cards(faces: list[CardFace], extra: str = "") -> SafeString:
    """Cards on the table side by side: one tag for a combination's cards, not a loop of
    ``card`` tags (the template's loops were most of a render's time, issue 59)."""
    return mark_safe("".join(_card(f, extra) for f in faces))  # each made by format_html


@register.simple_tag
def hand_cards(faces: list[CardFace]) -> SafeString:
    """The viewer's hand, each card a toggle button (:func:`hand_card`)."""
    return mark_safe("".join(_hand_card(f) for f in faces))  # each made by format_html


@register.simple_tag
def hand_card(f: CardFace) -> SafeString:
    """A card in the viewer's hand: a toggle button (aria-pressed) that can be reordered."""
    return _hand_card(f)


@lru_cache(maxsize=256)
def _hand_card(f: CardFace) -> SafeString:
    return format_html(
        '<button type="button" class="{}" aria-pressed="false" aria-label="{}" data-card="{}" '
        'data-suit="{}" data-rank="{}" draggable="true">{}</button>',
        _classes(f, "in-hand"),
        f.label,
        f.code,
        f.order_suit,
        f.order_rank,
        _inner(f),
    )


@register.simple_tag
def card_back(count: int, label: str = "") -> SafeString:
    said = ngettext(
        "%(what)s, %(count)s card face down", "%(what)s, %(count)s cards face down", count
    ) % {"what": label or gettext("the pack"), "count": count}
    return format_html(
        '<span class="card back" role="img" aria-label="{}"><span class="count">{}</span></span>',
        said,
        count,
    )


@register.simple_tag
def log_entries(entries: list[tuple[Any, str, Any]]) -> SafeString:
    """The log's entries (who, what, under which law: ``presenters._log``) as list items.
    Built here rather than in a template loop: the log is the longest part of every
    render of a table (60 entries late in a deal, half the template's time, issue 59)."""
    return mark_safe("\n      ".join(_log_item(*e) for e in entries))


# Each entry's item made once a process: a render draws the last 60 entries of the log,
# nearly all of them drawn by the render before (issue 59).
@lru_cache(maxsize=16384)
def _log_item(name: Any, text: Any, law: Any) -> str:
    """One entry as a list item, every part escaped (as Django's escape() does, with
    html.escape, without its lazy wrapper)."""
    who = f"<strong>{escape(str(name))}</strong> " if name else ""
    cited = f' <span class="law">({escape(str(law))})</span>' if law else ""
    return f"<li>{who}{escape(str(text))}{cited}</li>"


@register.filter
def game_and_deal(deal: Any) -> str:
    """Where a deal (or a table: its next deal) stands in its game, as that game counts
    (:meth:`Variant.game_and_deal`)."""
    players = getattr(deal, "players", None) or getattr(deal, "size", 0)
    with speaking(reader()):
        return find_variant(deal.variant).game_and_deal(
            int(deal.game_number),
            int(deal.deal_in_game),
            int(players),
            getattr(deal, "options", None),
        )
