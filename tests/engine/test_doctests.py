"""Run the docstring examples of the engine modules (ours; conquian runs its own)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["actions", "cards", "cli", "combinations", "deal", "errors", "foster", "generate",
           "moves", "protocol", "replay", "rules", "scoring", "validate", "views", "__init__"]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(
        "games.engine" if name == "__init__" else f"games.engine.{name}"
    )
    result = doctest.testmod(module)
    assert result.failed == 0
