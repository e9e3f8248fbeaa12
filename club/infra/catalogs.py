"""The translation catalogs (issue 82): gathered by Django's makemessages, compiled with
Babel (no GNU gettext needed to compile), and checked whole.

    python -m club.infra.catalogs gather es    # every marked string into the .po files
    python -m club.infra.catalogs compile      # each .po into its .mo, beside it
    python -m club.infra.catalogs check        # untranslated, fuzzy or stale: listed

``make messages`` runs the first two. The catalogs and their compiled .mo files are
committed; ``tests/foundation/test_catalogs.py`` runs the checks in the suite.

The live part of a table is a Jinja2 template (games/play/live_template.py); makemessages
reads Django's templates only, so the Jinja2 templates are gathered by Babel's Jinja2
extractor and merged into the same catalog.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BASE = Path(__file__).resolve().parents[2]
LOCALE = BASE / "club" / "locale"
DOMAIN = "django"
# What makemessages reads: the code and the Django templates; not the tests, the virtual
# environment, collected static files or the Jinja2 templates (Babel reads those).
IGNORED = [".venv/*", "tests/*", "staticfiles/*", "templates/jinja2/*", "docs/*", ".run/*"]
EXTENSIONS = ["html", "txt", "py"]


def catalogs() -> list[Path]:
    return sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def gather(languages: list[str], *, root: Path = BASE) -> None:
    """Every marked string under ``root`` into ``root``'s catalogs (makemessages: needs
    GNU gettext's xgettext and msgmerge)."""
    if shutil.which("xgettext") is None:
        raise SystemExit("makemessages needs GNU gettext: apt-get install gettext")
    command = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--no-wrap"]
    command += ["--add-location=file", "--keep-pot"]
    command += [f"--ignore={p}" for p in IGNORED] + [f"--extension={e}" for e in EXTENSIONS]
    command += [f"--locale={lang}" for lang in languages]
    pos = [root / "club" / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po" for lang in languages]
    # makemessages merges each catalog with the Django templates' and the code's strings
    # alone, dropping the Jinja2 templates' translations: each is merged again from the
    # catalog as it was, with every string.
    kept = {po: po.read_bytes() for po in pos if po.exists()}
    subprocess.run(command, cwd=root, check=True)
    pot = root / "club" / "locale" / f"{DOMAIN}.pot"
    _add_jinja2(root, pot)
    for po in pos:
        if po in kept:
            po.write_bytes(kept[po])
        subprocess.run(
            ["msgmerge", "--quiet", "--update", "--no-wrap", "--backup=none", str(po), str(pot)],
            check=True,
        )
        subprocess.run(
            ["msgattrib", "--no-obsolete", "--no-wrap", "-o", str(po), str(po)], check=True
        )
    pot.unlink()


def _add_jinja2(root: Path, pot: Path) -> None:
    """The Jinja2 templates' strings, gathered by Babel, added to the template catalog."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po, write_po

    # makemessages leaves the template's plural rule a placeholder, which Babel refuses.
    text = pot.read_bytes().replace(
        b"nplurals=INTEGER; plural=EXPRESSION;", b"nplurals=2; plural=(n != 1);"
    )
    template = read_po(io.BytesIO(text))
    method_map = [("**.html", "jinja2")]
    options = {"**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "false"}}
    folder = root / "templates" / "jinja2"
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(folder), method_map, options
    ):
        template.add(message, locations=[(f"templates/jinja2/{filename}", lineno)], context=context)
    with pot.open("wb") as f:
        write_po(f, template, width=0, omit_header=False)


def compile_all() -> list[Path]:
    """Each catalog compiled to its .mo, beside it (fuzzy entries left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo

    made = []
    for po in catalogs():
        mo = po.with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, _read(po))
        made.append(mo)
    return made


def _read(po: Path):  # type: ignore[no-untyped-def]
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        return read_po(f, locale=po.parent.parent.name)


def problems(po: Path) -> list[str]:
    """What is wrong with one catalog: entries untranslated or fuzzy, a placeholder the
    translation lacks or invents, a compiled .mo that is not this .po's."""
    from babel.messages.mofile import write_mo

    catalog = _read(po)
    found = []
    for message in catalog:
        if not message.id:
            continue
        said = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            found.append(f"{po}: fuzzy: {said!r}")
        if not all(strings):
            found.append(f"{po}: untranslated: {said!r}")
        for error in message.check(catalog):
            found.append(f"{po}: {said!r}: {error}")
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != fresh.getvalue():
        found.append(f"{mo}: not compiled from {po.name} as it is (make messages)")
    return found


def missing(languages: list[str]) -> list[str]:
    """Marked strings the committed catalogs lack: makemessages run on a copy of the
    house, its catalogs compared with these."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "house"
        shutil.copytree(
            BASE,
            root,
            ignore=shutil.ignore_patterns(
                ".git", ".venv", ".run", "staticfiles", "node_modules", "*.pyc", "__pycache__"
            ),
        )
        gather(languages, root=root)
        found = []
        for lang in languages:
            ours = _ids(LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po")
            theirs = _ids(root / "club" / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po")
            found += [f"{lang}: not in the catalog: {m!r}" for m in sorted(theirs.keys() - ours)]
            found += [
                f"{lang}: no longer marked anywhere: {m!r}" for m in sorted(ours.keys() - theirs)
            ]
            # and gathering loses no translation (makemessages alone dropped the Jinja2
            # templates' ones: they came back fuzzy or empty)
            found += [
                f"{lang}: gathering changes the translation of {m!r}"
                for m in sorted(ours.keys() & theirs.keys())
                if ours[m] != theirs[m]
            ]
        return found


def _ids(po: Path) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """Each entry's key (its context and id) and what it holds: fuzzy or not, and its
    translations."""
    return {
        (f"{m.context}\x04" if m.context else "") + (m.id if isinstance(m.id, str) else m.id[0]): (
            m.fuzzy,
            m.string if isinstance(m.string, tuple) else (m.string,),
        )
        for m in _read(po)
        if m.id
    }


def main(argv: list[str]) -> int:
    import django

    django.setup()
    what, *rest = argv or ["check"]
    if what == "gather":
        gather(rest or ["es"])
    elif what == "compile":
        for mo in compile_all():
            print(f"compiled {mo.relative_to(BASE)}")
    elif what == "check":
        found = [p for po in catalogs() for p in problems(po)]
        print("\n".join(found) or "the catalogs are whole")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    sys.exit(main(sys.argv[1:]))
