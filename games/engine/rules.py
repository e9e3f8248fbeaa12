"""Rules: a variant (one of the registry's games, :mod:`.variant`) and its options.

Where the sources disagree, the disagreement is an option here, never a silent choice
(see ``../shared/RULES.md``).

>>> r = make_rules("foster", splash=50)
>>> r.variant, r.opt("splash"), r.opt("ratting")
('foster', 50, 'free')
>>> make_rules("foster", splash=30)
Traceback (most recent call last):
...
games.engine.errors.InvalidActionError: option splash of foster must be one of 0, 25, 50, not 30
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .errors import InvalidActionError
from .variant import VARIANTS, OptionSpec, OptionValue, Variant, find_variant

__all__ = [
    "VARIANTS",
    "OptionSpec",
    "OptionValue",
    "Rules",
    "Variant",
    "make_rules",
    "parse_option_pairs",
]


@dataclass(frozen=True, slots=True)
class Rules:
    """A variant plus a value for each of its options (defaults filled in)."""

    variant: str
    options: tuple[tuple[str, OptionValue], ...] = field(default=())

    @property
    def spec(self) -> Variant:
        """The game these rules are of (from the registry)."""
        return find_variant(self.variant)

    def opt(self, name: str) -> OptionValue:
        for k, v in self.options:
            if k == name:
                return v
        raise InvalidActionError(f"{self.variant} has no option {name!r}")

    def to_json(self) -> dict[str, object]:
        return {"variant": self.variant, "options": dict(self.options)}


def make_rules(variant: str, options: Mapping[str, OptionValue] | None = None,
               **kw: OptionValue) -> Rules:  # fmt: skip
    """Validate ``options`` against the variant and fill in defaults."""
    spec = find_variant(variant)
    given = dict(options or {}) | kw
    values: list[tuple[str, OptionValue]] = []
    for o in spec.options:
        v = given.pop(o.name, o.default)
        # bool is an int subclass: compare types as well as values
        if not any(v == c and type(v) is type(c) for c in o.choices):
            allowed = ", ".join(str(c) for c in o.choices)
            raise InvalidActionError(
                f"option {o.name} of {variant} must be one of {allowed}, not {v!r}"
            )
        values.append((o.name, v))
    for o in spec.legacy_options:  # only where given: a deal dealt under an older rule
        if o.name in given:
            v = given.pop(o.name)
            if not any(v == c and type(v) is type(c) for c in o.choices):
                allowed = ", ".join(str(c) for c in o.choices)
                raise InvalidActionError(
                    f"option {o.name} of {variant} must be one of {allowed}, not {v!r}"
                )
            values.append((o.name, v))
    if given:
        raise InvalidActionError(f"{variant} has no option {', '.join(sorted(given))}")
    return Rules(variant, tuple(values))


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, OptionValue]:
    """``["splash=25", "joker=true"]`` -> ``{"splash": 25, "joker": True}`` (command lines)."""
    out: dict[str, OptionValue] = {}
    for p in pairs:
        key, sep, raw = p.partition("=")
        if not sep:
            raise InvalidActionError(f"an option is NAME=VALUE, not {p!r}")
        value: OptionValue = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        out[key] = value
    return out
