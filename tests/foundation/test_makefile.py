"""The Makefile finds a working Python 3.12+ and says clearly when there is none."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def find_python_snippet() -> str:
    out = subprocess.run(
        ["make", "-s", "-f", "Makefile", "--eval", "print-finder: ; @echo \"$$FIND_PYTHON\"",
         "print-finder"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout


def test_it_finds_a_python_that_runs_and_is_3_12_or_newer() -> None:
    r = subprocess.run(["bash", "-c", find_python_snippet()], capture_output=True, text=True)
    assert r.returncode == 0
    exe = r.stdout.strip()
    v = subprocess.run([exe, "-c", "import sys; print(sys.version_info[:2] >= (3, 12))"],
                       capture_output=True, text=True)  # fmt: skip
    assert v.stdout.strip() == "True"


def test_it_skips_a_python_that_is_too_old(tmp_path: Path) -> None:
    old = tmp_path / "python3"
    old.write_text("#!/bin/sh\nexit 1\n")  # a shim that fails, like a bare pyenv shim
    old.chmod(0o755)
    r = subprocess.run(
        ["env", "-i", f"PATH={tmp_path}", f"HOME={tmp_path}", "/bin/bash", "-c",
         find_python_snippet()],
        capture_output=True, text=True,
    )  # fmt: skip
    assert r.returncode == 1 and r.stdout.strip() == ""


def test_make_install_says_clearly_when_there_is_none(tmp_path: Path) -> None:
    """Only Debian's 3.11 on PATH and no pyenv: `make install` stops with the message."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    r = subprocess.run(
        ["make", "install"], cwd=tmp_path, capture_output=True, text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHON": ""},
    )  # fmt: skip
    assert r.returncode != 0
    assert "no working Python 3.12+ found" in r.stderr
    assert not (tmp_path / ".venv").exists()
