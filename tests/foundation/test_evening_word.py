"""One word, one thing (issue 80, item 1): what a member reads as an evening is never called
a "session" on a page. The code calls it a club session (docs/architecture.md); a page's
words, its links' text and its titles say "evening" (the settlement said "The session is
open", the washbook linked to "Session"). Attributes, template tags and variables are code,
not words, and are left out."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}|<[^>]*>", re.S)


def words_said(template: str) -> str:
    """A template's text as a reader sees it: tags, variables and markup taken out."""
    return CODE.sub(" ", template)


def pages_saying_session(root: Path) -> list[str]:
    return [
        path.relative_to(root).as_posix()
        for path in sorted((root / "templates").rglob("*.html"))
        if re.search(r"\bsessions?\b", words_said(path.read_text(encoding="utf-8")), re.I)
    ]


def test_the_check_finds_a_page_saying_session(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "a.html").write_text(
        "<a href=\"{% url 'club:session' session.pk %}\">Session</a>"
    )
    (tmp_path / "templates" / "b.html").write_text(
        '<a href="{% url \'club:session\' session.pk %}" data-session="1">The evening</a>'
    )
    assert pages_saying_session(tmp_path) == ["templates/a.html"]


def test_no_page_calls_an_evening_a_session() -> None:
    assert pages_saying_session(ROOT) == []
