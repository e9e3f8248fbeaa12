"""Words at the table (issue 28, item 9): every game's log writes cards out the same
way ("the queen of diamonds", as Conquián's always did), laws cited by an option's name
read as words, and the status line speaks to the player."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.play import reading, services
from games.play.moves import Move
from games.play.presenters import PHASES, spell_cards

from .helpers import state_of

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("draws QD from the stock", "draws the queen of diamonds from the stock"),
        (
            "lays out 7H 8H 9H",
            "lays out the seven of hearts, the eight of hearts, the nine of hearts",
        ),
        ("adds JK=3H to combination 2", "adds the joker (as the three of hearts) to combination 2"),
        ("discards 10S", "discards the ten of spades"),
        # Tonk's Deuces Wild (T-opt-3, TO7): a two named as it is laid; its words made a
        # deal's page answer 500 (not a card: '2S=JH'), found by the leak test on Tonk
        (
            "hits spread 0 with 2S=JH",
            "hits spread 0 with the two of spades (as the jack of hearts)",
        ),
        (
            "spreads AH 2D=3H 4H",
            "spreads the ace of hearts, the two of diamonds (as the three of hearts), "
            "the four of hearts",
        ),
        ("turns up the ten of diamonds", "turns up the ten of diamonds"),
        ("draws from the pack", "draws from the pack"),
    ],
)
def test_card_codes_are_written_out(text: str, words: str) -> None:
    assert spell_cards(text) == words


def test_no_status_line_says_he_to_the_player() -> None:
    assert not [p for p in PHASES.values() if " he " in f" {p} "]


def test_a_foster_log_names_its_cards_in_words(
    make_table: Any, make_member: Any, client_for: Any
) -> None:
    members = [make_member() for _ in range(4)]
    table = make_table("foster", members)
    deal = services.ensure_deal(table.pk)
    assert deal is not None
    rng = random.Random(2)
    for _ in range(24):
        deal = reading.current_deal(table.pk)
        state = state_of(deal.pk)
        seat = state.to_move()
        services.act(
            Move(
                table.pk,
                member_id=members[seat].pk,
                version=deal.version,
                deal_id=deal.pk,
                action=rng.choice(state.legal_actions(seat)).to_json(),
            )
        )
    body = client_for(members[0]).get(f"/tables/{table.pk}/state/", HTTP_HX_REQUEST="true")
    log = body.content.decode().split('aria-label="What has happened this deal"', 1)[1]
    log = log.split("</section>", 1)[0]
    assert "discards the " in log or "draws the " in log
    assert not CODE.search(re.sub(r"<[^>]+>", " ", log)), log


def test_option_values_read_as_words_not_true_or_false(make_member: Any, client_for: Any) -> None:
    """Issue 38, item 6: the practice form and the rules pages say yes/no, never the
    program's True/False, and names in words ("spade twos")."""
    from games.engine.variant import VARIANTS

    jokers, turnovers = (
        VARIANTS["foster"].option("jokers"),
        VARIANTS["foster"].option("max_turnovers"),
    )
    joker = VARIANTS["foster-three"].option("joker")
    # Issue 56: values in plain words, not their codes ("Jokers: spade-twos").
    assert [joker.word(True), joker.word("False"), jokers.word("spade-twos"),
            turnovers.word(10), turnovers.word("0")] == [
        "yes", "no", "the two deuces of spades", "10", "no cap"]  # fmt: skip
    client = client_for(make_member("Wendy"))
    for url in ("/", "/rules/foster-three/"):
        body = client.get(url).content.decode()
        assert ">True<" not in body and ">False<" not in body, url
    assert ">yes</option>" in client.get("/").content.decode()


def test_counts_are_written_with_their_noun_never_with_s_in_brackets() -> None:
    from club.services.base import counted

    assert [counted(1, "bot"), counted(3, "bot"), counted(0, "place")] == [
        "1 bot", "3 bots", "0 places"]  # fmt: skip


def test_a_combination_is_named_by_its_owner_and_cards_not_its_number() -> None:
    """Issue 56: Tonk's log said "Bot Alfa hits spread 0 with the three of hearts"; a
    player says whose spread of what."""
    from games.play.presenters import _named, combination_names

    seats = [{"position": 0, "name": "Carol", "is_me": False},
             {"position": 1, "name": "Bob", "is_me": True}]  # fmt: skip
    combos = [
        {"id": 0, "owner": 0, "kind": "sequence",
         "cards": [{"card": c, "as": c} for c in ("5H", "6H", "7H")]},
        {"id": 3, "owner": 1, "kind": "set",
         "cards": [{"card": "9C", "as": None}, {"card": "JK", "as": "9D"}]},
        {"id": 4, "owner": 1, "kind": "sequence",
         "cards": [{"card": "JK", "as": "9D"}, {"card": "10D", "as": None}]},
    ]  # fmt: skip
    names = combination_names(combos, seats)
    assert names == {0: "Carol's run of hearts 5-6-7", 3: "your set of nines",
                     4: "your run of diamonds 9-10"}  # fmt: skip
    said = _named("hits spread 0 with the three of hearts", {"combination": 0}, names)
    assert said == "hits Carol's run of hearts 5-6-7 with the three of hearts"
    # A record naming no combination, or one no longer on the table, is left as it is.
    assert _named("discards the ten of spades", {}, names) == "discards the ten of spades"
    assert _named("hits spread 9 with X", {"combination": 9}, names) == "hits spread 9 with X"
