"""Run chosen tests N times in a row and say which failed in each run (issue 77).

``python -m tests.repeat N PYTEST_ARGS...`` runs pytest with PYTEST_ARGS N times, one
after another, on the services the caller gives (``make test-repeat`` starts them once,
through ``tests.services``, as ``make test`` does). Each run's failures and errors are read
from its JUnit report, not its console: a line a run, then each test that failed with
the number of runs it failed in. Every run goes to its end (a failure does not stop the
next), and the exit status is 1 when any run failed.

A flaky test is one that fails now and then: run its file ten times here, on as many
workers as ``make test`` uses, before CI finds it one run in ten.
"""

from __future__ import annotations

import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / ".run" / "test-repeat"


def failures(report: Path) -> list[str]:
    """The ids of the tests a JUnit report records as failed or in error."""
    if not report.exists():
        return []
    bad = []
    for case in ET.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            # xunit1 reports name the file; a test in a class has its class last in
            # the dotted classname
            module = Path(case.get("file") or "").stem
            cls = (case.get("classname") or "").split(".")[-1]
            where = f"{case.get('file')}::{cls}" if cls and cls != module else case.get("file")
            bad.append(f"{where}::{case.get('name')}")
    return bad


def main(argv: list[str]) -> int:
    if not argv or not argv[0].isdigit() or int(argv[0]) < 1:
        print("usage: python -m tests.repeat N [PYTEST_ARGS...]  (N a whole number, 1 or more)")
        return 2
    runs, args = int(argv[0]), argv[1:]
    REPORTS.mkdir(parents=True, exist_ok=True)
    failed: Counter[str] = Counter()
    lines = []
    for i in range(1, runs + 1):
        report = REPORTS / f"run-{i}.xml"
        report.unlink(missing_ok=True)
        start = time.monotonic()
        code = subprocess.call(
            [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                f"--junitxml={report}",
                "-o",
                "junit_family=xunit1",
                *args,
            ],
            cwd=ROOT,
        )
        took = time.monotonic() - start
        bad = failures(report)
        failed.update(bad)
        if code not in (0, 1) and not bad:
            bad = [f"pytest ended with status {code} (no test failed: see its output above)"]
        verdict = "passed" if code == 0 else f"FAILED {len(bad)}"
        lines.append(f"run {i}/{runs}: {verdict} in {took:.0f} s")
        lines.extend(f"    {b}" for b in bad)
        print(f"\n== {lines[-1 - len(bad)]}", flush=True)
    print("\n== tests.repeat: " + " ".join(args))
    print("\n".join(lines))
    green = sum(1 for line in lines if line.startswith("run ") and "passed" in line)
    print(f"== {green} of {runs} runs green")
    for test, n in failed.most_common():
        print(f"   failed in {n} of {runs} runs: {test}")
    return 0 if green == runs else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
