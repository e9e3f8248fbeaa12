"""How much random play a property test does: ``TEST_SCALE`` (default 1) times its count.

``make test`` runs every property at half its count (``TEST_SCALE=0.5``), ``make
test-long`` at its full count, ``make test-fast`` at a fifth, for the loop while working:
the same checks on fewer random deals (issue 55). A test run alone runs the full count."""

from __future__ import annotations

import os


def scaled(n: int) -> int:
    """``n`` times ``TEST_SCALE``, at least 1."""
    return max(1, round(n * float(os.environ.get("TEST_SCALE", "1"))))
