"""The suite waits on conditions, not on the clock: outside a polling loop (which checks
a condition against a deadline), no test sleeps for a fixed time before it looks. A wait
long enough on one machine is too short on a busy one."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WAITS = {"sleep", "wait_for_timeout"}


def _is_wait(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in WAITS


def fixed_waits(source: str) -> list[int]:
    """Line numbers of waits that are not inside a loop.

    >>> fixed_waits("import time\\ntime.sleep(1)\\nassert done()\\n")
    [2]
    >>> fixed_waits("while not done():\\n    time.sleep(0.1)\\nassert done()\\n")
    []
    """
    found: list[int] = []

    def visit(node: ast.AST, in_loop: bool) -> None:
        if _is_wait(node) and not in_loop:
            found.append(node.lineno)  # type: ignore[attr-defined]
        looping = in_loop or isinstance(node, ast.While | ast.For)
        for child in ast.iter_child_nodes(node):
            # A function defined inside a loop does not run in it.
            visit(child, looping and not isinstance(child, ast.FunctionDef | ast.Lambda))

    visit(ast.parse(source), False)
    # A delay that chooses a moment (when the power goes, tests/reliability/
    # test_power_cut.py) is not a wait for a condition; its line says so.
    lines = source.splitlines()
    return [n for n in found if "# a moment, not a wait" not in lines[n - 1]]


def test_no_test_sleeps_a_fixed_time_outside_a_polling_loop() -> None:
    files = [*(ROOT / "tests").rglob("test_*.py"), *(ROOT / "tests").rglob("conftest.py")]
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(files)
        for line in fixed_waits(path.read_text())
    ]
    assert offenders == [], "wait on a condition with a deadline instead"


def waits_in(source: str) -> list[int]:
    """Line numbers of every sleep or timed wait, in a loop or not.

    >>> waits_in("while not done():\\n    page.wait_for_timeout(50)\\n")
    [2]
    """
    return [n.lineno for n in ast.walk(ast.parse(source)) if _is_wait(n)]  # type: ignore[attr-defined]


def test_browser_tests_wait_through_one_helper() -> None:
    """Issue 77: a browser test waits for a state the page shows (through Playwright) or
    one only the servers know (``tests/e2e/waits.py``: ``until``, a condition polled with
    a deadline, which names what it waited for). A loop of its own around a sleep hid
    what it waited for, and how long."""
    e2e = ROOT / "tests" / "e2e"
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(e2e.rglob("*.py"))
        if path.name != "waits.py" and "artifacts" not in path.parts
        for line in waits_in(path.read_text())
    ]
    assert offenders == [], "wait through tests/e2e/waits.py (until) or Playwright's waits"
