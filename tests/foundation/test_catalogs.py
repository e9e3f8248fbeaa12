"""The translation catalogs kept whole (issue 82, item 5): no entry untranslated or
fuzzy, no placeholder lost, each .mo compiled from its .po as it stands, and no marked
string that `make messages` would add (makemessages run on a copy of the house)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from club.infra import catalogs


def test_there_is_a_spanish_catalog() -> None:
    assert [p.parent.parent.name for p in catalogs.catalogs()] == ["es"]


@pytest.mark.parametrize("po", catalogs.catalogs(), ids=lambda p: p.parent.parent.name)
def test_every_entry_is_translated_and_compiled(po: Path) -> None:
    assert catalogs.problems(po) == []


def test_a_fuzzy_or_empty_entry_or_a_stale_mo_is_found(tmp_path: Path) -> None:
    """The check itself, on a copy of the catalog spoiled three ways."""
    po = tmp_path / "es" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    text = (catalogs.LOCALE / "es" / "LC_MESSAGES" / "django.po").read_text()
    text = text.replace('msgstr "Veladas"', 'msgstr ""', 1)
    text = text.replace('msgid "Standings"', '#, fuzzy\nmsgid "Standings"', 1)
    po.write_text(text)
    shutil.copy(catalogs.LOCALE / "es" / "LC_MESSAGES" / "django.mo", po.with_suffix(".mo"))
    found = catalogs.problems(po)
    assert any("untranslated: 'Evenings'" in f for f in found)
    assert any("fuzzy: 'Standings'" in f for f in found)
    assert any("not compiled from django.po" in f for f in found)


def test_no_marked_string_is_missing_from_the_catalogs() -> None:
    """makemessages needs GNU gettext's xgettext (`make tools` installs it)."""
    assert shutil.which("xgettext"), "install GNU gettext (make tools) to check the catalogs"
    assert catalogs.missing(["es"]) == []
