"""Every password the repository gives away (issue 78): the strings its code and docs
assign to something named like a password, and the words its Markdown shows in
backquotes, where a README once published the demo's."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ASSIGNED = re.compile(
    r"""(?i)(?:password\w*|passwd|secret|PUBLISHED)["']?\s*[:=,]\s*(?:PASSWORD\s*=\s*)?["']([^"'\n]{2,80})["']"""
)
KINDS = ("*.py", "*.md", "*.html", "*.yml", "*.txt", "Makefile")


def repository_passwords(backquoted: tuple[str, ...] = ("*.md",)) -> set[str]:
    """Keyword arguments and dictionary entries named like a password, PASSWORD
    constants, in every file of the repository; and the words in backquotes in the
    Markdown files ``backquoted`` names (git pathspecs: ``("README.md",)`` for the page a
    visitor reads first)."""
    files = _listed(KINDS)
    found: set[str] = set()
    for name in files:
        found.update(ASSIGNED.findall((ROOT / name).read_text(errors="replace")))
    for name in _listed(backquoted):
        text = (ROOT / name).read_text(errors="replace")
        found.update(re.findall(r"`([^`\s]{6,40})`", text))
    return found


def _listed(patterns: tuple[str, ...]) -> list[str]:
    return subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
