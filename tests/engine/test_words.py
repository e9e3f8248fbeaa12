"""The log's words (issue 39): one sentence per kind of record, made in one place
(games/engine/words.py), each checked here; a record redacted for a viewer says no more
than he may know."""

from __future__ import annotations

import pytest

from games.engine.records import Kind, Record
from games.engine.words import sentence

L2 = "L12 (two players)"

EXAMPLES: list[tuple[Record, str]] = [
    (Record(None, Kind.DEAL, "L8", ("QS",), number=10), "deals 10 each; QS starts the stock"),
    (Record(None, Kind.DEAL, "T1", number=3), "deals 3 each"),
    (Record(1, Kind.DRAW_PACK, "L11", ("7C",), secret=True), "draws 7C from the pack"),
    (Record(1, Kind.DRAW_STOCK, "L11", ("7C",)), "draws 7C from the stock"),
    (Record(2, Kind.LAYOUT, "L15", ("7H", "8H", "JK=9H")), "lays out 7H 8H JK=9H"),
    (Record(0, Kind.ADD, "L15", ("10H",), combination=3), "adds 10H to combination 3"),
    (Record(0, Kind.MOVE_JOKER, "L18", ("5H",), combination=2),
     "moves the joker of combination 2 and plays 5H"),
    (Record(0, Kind.DISCARD, "L15", ("KD",)), "discards KD"),
    (Record(0, Kind.OUT, "L21"), "is out"),
    (Record(0, Kind.TAKE_BACK, "L20"), "takes back this turn's cards"),
    (Record(1, Kind.CHALLENGE, "Colonel"), "challenges"),
    (Record(0, Kind.ACCEPT, "Colonel"), "accepts the challenge"),
    (Record(0, Kind.DECLINE, "Colonel"), "declines the challenge"),
    (Record(None, Kind.TURNOVER, "L25"), "the stock is turned over and becomes the pack"),
    (Record(None, Kind.ABANDONED, "max_turnovers", number=11),
     "the pack has run out 11 times: the deal is abandoned"),
    (Record(None, Kind.EXHAUSTED, "Colonel"), "the pack is exhausted"),
    (Record(0, Kind.TURN_UP_DEAL, "L8 (two players)", ("7S",)), "turns up the seven of spades"),
    (Record(1, Kind.TRADE, "how-to (card trade)"), "passes a card face down"),
    (Record(1, Kind.TURN_UP, "L11 (two players)", ("JD",)), "turns up the top card of the pack"),
    (Record(0, Kind.REFUSE, "book p.51", ("JD",)), "refuses the jack of diamonds"),
    (Record(1, Kind.TURN_DOWN, "book p.51", ("JD",)), "refuses and turns down the jack of diamonds"),
    (Record(0, Kind.USE, L2, ("7C",), combination=4), "uses the seven of clubs on combination 4"),
    (Record(0, Kind.USE, L2, ("7C", "7D"), borrowed=("7H",)),
     "uses the seven of clubs with seven of diamonds, seven of hearts (borrowed)"),
    (Record(0, Kind.MELD, "L15", ("2S",), combination=1), "adds the two of spades to combination 1"),
    (Record(0, Kind.MELD, "L15", ("2S", "3S"), borrowed=("4S",)),
     "lays down two of spades, three of spades, four of spades (borrowed)"),
    (Record(1, Kind.FORCE, "L19", ("QH",), combination=0),
     "forces the queen of hearts onto combination 0"),
    (Record(1, Kind.THROW, "book p.50", ("QH",)), "discards the queen of hearts"),
    (Record(1, Kind.ELEVEN, "L21 (two players)"), "has eleven cards down and wins"),
    (Record(None, Kind.TABLEAU, "L21 (two players)"), "the pack is exhausted: tableau"),
    (Record(2, Kind.TONK_CALL, "T4"), "calls Tonk"),
    (Record(0, Kind.NO_CALL, "T4"), "does not call Tonk"),
    (Record(None, Kind.DRAWN, "T4", number=2), "2 players called Tonk: a drawn deal"),
    (Record(1, Kind.DROP, "T9", number=14), "drops, counting 14"),
    (Record(1, Kind.PLUCK, "T5", ("9C",)), "plucks 9C from the stock"),
    (Record(1, Kind.SPREAD, "T6", ("7H", "8H", "2C=9H"), combination=0),
     "spreads 7H 8H 2C=9H"),
    (Record(0, Kind.HIT, "T7", ("10H",), combination=0), "hits spread 0 with 10H"),
    (Record(0, Kind.REFUSE_STOCK, "T10"), "refuses the stock with the pack empty: the deal ends"),
    (Record(1, Kind.TUNK, "K7", ("5H", "6H", "2C=7H"), number=4),
     "calls Tunk, showing 5H 6H 2C=7H with 4 unmatched"),
    (Record(0, Kind.SHOW, "K8", (), number=31), "lays down no meld, 31 left unmatched"),
    (Record(0, Kind.LAY_OFF, "K8", ("8H",), combination=0),
     "lays 8H off on the Tunker's meld 0"),
    (Record(None, Kind.BREAK, "K11", number=1),
     "fewer cards in the pack than players: the deal is drawn"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "words"), EXAMPLES, ids=lambda x: getattr(x, "kind", ""))
def test_each_kind_of_record_has_its_sentence(record: Record, words: str) -> None:
    assert sentence(record) == words
    assert Record.from_json(record.to_json()) == record
    assert Record.from_row(record.to_row()) == record  # the snapshot's compact form


def test_every_kind_is_tried() -> None:
    assert {r.kind for r, _ in EXAMPLES} == set(Kind)


def test_a_draw_from_the_pack_names_its_card_to_the_drawer_only() -> None:
    drawn = Record(1, Kind.DRAW_PACK, "L11", ("7C",), secret=True)
    assert sentence(drawn.seen_by(1)) == "draws 7C from the pack"
    for viewer in (0, 2, None):
        seen = drawn.seen_by(viewer)
        assert seen.cards == () and sentence(seen) == "draws from the pack"
        assert "7C" not in str(seen.to_json())


@pytest.mark.parametrize(
    "row",
    [[0, "sings", "L1"], [0, "discard"], ["0", "discard", "L15", ["7C"]], [0, "add", "L15", [7]],
     {"seat": 0, "kind": "discard", "law": "L15"}],
)  # fmt: skip
def test_a_malformed_row_is_refused(row: object) -> None:
    with pytest.raises(ValueError, match="not"):
        Record.from_row(row)  # type: ignore[arg-type]
