"""The computer players touch no private field of the engine (issue 39).

They build a state to sample hidden cards with the engine's ``DealState.from_view``
(games/engine/from_view.py), where they once dealt a throw-away deal and set its private
fields by name. This scans every module of games/bots/: no ``setattr`` (nor ``getattr``
or ``delattr``), and no
attribute beginning with an underscore read or written on anything but ``self`` or
``cls`` (the players' own helpers).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def private_reaches(source: str) -> list[str]:
    """Each ``setattr`` (``getattr``, ``delattr``) call and each ``x._name`` with ``x`` not ``self``/``cls``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        call = node.func if isinstance(node, ast.Call) else None
        if isinstance(call, ast.Name) and call.id in ("setattr", "getattr", "delattr"):
            found.append(f"line {node.lineno}: {call.id}")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            if node.attr.startswith("__") and node.attr.endswith("__"):
                continue  # dunders (__class__, __name__) are no one's private field
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            found.append(f"line {node.lineno}: .{node.attr}")
    return found


def test_the_scan_sees_what_the_old_determinisation_did() -> None:
    old = "d = new_deal(rules, 2, 0)\nsetattr(d, '_cnt', cnt)\nd._log = []\nx = self._say\n"
    assert private_reaches(old) == ["line 2: setattr", "line 3: ._log"]


def test_no_computer_player_reaches_into_an_engine_state() -> None:
    bad = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "games" / "bots").rglob("*.py"))
        if (found := private_reaches(path.read_text()))
    }
    assert bad == {}
