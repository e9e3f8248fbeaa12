"""Every ending told (issue 38, item 3), in the presenter: each way a deal can end has its
words, a tableau's hands are not called "out", and what the others did since the
viewer's last move is on the table, not only in the log."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string

from games.play.presenters import _recent, outcome_context

SEATS = [{"position": 0, "name": "Ann"}, {"position": 1, "name": "Bot Alfa"}]


def _out(kind: str, winner: int | None, **more: Any) -> dict[str, Any]:
    return {"kind": kind, "winner": winner, "hands": [[], ["9S", "KH"]], "pips": [0, 19],
            "payments": [0, 0], "adjustments": [], "carried": 0} | more  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "winner", "more", "headline"),
    [
        ("out", 0, {}, "Ann went out"),
        ("tableau", None, {"carried": 1},
         "a tableau: nobody went out, nothing paid; 1 carried to the next deal"),
        ("challenge", 0, {}, "a challenge, accepted: Ann had the lower hand"),
        ("challenge", None, {}, "a challenge, accepted: equal hands, nothing paid"),
        ("exhausted", 1, {}, "the pack ran out: Bot Alfa had the lower hand"),
        ("abandoned", None, {}, "abandoned (the pack ran out too many times): nothing paid"),
    ],
)  # fmt: skip
def test_every_way_a_deal_ends_is_told(
    kind: str, winner: int | None, more: dict[str, Any], headline: str
) -> None:
    end = outcome_context(_out(kind, winner, **more), SEATS)
    assert end is not None and end["headline"] == headline


def test_a_tableau_does_not_call_an_empty_hand_out() -> None:
    end = outcome_context(_out("tableau", None), SEATS)
    html = render_to_string("games/_deal_summary.html", {"end": end})
    assert "no cards left in hand" in html and ">out<" not in html
    won = outcome_context(_out("out", 0), SEATS)
    assert ">out<" in render_to_string("games/_deal_summary.html", {"end": won})


def test_an_adjustment_is_told_with_its_player_and_law() -> None:
    adj = [{"seat": 1, "points": -30, "reason": "ratting", "law": "Dalton"}]
    end = outcome_context(_out("out", 0, adjustments=adj), SEATS)
    assert end is not None and end["adjustments"][0]["text"] == "Bot Alfa: -30 for ratting (Dalton)"


def test_the_others_moves_since_mine_are_on_the_table() -> None:
    log = [
        {"seat": 0, "kind": "discard", "law": "L15", "cards": ["9C"]},
        {"seat": 1, "kind": "draw-pack", "law": "L11"},
        {"seat": 1, "kind": "discard", "law": "L15", "cards": ["QD"]},
        {"seat": None, "kind": "turnover", "law": "L25"},
    ]
    assert _recent(log, SEATS, 0) == [
        {"seat": 1, "name": "Bot Alfa",
         "texts": ["draws from the pack", "discards the queen of diamonds"]},
        {"seat": None, "name": None, "texts": ["the stock is turned over and becomes the pack"]},
    ]  # fmt: skip
    assert _recent(log[:1], SEATS, 0) == []  # nothing since my own move


def test_the_points_column_says_what_it_counts_in_tunk_and_in_every_game() -> None:
    """Issue 56: Tunk's end showed "Points −16" beside "20 unmatched" and never said why."""
    from games.engine.variant import VARIANTS

    tunk = outcome_context(_out("tunk", 0), SEATS, VARIANTS["tunk"])
    html = render_to_string("games/_deal_summary.html", {"end": tunk})
    assert "Unmatched: the count each player adds to their score in the game (K9" in html
    assert "settling the difference of their counts" in html
    foster = outcome_context(_out("out", 0), SEATS, VARIANTS["foster"])
    said = render_to_string("games/_deal_summary.html", {"end": foster})
    assert "Points: what each player won (+) or paid (−) for the deal." in said


@pytest.mark.parametrize(
    ("game", "endings"),
    [
        ("tonk", [("out", 0), ("tonk", 0), ("discard-out", 0), ("drop", 0), ("exhausted", 0),
                  ("drawn", None), ("caught", 0), ("caught", None)]),
        ("tunk", [("tunk", 0), ("tunk", None), ("tunk-doubled", 0), ("tunk-doubled", None),
                  ("break", None)]),
    ],
)  # fmt: skip
def test_tonks_and_tunks_endings_are_told_in_the_readers_language(
    game: str, endings: list[tuple[str, int | None]]
) -> None:
    """The games' own headlines (T4-T10, K7-K11) through the reader's catalog (issue 82),
    the laws' numbers as they are: every one in Spanish, a winner named or not."""
    from django.utils import translation

    from games.engine.variant import find_variant
    from tests.club.spanish import english_left

    spec = find_variant(game)
    seats = [{"position": 0, "name": "Ana"}, {"position": 1, "name": "Beto"}]
    for kind, winner in endings:
        english = outcome_context(_out(kind, winner), seats, spec)
        with translation.override("es"):
            spanish = outcome_context(_out(kind, winner), seats, spec)
        assert english is not None and spanish is not None
        assert spanish["headline"] != english["headline"], (kind, winner)
        assert not english_left(f"<p>{spanish['headline']}</p>"), spanish["headline"]
        assert english["headline"].endswith(spanish["headline"][-4:]), "the law cited"
