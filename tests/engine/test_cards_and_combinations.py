"""Card notation (bad notation refused) and combination checking (L15-L17)."""

from __future__ import annotations

import pytest

from games.engine import Card, IllegalActionError, InvalidActionError
from games.engine.combinations import Placed, build
from games.engine.rummy.moves import action_from_json, action_from_text


@pytest.mark.parametrize("code", ["1H", "TH", "10h", "11S", "KX", "", "JK=JK", "AS=", "JK=", " AS"])
def test_card_parser_rejects_bad_notation(code: str) -> None:
    with pytest.raises(InvalidActionError):
        Placed.from_code(code)


@pytest.mark.parametrize(
    "text", ["1 layout 7H 8H JK", "1 add x 5H", "1 discard", "1 draw deck", "x draw pack",
             "1 move-joker 0 5H sideways", "1 take-back now", "1 frobnicate"],
)  # fmt: skip
def test_action_text_parser_rejects_bad_forms(text: str) -> None:
    with pytest.raises(InvalidActionError):
        action_from_text(text)


@pytest.mark.parametrize(
    "data", [{"type": "discard", "seat": 0, "card": "ZZ"}, {"type": "draw", "seat": 0},
             {"type": "add", "seat": 0, "combination": -1, "card": "5H"},
             {"type": "add", "seat": 0, "combination": 1, "cards": ["5H", "6H"]},
             {"type": "layout", "seat": 0, "cards": "7H 8H 9H"}, [], {"type": "draw", "seat": True}],
)  # fmt: skip
def test_action_json_parser_rejects_malformed(data: object) -> None:
    with pytest.raises(InvalidActionError):
        action_from_json(data)


def test_round_trip_json_and_text() -> None:
    for text in ["0 draw pack", "1 draw stock 7H", "2 layout 7H 8H JK=9H", "3 add 0 AH low",
                 "4 move-joker 2 2S=5H", "0 discard 10C", "1 take-back", "0 challenge",
                 "1 accept", "1 decline"]:  # fmt: skip
        a = action_from_text(text)
        assert a.text == text and action_from_json(a.to_json()) == a and a.describe()


def _build(codes: str, wild: str = "jokers") -> str:
    return build([Placed.from_code(c) for c in codes.split()], wild=wild).code


def test_l16_k_a_2_refused() -> None:
    with pytest.raises(IllegalActionError) as e:
        _build("KH AH 2H")
    assert e.value.law == "L16"


def test_l16_a_2_3_and_q_k_a_accepted() -> None:
    assert _build("3H AH 2H") == "AH 2H 3H"
    assert _build("AH KH QH") == "QH KH AH"
    assert _build("JK=AH KH QH") == "QH KH JK=AH"


def test_l15_false_combinations_refused() -> None:
    for bad in ("7C 8C 9S", "KH KD JH", "7H 8H", "7H 9H 10H", "7H 7H 8H"):
        with pytest.raises(IllegalActionError) as e:
            _build(bad)
        assert e.value.law == "L15"


def test_l17_joker_in_set_named_by_rank_only() -> None:
    assert _build("9C JK=9C 9D") == "9C 9D JK=9H"
    assert _build("JK=9S JK=9S 9D") == "9D JK=9C JK=9H"


def test_l17_only_wild_cards_take_a_name() -> None:
    with pytest.raises(IllegalActionError) as e:
        _build("7H 8H 3C=9H")
    assert e.value.law == "L17"
    assert _build("7H 8H 2S=9H", "spade-twos") == "7H 8H 2S=9H"
    with pytest.raises(IllegalActionError):
        _build("7H 8H JK=9H", "spade-twos")


def test_card_codes() -> None:
    assert Card.from_code("10H").code == "10H" and Placed.from_code("2S=2S").is_wild is False


def test_the_seeded_shuffle_is_randoms_own_card_for_card() -> None:
    """Every rummy and Conquián deal is dealt from ``random.Random(seed).shuffle``'s order
    (the golden logs and stored seeds hold it): ``shuffle_seeded`` gives the same order for
    every pack size the games use and for seeds small and large (issue 58's bench)."""
    import random

    from games.engine.cards import shuffle_seeded

    for n in (0, 1, 2, 40, 52, 53, 106, 300):
        for seed in (0, 1, 7, 2**32 - 1, 2**63 + 5, *range(100, 140)):
            a, b = list(range(n)), list(range(n))
            random.Random(seed).shuffle(a)
            assert shuffle_seeded(b, seed) == a, (n, seed)


def test_a_combination_keeps_its_hash_but_never_carries_it_out_of_the_process() -> None:
    """A combination's hash is made once (Tunk's last-turn search keys its memo by the
    table's combinations, issue 58's bench) and is the dataclass's own: that of its
    compared fields. A pickle or a copy leaves it behind, since a string's hash differs
    from one process to another (a stored deal loaded by another web process)."""
    import copy
    import dataclasses
    import pickle

    from games.engine.combinations import Combination, TableCard

    seven = Card.from_code("7H")
    c = Combination(3, 1, "set", (TableCard(seven, seven),) * 3, rank=7)
    assert hash(c) == hash((3, 1, "set", c.cards, -1, 7, 0)) and c._hash == hash(c)
    for other in (pickle.loads(pickle.dumps(c)), copy.copy(c), copy.deepcopy(c)):
        assert other == c and other._hash == 0 and hash(other) == hash(c)
    assert dataclasses.replace(c, owner=0) != c and dataclasses.replace(c)._hash == 0
