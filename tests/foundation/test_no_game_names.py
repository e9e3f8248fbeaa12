"""No layer spells a game's name: each asks the engine's registry (issue 26).

The string constants of every Python module in club/ and games/ (docstrings aside) and
every template are scanned for the name of any registered game. Allowed: the modules
that define a game (each game's own engine module), the engine's registry and tests of
it, and migrations (a record of what was). The computer players ask the variant's
capabilities (games/bots/base.py: caps) since issue 39.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from games.engine.variant import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
# The modules that define today's games (their engine code, action types and scoring),
# and the registry's one line per built-in game's module or package.
GAME_MODULES = {"games/engine/variant.py"}
# Each game family is one package of the engine (Tonk, issue 40; Tunk, issue 41; the rummy
# family and Conquián, issue 54): it is allowed its whole package.
ALLOWED_DIRS = (
    "club/migrations/",
    "games/migrations/",
    "games/engine/rummy/",
    "games/engine/conquian/",
    "games/engine/tonk/",
    "games/engine/tunk/",
)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _pattern() -> re.Pattern[str]:
    names = sorted(VARIANTS, key=len, reverse=True)
    # a whole name: not part of a longer word or name ("foster" in "foster-three" counts
    # as foster-three; "Foster's" in prose is a capitalised word, not a name)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")


def scanned() -> list[Path]:
    out = []
    for base in ("club", "games"):
        for path in sorted((ROOT / base).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in GAME_MODULES or rel.startswith(ALLOWED_DIRS):
                continue
            out.append(path)
    return out


def test_no_module_outside_a_game_spells_a_games_name() -> None:
    pattern = _pattern()
    found = []
    for path in scanned():
        tree = ast.parse(path.read_text(), filename=str(path))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
                and pattern.search(node.value)
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not found, "game names outside the games:\n" + "\n".join(found)


def test_no_template_spells_a_games_name() -> None:
    pattern = _pattern()
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not found, "game names in templates:\n" + "\n".join(found)


def test_the_scan_finds_a_name_where_one_is_spelled() -> None:
    """The scanner itself: it sees names in code, not in prose or longer words."""
    pattern = _pattern()
    assert pattern.search('variant == "conquian"') and pattern.search("foster-three")
    assert pattern.search("foster-three").group(1) == "foster-three"  # type: ignore[union-attr]
    assert not pattern.search("Foster's laws") and not pattern.search("conquian_why")
