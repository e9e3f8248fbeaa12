"""One word for each thing (issue 79, item 6).

- Each game has one name on every page and menu: the registry's ``display_name``, with
  its one short ``description`` where a choice of game is offered. A page that named
  a game any other way ("Foster (4–7 players, double pack)" on the console, "Cooncan for
  four to seven" on the rules page, "Foster, three players") fails here.
- A user meets an "evening", never a "session".
- No sentence guesses a member's sex: their name, or "they".
"""

from __future__ import annotations

import ast
import html
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, HouseRules, Member, Table
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from games.engine.variant import VARIANTS

ROOT = Path(__file__).resolve().parents[2]

# What the pages called the games before issue 79: each must be gone.
OLD_NAMES = (
    "Foster (4",
    "Foster, three players",
    "Cooncan for four to seven",
    "Conquian for two",
    "Conquián (two players)",
    "Colonel (two players)",
    "Tonk (two to five players)",
    "Tunk (two to five players)",
    "Colonel (two-handed",
)


def _text(body: str) -> str:
    """A page's words: its text nodes and the labels a screen reader says."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', body))
    return html.unescape(re.sub(r"<[^>]+>", " ", body) + " " + labels)


@pytest.fixture
def pages(staff: Client, secretary: Member, make_members) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Every page where a game is named or chosen, with a table of every game at an open
    evening, as the secretary sees them."""
    session = open_session(stake=Decimal("0.05"), by=secretary.user, name="Friday")
    tables = []
    for name, v in VARIANTS.items():
        members = make_members(v.seats.low, prefix=name[:3])
        for m in members:
            check_in(session, m)
        tables.append(form_table(session, variant=name, size=v.seats.low, mode=Table.PHYSICAL))
    HouseRules.objects.create(name="Our Tonk", variant="tonk", options={})
    urls = {
        "home": reverse("home"),
        "evenings": reverse("club:sessions"),
        "console": reverse("club:console", args=[session.pk]),
        "evening": reverse("club:session", args=[session.pk]),
        "print": reverse("club:session_print", args=[session.pk]),
        "house rules": reverse("club:house_rules"),
        "rules": reverse("games:rules"),
        **{f"rules of {n}": reverse("games:rules_variant", args=[n]) for n in VARIANTS},
        **{f"table {t.number}": reverse("club:table", args=[t.pk]) for t in tables},
    }
    out = {}
    for what, url in urls.items():
        r = staff.get(url)
        assert r.status_code == 200, (what, r.status_code)
        out[what] = r.content.decode()
    return out


@pytest.mark.django_db
def test_each_game_has_one_name_on_every_page(pages: dict[str, str]) -> None:
    named: dict[str, set[str]] = {n: set() for n in VARIANTS}
    for what, body in pages.items():
        words = _text(body)
        for old in OLD_NAMES:
            assert old not in words, (what, old)
        # the name with its description is what a choice of game says, and only that: a
        # sentence or a heading says the name ("· game Cooncan", not "· default Cooncan:
        # four to seven players, double pack")
        outside = _text(re.sub(r"<option\b.*?</option>", " ", body, flags=re.S))
        for v in VARIANTS.values():
            assert v.club_label not in outside, (what, v.club_label)
        # every choice of a game: the option's words are its name and description
        for field, options in re.findall(
            r'<select[^>]*name="(\w+)"[^>]*>(.*?)</select>', body, re.S
        ):
            if "variant" not in field:
                continue
            for value, said in re.findall(r'<option value="([\w-]+)"[^>]*>([^<]*)<', options):
                named[value].add(html.unescape(said).partition(":")[0].strip())
        # the rules' list of games, and every "Rules of ..." link
        for slug, said in re.findall(r'href="/rules/([\w-]+)/[^"]*"[^>]*>([^<]*)<', body):
            said = html.unescape(said).strip()
            if what == "rules" or said.startswith("Rules of "):
                named[slug].add(said.removeprefix("Rules of "))
    for table in Table.objects.all():
        badge = f'<span class="badge">{html.escape(VARIANTS[table.variant].display_name)}</span>'
        assert badge in pages[f"table {table.number}"]
        assert html.escape(VARIANTS[table.variant].display_name) in pages["console"]
    for n, v in VARIANTS.items():
        # the rules page's heading and the registry's one description
        assert f"<h1>{html.escape(v.display_name)}</h1>" in pages[f"rules of {n}"]
        assert named[n] == {v.display_name}, (n, named[n])
    # the names are all different
    assert len({v.display_name for v in VARIANTS.values()}) == len(VARIANTS)


@pytest.mark.django_db
def test_a_user_meets_evenings_never_sessions(pages: dict[str, str]) -> None:
    for what, body in pages.items():
        assert not re.search(r"\b[Ss]essions?\b", _text(body)), (
            what,
            re.findall(r".{0,40}\b[Ss]essions?\b.{0,40}", _text(body), re.S),
        )
    assert str(ClubSession(opened_at=ClubSession.objects.get().opened_at)).startswith("Evening of ")


# Strings a user may read: Python string constants in club/ and games/ (docstrings and
# migrations aside; the laws' digests included, as the rules pages show them) and every
# template.
_GUESS = re.compile(r"\b(he|him|his|himself)\b", re.I)


def _said_in_python() -> list[str]:
    found = []
    for base in ("club", "games"):
        for path in sorted((ROOT / base).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text())
            skip: set[int] = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
                    first = node.body[0] if node.body else None
                    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                        skip.add(id(first.value))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in skip
                    and _GUESS.search(node.value)
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:80]}")
    return found


def _said_in_templates() -> list[str]:
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", path.read_text(), flags=re.S)
        for match in _GUESS.finditer(_text(text)):
            found.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    return found


def test_no_sentence_guesses_a_members_sex() -> None:
    assert _said_in_python() == []
    assert _said_in_templates() == []
