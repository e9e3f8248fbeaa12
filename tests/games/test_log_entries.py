"""The log's entries drawn by a tag rather than a template loop (issue 59: half the live
region's render time late in a deal): the same markup, escaped the same way."""

from __future__ import annotations

from django.template import Context, Template

LOOP = Template(
    "{% for e in log %}"
    '<li>{% if e.name %}<strong>{{ e.name }}</strong> {% endif %}{{ e.text }}{% if e.law %} <span class="law">({{ e.law }})</span>{% endif %}</li>'
    "{% endfor %}"
)  # fmt: skip
TAG = Template("{% load cards %}{% log_entries log %}")

ENTRIES = [
    {"name": "O'Brien <b>", "text": "draws the queen of diamonds & more", "law": "L11", "seat": 0},
    {"name": None, "text": "the pack is turned over", "law": "L25", "seat": None},
    {"name": "Ann", "text": 'says "no" to <script>', "law": None, "seat": 1},
    {"name": "", "text": "a tableau", "law": "max turnovers", "seat": None},
    {"name": "Bob", "text": "passes", "law": 14, "seat": 2},
]


def test_the_tag_draws_the_log_as_the_loop_did() -> None:
    loop = LOOP.render(Context({"log": ENTRIES}))
    # the tag's entries as presenters._log gives them: (who, what, under which law)
    tag = TAG.render(Context({"log": [(e["name"], e["text"], e["law"]) for e in ENTRIES]}))
    assert tag.replace("\n      ", "") == loop
    assert "&lt;script&gt;" in tag and "O&#x27;Brien &lt;b&gt;" in tag and "&amp; more" in tag
    assert TAG.render(Context({"log": []})) == ""
