"""Variants as data: a :class:`Rules` value names a variant and its options.

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

OptionValue = str | int | bool


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    choices: tuple[OptionValue, ...]
    default: OptionValue
    help: str
    source: str  # where the sources say so: "L1", "Dalton", "book p.36", "encyclopedia", ...


@dataclass(frozen=True, slots=True)
class VariantSpec:
    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[OptionSpec, ...]
    summary: str

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise InvalidActionError(f"{self.name} has no option {name!r}")


_SPLASH = OptionSpec(
    "splash", (0, 25, 50), 0,
    "bonus from each other player to a player who lays out his whole hand at once",
    "book p.11",
)  # fmt: skip
_RATTING = OptionSpec(
    "ratting", ("free", "none", "six", "penalty30"), "free",
    "showing down part of a hand early: free (Foster); none (all at once); a first show "
    "of at least six cards; or free but a ratter who does not win pays 30 more, unless "
    "someone had ratted before him",
    "Dalton",
)  # fmt: skip
_MAX_TURNOVERS = OptionSpec(
    "max_turnovers", (100, 10, 0), 100,
    "club safety cap, not from the sources: the deal is abandoned (nothing paid) when the "
    "pack would be made up from the stock more than this many times (0: no cap); the "
    "default never triggers in normal play",
    "club (L25 has no limit)",
)  # fmt: skip

# fmt: off
VARIANTS: dict[str, VariantSpec] = {
    "foster": VariantSpec(
        "foster", "Cooncan for four or five (Foster's laws L1-L25)", 2, 7, 5,
        (
            _SPLASH,
            _RATTING,
            OptionSpec(
                "jokers", ("jokers", "spade-twos"), "jokers",
                "two jokers in the double pack, or no jokers and the two 2S act as jokers",
                "L1, Dalton",
            ),
            _MAX_TURNOVERS,
        ),
        "Double pack and two jokers, ten cards each, draw from pack or stock, lay out, "
        "add to anyone's combinations, discard; first out collects the others' pips.",
    ),  # fmt: skip
    "foster-three": VariantSpec(
        "foster-three", "Cooncan for three (Foster's special laws)", 3, 3, 3,
        (
            OptionSpec("joker", (False, True), False, "one joker added to the 52-card pack",
                       "3-hand law 1"),
            OptionSpec("stock", ("buried", "exposed"), "buried",
                       "each discard covers the last, or every discard stays exposed and "
                       "the drawer may take any one of them", "book p.36"),
            _SPLASH,
            _RATTING,
            _MAX_TURNOVERS,
        ),
        "One pack (with or without a joker), seven cards each, otherwise as for five.",
    ),  # fmt: skip
    "conquian": VariantSpec(
        "conquian", "Conquian for two (Foster's laws for two players)", 2, 2, 2,
        (
            OptionSpec("pack", ("forty", "spanish"), "forty",
                       "A-10 of each suit (Foster) or the Spanish 40, A-7 J Q K with J "
                       "following 7", "2-hand law 1, encyclopedia"),
            OptionSpec("upcard", (True, False), True,
                       "the 21st card turned up, or no initial upcard (the pone turns the "
                       "first card)", "book p.49, how-to"),
            OptionSpec("trade", (False, True), False,
                       "each player passes one card face down before the first turn",
                       "how-to"),
            OptionSpec("scoring", ("game-points", "pips"), "game-points",
                       "one game point a deal, or the loser's pips", "book p.55"),
            OptionSpec("carry", (True, False), True,
                       "a tableau's point goes to the next deal's winner (each tableau "
                       "raises the next win by one)", "2-hand law 21, how-to"),
        ),
        "Forty cards, ten each; turned cards are used at once or passed, never taken "
        "into the hand; eleven down wins.",
    ),  # fmt: skip
    "colonel": VariantSpec(
        "colonel", "Colonel (two-handed, encyclopedia)", 2, 2, 2,
        (),
        "Full pack, ten each, lay off on either side, challenge; the lower hand wins a "
        "challenge or an exhausted pack.",
    ),  # fmt: skip
}
# fmt: on


@dataclass(frozen=True, slots=True)
class Rules:
    """A variant plus a value for each of its options (defaults filled in)."""

    variant: str
    options: tuple[tuple[str, OptionValue], ...] = field(default=())

    @property
    def spec(self) -> VariantSpec:
        return VARIANTS[self.variant]

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
    spec = VARIANTS.get(variant) if isinstance(variant, str) else None
    if spec is None:
        raise InvalidActionError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
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
