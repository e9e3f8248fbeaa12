"""What a page says, read as a Spanish reader reads it (issue 82, item 5): its text nodes,
its ``aria-label``s, ``title``s, ``placeholder``s and ``alt``s, each checked for an English
sentence left over. English is told by its little words ("the", "of", "your", ...), none
of which Spanish uses; names, numbers, codes and card symbols pass."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# English words no Spanish sentence has ("a", "no", "me", "he", "has", "son" are Spanish too).
ENGLISH = frozenset(
    [
        "the",
        "and",
        "of",
        "to",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "your",
        "you",
        "with",
        "for",
        "this",
        "that",
        "from",
        "have",
        "not",
        "will",
        "by",
        "or",
        "at",
        "it",
        "its",
        "an",
        "what",
        "who",
        "which",
        "when",
        "there",
        "their",
        "on",
        "in",
        "after",
        "before",
        "here",
        "nothing",
        "all",
        "each",
        "one",
        "than",
        "then",
        "them",
        "they",
        "we",
        "our",
        "us",
        "if",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "may",
        "must",
        "any",
        "some",
        "into",
        "only",
        "also",
        "more",
        "most",
    ]
)
SAID_ATTRIBUTES = (
    "aria-label",
    "title",
    "placeholder",
    "alt",
    "data-label",
)  # data-label: a phone shows it
# A word: letters alone, not a law's code ("TO8", "CO1") nor a code in capitals ("IN").
WORD = re.compile(r"\b[a-zà-ÿ][A-Za-zÀ-ÿ']*\b|\b[A-Z][a-zà-ÿ'][A-Za-zÀ-ÿ']*\b")
# A time zone's own name ("America/Port of Spain", "US/Pacific") is a name, not a sentence.
ZONE = re.compile(r"^[A-Z][A-Za-z_-]*(?:/[A-Z][A-Za-z _-]*)+$")


class _Said(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.said: list[str] = []
        self._skip = 0
        # An element marked as in another language (lang="en-GB": the books' stored
        # words, kept as written) is read as that language, not as Spanish left over.
        self._other: list[str] = []  # the tag of each open element so marked
        self._depth = 0  # open elements of the innermost marked one's tag, itself included

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code", "template"):
            self._skip += 1
        lang = dict(attrs).get("lang")
        if self._other and tag == self._other[-1]:
            self._depth += 1
        elif lang and not lang.lower().startswith("es") and tag != "html":
            self._other.append(tag)
            self._depth = 1
        if self._other:
            return
        for name, value in attrs:
            if name in SAID_ATTRIBUTES and value:
                self.said.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "template") and self._skip:
            self._skip -= 1
        if self._other and tag == self._other[-1]:
            self._depth -= 1
            if self._depth == 0:
                self._other.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and not self._other and data.strip():
            self.said.append(" ".join(data.split()))


def said(html: str) -> list[str]:
    """Everything a reader reads or hears of ``html``."""
    parser = _Said()
    parser.feed(html)
    return parser.said


def english_left(html: str) -> list[str]:
    """The pieces of ``html`` that read as English."""
    return [
        text
        for text in said(html)
        if not ZONE.match(text) and any(w.lower() in ENGLISH for w in WORD.findall(text))
    ]
