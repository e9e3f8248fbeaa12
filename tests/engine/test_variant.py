"""The variant registry (games/engine/variant.py): one object per game.

The pins below are today's games as the other layers spelled them before the registry
(club/models.py VARIANTS and VARIANT_PLAYERS, club/tables/cutting.py pack_for,
games/rules_text.py, the engine's rules.py), so moving those layers onto the registry
changes nothing a member sees. Two deliberate changes are marked where they are pinned.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.engine import (
    VARIANTS,
    Capabilities,
    InvalidActionError,
    PlayerRange,
    find_variant,
    make_rules,
    new_deal,
    registered,
)
from games.engine.conquian.variants import Conquian
from games.engine.protocol import Outcome
from games.engine.variant import DealStart

# name: (club label, engine players, club seats, the one name: issue 79, where the rules
# page said "Cooncan for four to seven" and the club's choice "Foster (4–7 players, ...)")
PINNED = {
    "foster": ("Cooncan: four to seven players, double pack", (2, 7, 5), (4, 7, 5), "Cooncan"),
    "foster-three": ("Cooncan for three: three players, one pack", (3, 3, 3), (3, 3, 3),
                     "Cooncan for three"),
    "conquian": ("Conquián: two players, forty cards", (2, 2, 2), (2, 2, 2), "Conquián"),
    "colonel": ("Colonel: two players, one pack", (2, 2, 2), (2, 2, 2), "Colonel"),
}  # fmt: skip
OPTIONS = {
    "foster": ["splash", "ratting", "jokers", "max_turnovers"],
    "foster-three": ["joker", "stock", "splash", "ratting", "max_turnovers"],
    "conquian": [
        "pack",
        "upcard",
        "trade",
        "scoring",
        "carry",
        "deal",
        "court_pips",
        "cut",
        "eight_cap",
        "target",
        "upcard_refused",
        "demand",
    ],
    "colonel": ["cut", "pack"],
}
LAWS = {
    "foster": ["L1", "L2", "L5", "L7–L8", "L11", "L15", "L16", "L17", "L18", "L19", "L21–L22",
               "L23–L24", "L25"],
    "foster-three": ["3-hand law 1", "book p.36", "L11–L25"],
    "conquian": ["L1 (two players)", "L8 (two players)", "L12 (two players)", "book p.51",
                 "book p.50", "L19", "book p.54", "L21 (two players)", "C-opt-4 (seed 003)",
                 "CO2"],
    "colonel": ["encyclopedia"] * 3 + ["CL-1 (seed 003)", "CL-opt-1 (seed 003)", "CLO1"],
}  # fmt: skip
# (dealing pack size, jokers in it, hand size) with default options
PACKS = {"foster": (106, 2, 10), "foster-three": (52, 0, 7), "conquian": (40, 0, 10),
         "colonel": (52, 0, 10)}  # fmt: skip
# The cutting packs of club/tables/cutting.py pack_for: (size, jokers), with default options.
CUTTING = {"foster": (106, 2), "conquian": (40, 0), "colonel": (52, 0),
           # was always 53 with a joker: now the pack the table deals, joker or not
           "foster-three": (52, 0)}  # fmt: skip


def test_the_registry_lists_todays_games_in_todays_order() -> None:
    assert list(VARIANTS) == ["foster", "foster-three", "conquian", "colonel", "tonk", "tunk"]


def test_threads_reading_the_registry_at_once_all_see_every_game() -> None:
    """Found racing two house-rule saves (issue 53): the first requests of a threaded
    server at once saw 3 games of 6, the flag set before the imports ran, and a form built
    then lacked the other games' fields (a KeyError, 500). A fresh interpreter each round,
    eight threads at a barrier reading the registry while it loads."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import threading\n"
        "from games.engine.variant import VARIANTS\n"
        "b = threading.Barrier(8); seen = []\n"
        "def run():\n"
        "    b.wait(); seen.append(tuple(VARIANTS))\n"
        "ts = [threading.Thread(target=run) for _ in range(8)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "print(len(set(seen)), len(seen[0]))\n"
    )
    root = Path(__file__).resolve().parents[2]
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["1", str(len(VARIANTS))]


@pytest.mark.parametrize("name", list(PINNED))
def test_each_game_is_pinned_to_what_the_layers_said_before(name: str) -> None:
    v = find_variant(name)
    label, players, seats, title = PINNED[name]
    assert (v.name, v.club_label, v.title, v.short_name) == (name, label, title, title)
    assert v.players == PlayerRange(*players) and v.seats == PlayerRange(*seats)
    assert [o.name for o in v.options] == OPTIONS[name]
    assert [law.number for law in v.laws] == LAWS[name]
    assert all(law.text.endswith(".") for law in v.laws)
    rules = make_rules(name)
    size, jokers, hand = PACKS[name]
    pack = v.pack(rules)
    assert (len(pack), sum(c.is_joker for c in pack), v.hand_size(rules, v.players.default)) == (
        size, jokers, hand,
    )  # fmt: skip
    cut = v.cutting_pack(rules)
    assert (len(cut), cut.count("JK")) == CUTTING[name]


def test_cutting_packs_follow_the_options_where_the_dealt_pack_does() -> None:
    three = find_variant("foster-three")
    assert three.cutting_pack(make_rules("foster-three", joker=True)).count("JK") == 1
    # L2 cuts with the jokers whatever the jokers option deals; Conquián with Foster's forty.
    foster = find_variant("foster")
    assert foster.cutting_pack(make_rules("foster", jokers="spade-twos")).count("JK") == 2
    conquian = find_variant("conquian")
    assert "KS" not in conquian.cutting_pack(make_rules("conquian", pack="spanish"))


def test_option_labels_are_words_not_identifiers() -> None:
    for v in VARIANTS.values():
        for o in v.options:
            assert o.title and "_" not in o.title, o
    assert find_variant("foster").option("max_turnovers").title == "Most turnovers of the stock"


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        ("conquian", {}, Capabilities(say=True, forcing=True, carries=True)),
        ("conquian", {"carry": False}, Capabilities(say=True, forcing=True)),
        ("foster", {}, Capabilities(wild_cards=True, wild="jokers", take_back=True, double_pack=True)),
        ("foster", {"jokers": "spade-twos"},
         Capabilities(wild_cards=True, wild="spade-twos", take_back=True, double_pack=True)),
        ("foster-three", {}, Capabilities(take_back=True)),
        ("foster-three", {"joker": True, "stock": "exposed"},
         Capabilities(wild_cards=True, wild="jokers", exposed_stock=True, take_back=True)),
        ("colonel", {}, Capabilities(challenge=True, take_back=True, low_aces=True)),
    ],
)  # fmt: skip
def test_capabilities_say_what_a_game_has_under_its_options(
    name: str, options: dict[str, Any], expected: Capabilities
) -> None:
    assert find_variant(name).capabilities(make_rules(name, options)) == expected


def test_physical_pips_use_fosters_values_in_every_rummy_game() -> None:
    # L24: the engine scores Colonel's ace as 1, a physical table counts it 11 in every
    # game of Foster's family; Tonk and Tunk count a hand by their own T11 and K6 (the ace
    # 1, TO1, KO1).
    for v in VARIANTS.values():
        if v.name in ("tonk", "tunk"):
            assert v.physical_pips(["AS", "KH", "7D"]) == 1 + 10 + 7
        else:
            assert v.physical_pips(["AS", "KH", "7D", "JK"]) == 11 + 10 + 7 + 15


def test_points_are_the_outcomes_payments_and_must_sum_to_zero() -> None:
    v = find_variant("colonel")
    out = Outcome("out", 0, ((), ()), (0, 12), (12, -12), ())
    assert v.points(out) == (12, -12)
    with pytest.raises(InvalidActionError, match="sum to 1"):
        v.points(Outcome("out", 0, ((), ()), (0, 12), (13, -12), ()))


def test_an_unknown_game_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(InvalidActionError, match="unknown variant 'chess'; one of foster, "):
        find_variant("chess")
    with pytest.raises(InvalidActionError, match="unknown variant"):
        make_rules("chess")


class _Practice(Conquian):
    """Conquián under another name: enough to see the registry take a game and let it go."""

    name = "practice-conquian"
    order = 50

    def deal(self, rules: Any, players: int, dealer: int, start: DealStart) -> Any:
        return super().deal(make_rules("conquian", dict(rules.options)), players, dealer, start)


def test_a_game_is_registered_for_the_length_of_a_with_block() -> None:
    with registered(_Practice()) as v:
        assert find_variant("practice-conquian") is v
        assert list(VARIANTS)[-1] == "practice-conquian"  # by its order, after the built-ins
        deal = new_deal(make_rules("practice-conquian"), 2, 0, seed=1)
        assert Counter(deal.pack_order) == Counter(v.pack(make_rules("practice-conquian")))
    assert "practice-conquian" not in VARIANTS


def test_a_name_is_registered_once_and_seats_lie_within_the_engines_range() -> None:
    with pytest.raises(ValueError, match="registered already"), registered(Conquian()):
        pass  # pragma: no cover
    assert "conquian" in VARIANTS  # the refused registration removed nothing

    class TooMany(_Practice):
        seats = PlayerRange(2, 3, 2)

    with (
        pytest.raises(ValueError, match="seats players the engine can deal for"),
        registered(TooMany()),
    ):
        pass  # pragma: no cover


def test_no_options_source_holds_brackets() -> None:
    """Pages put an option's source in brackets after its name ("Ratting (Dalton)"): a
    source with its own brackets read "100 (club (L25 has no limit))"."""
    from games.engine.variant import VARIANTS

    for v in VARIANTS.values():
        for o in v.options:
            assert "(" not in o.source and ")" not in o.source, (v.name, o.name, o.source)
