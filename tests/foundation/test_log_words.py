"""Nothing reads the log's words back (issue 39): the log is records, and its words are
made in one place, games/engine/words.py. Every other Python module of club/ and games/
is scanned: none reads a log entry's ``"text"`` (a subscript or ``.get``), and none holds
a string that begins like one of the log's sentences (what ``startswith`` tests on the
words looked like: 25 of them in the computer players before)."""

from __future__ import annotations

import ast
from pathlib import Path

from games.engine.records import Kind, Record
from games.engine.words import sentence

from .test_no_game_names import _docstrings

ROOT = Path(__file__).resolve().parents[2]
PRESENTER = {"games/engine/words.py", "games/engine/records.py"}
# Functions that draw the log's entries as HTML, as the template's loop did before them
# (issue 59): they show the words, they do not read meaning from them.
DISPLAY = {"games/templatetags/cards.py": {"log_entries"}}

# Each kind's sentence, made from a record with whatever it may name.
SAMPLE = Record(0, Kind.DEAL, "L0", ("7C", "8C"), combination=1, number=2, borrowed=("9C",))
OPENINGS = {
    opening
    for k in Kind
    if not (opening := " ".join(sentence(SAMPLE._replace(kind=k)).split()[:2])).startswith("the ")
} - {"is out"}  # words too common to tell a sentence by ("the pack is empty": an error)


def _describes(tree: ast.AST) -> set[int]:
    """The constants of actions' ``describe()``: the words of the list of plays, not of
    the log (still made by each action: the next step of issue 39 moves them here)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "describe":
            ids |= {id(n) for n in ast.walk(node) if isinstance(n, ast.Constant)}
        if isinstance(node, ast.ClassDef):  # a bare action's verb, its describe()
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and getattr(stmt.target, "id", "") == "verb":
                    ids |= {id(n) for n in ast.walk(stmt) if isinstance(n, ast.Constant)}
    return ids


def _findings(path: Path, display: set[str] | None = None) -> list[str]:
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree) | _describes(tree)
    shown = {
        id(n)
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef) and f.name in (display or set())
        for n in ast.walk(f)
    }
    out = []
    for node in ast.walk(tree):
        if id(node) in shown:
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if node.slice.value == "text" and isinstance(node.ctx, ast.Load):
                out.append(f'{node.lineno}: reads ["text"]')
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            args = node.args
            first = args[0] if args else None
            if (
                node.func.attr == "get"
                and isinstance(first, ast.Constant)
                and first.value == "text"
            ):
                out.append(f'{node.lineno}: reads .get("text")')
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and any(node.value.startswith(o) for o in OPENINGS)
        ):
            out.append(f"{node.lineno}: {node.value!r} begins like a log sentence")
    return out


def test_the_openings_are_the_log_sentences() -> None:
    assert {"lays out", "discards 7C", "draws 7C", "refuses the", "takes back"} <= OPENINGS


def test_no_module_reads_the_log_words_back() -> None:
    found = []
    for path in sorted([*ROOT.glob("games/**/*.py"), *ROOT.glob("club/**/*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel in PRESENTER or "/migrations/" in rel:
            continue
        found += [f"{rel}:{f}" for f in _findings(path, DISPLAY.get(rel))]
    assert not found, "\n".join(found)
