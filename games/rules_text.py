"""The laws of each variant, in our own words, with their numbers (Foster 1913 and others).

The text lives on each game in the engine's registry (``games.engine.variant``,
``Variant.laws``); this module keeps the shape the rules pages read until they read the
registry themselves.
"""

from __future__ import annotations

from games.engine.variant import VARIANTS

LAWS: dict[str, list[tuple[str, str]]] = {
    name: [(law.number, law.text) for law in variant.laws] for name, variant in VARIANTS.items()
}
