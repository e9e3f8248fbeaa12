"""Foster's special laws for three players, and Colonel (two-handed, encyclopedia)."""

from __future__ import annotations

import pytest

from games.engine import IllegalActionError, make_rules, new_deal
from games.engine.cards import PackKind, make_pack

from .helpers import act, arrange, play, texts

H0 = "2C 5D 9H KS QD 4S 7C"
H1 = "3H 4H 5H 8C 8D 10S JC"
H2 = "AD 6S 9C JD QH KH 2S"


def test_three_law1_single_pack_with_or_without_a_joker() -> None:
    assert len(new_deal(make_rules("foster-three"), 3, 0, seed=1).pack_order) == 52  # type: ignore[attr-defined]
    d = new_deal(make_rules("foster-three", joker=True), 3, 0, seed=1)
    assert len(d.pack_order) == 53  # type: ignore[attr-defined]


def test_three_law8_seven_cards_each() -> None:
    d = arrange("foster-three", [H0, H1, H2], "10H")
    assert d.player_view(0)["hand_counts"] == [7, 7, 7] and d.pack_count == 52 - 22


def test_three_exposed_stock_every_discard_visible_and_any_may_be_drawn() -> None:
    d = arrange("foster-three", [H0, H1, H2], "10H", "AC 6C 7D", stock="exposed")
    play(d, "1 draw pack", "1 discard JC", "2 draw pack", "2 discard 2S")
    view = d.player_view(0)
    assert view["stock"] == ["10H", "JC", "2S"] and view["stock_count"] == 3
    assert texts(d) == ["0 draw pack", "0 draw stock 10H", "0 draw stock JC", "0 draw stock 2S"]
    play(d, "0 draw stock JC")
    assert [c.code for c in d.stock] == ["10H", "2S"]
    with pytest.raises(IllegalActionError):
        d.apply(act("0 draw stock 2S"))  # one draw a turn


def test_three_exposed_stock_refuses_a_card_not_in_it() -> None:
    d = arrange("foster-three", [H0, H1, H2], "10H", stock="exposed")
    with pytest.raises(IllegalActionError):
        d.apply(act("1 draw stock AS"))


def test_three_buried_stock_only_the_top_card() -> None:
    d = arrange("foster-three", [H0, H1, H2], "10H", "AC 6C 7D")
    play(d, "1 draw pack", "1 discard JC")
    assert d.player_view(2)["stock"] == ["JC"] and d.player_view(2)["stock_count"] == 2
    assert texts(d) == ["2 draw pack", "2 draw stock"]
    with pytest.raises(IllegalActionError) as e:
        d.apply(act("2 draw stock 10H"))
    assert e.value.law == "L11"


def test_three_joker_moves_once_as_for_five() -> None:
    d = arrange("foster-three", ["JK 5D 6D KS QD 4S 7C", "3H 4H 5H 8C 4D 10S JC", H2], "10H",
                "AC 6C 8D 9D", joker=True)  # fmt: skip
    play(d, "1 draw pack", "1 discard AC", "2 draw pack", "2 discard 6C")
    play(d, "0 draw pack", "0 layout JK=4D 5D 6D", "0 discard KS", "1 draw pack")
    assert [t for t in texts(d) if "move-joker" in t] == ["1 move-joker 0 4D"]  # 9D: no fit
    play(d, "1 move-joker 0 4D")
    assert d.combinations[0].code == "4D 5D 6D JK=7D" and d.combinations[0].cards[-1].crossways
    assert not [t for t in texts(d) if "move-joker" in t]


# -- Colonel -----------------------------------------------------------------------------

C0 = "AC 2C 3C 4D 5D 6D 7S 8S 9S KH"  # pips with ace 1: 1+2+3+4+5+6+7+8+9+10 = 55
C1 = "KC KD QS QH JC JD 10C 10H 9H 8H"  # 10*8 + 9 + 8 = 97


def test_colonel_pone_starts_draw_turn_up_or_pack_or_challenge() -> None:
    d = arrange("colonel", [C0, C1], "5H")
    assert d.to_move() == 1
    assert texts(d) == ["1 challenge", "1 draw pack", "1 draw stock"]


def test_colonel_challenge_accepted_lower_hand_wins_the_others_pips() -> None:
    d = arrange("colonel", [C0, C1], "5H")
    play(d, "1 challenge")
    assert d.to_move() == 0 and texts(d) == ["0 accept", "0 decline"]
    play(d, "0 accept")
    o = d.outcome()
    assert o is not None and o.kind == "challenge" and o.winner == 0
    assert o.pips == (55, 97) and o.payments == (97, -97)


def test_colonel_challenge_declined_play_on_one_challenge_a_turn() -> None:
    d = arrange("colonel", [C0, C1], "5H", "AD")
    play(d, "1 challenge", "0 decline")
    assert d.to_move() == 1 and texts(d) == ["1 draw pack", "1 draw stock"]
    with pytest.raises(IllegalActionError):
        d.apply(act("1 challenge"))
    play(d, "1 draw pack")
    with pytest.raises(IllegalActionError):
        d.apply(act("1 challenge"))  # only before drawing


def test_colonel_challenge_tie_pays_nothing() -> None:
    d = arrange("colonel", ["AC 2C 3C 4D 5D 6D 7S 8S 9S KH", "AD 2D 3D 4S 5S 6S 7H 8H 9H KS"], "5H")
    play(d, "1 challenge", "0 accept")
    o = d.outcome()
    assert o is not None and o.winner is None and o.payments == (0, 0)


def test_colonel_lay_off_on_the_opponents_combination_and_go_out() -> None:
    d = arrange("colonel", [C0, "KC KD KS QH JC JD 10C 10H 9H 8H"], "5H", "AH 4C")
    play(d, "1 draw pack", "1 layout KC KD KS", "1 discard AH")
    play(d, "0 draw pack", "0 layout AC 2C 3C 4C", "0 layout 4D 5D 6D", "0 layout 7S 8S 9S")
    play(d, "0 add 0 KH")
    o = d.outcome()
    assert o is not None and o.kind == "out" and o.winner == 0
    assert o.pips[1] == 10 + 10 + 10 + 10 + 10 + 9 + 8 and o.payments == (67, -67)


def test_colonel_pack_exhausted_lower_hand_wins_the_difference() -> None:
    d = arrange("colonel", [C0, C1], "5H")
    while not d.is_over():
        seat = d.to_move()
        assert seat is not None
        d.apply(act(f"{seat} draw pack"))
        d.apply(act(f"{seat} discard {d.log[-1].cards[0]}"))
    o = d.outcome()
    assert o is not None and o.kind == "exhausted" and d.pack_count == 0
    assert o.winner == 0 and o.payments == (97 - 55, 55 - 97)


def test_colonel_ace_high_or_low_never_round_the_corner() -> None:
    d = arrange("colonel", ["AC 2C 3C QD KD AD KS 7S 8S 9S", "KC QC QS QH JC JD 10C 10H 9H 8H"],
                "5H", "AH AS")  # fmt: skip
    play(d, "1 draw pack", "1 discard AH", "0 draw pack")
    assert {"0 layout AC 2C 3C", "0 layout QD KD AD"} <= set(texts(d))
    with pytest.raises(IllegalActionError) as e:
        d.apply(act("0 layout KS AS 2C"))
    assert e.value.law in ("L15", "L16")


def test_colonel_cl1_ten_each_one_at_a_time_the_next_card_turned_starts_the_stock() -> None:
    # seed 003 (CL-1): ten each, singly, from the dealer's left; the "optional card"
    # turned up starts the stock
    pack = make_pack(PackKind.SINGLE)
    d = new_deal(make_rules("colonel"), 2, 0, pack=pack)
    view = d.player_view(1)
    # the dealer's left (seat 1) takes the 1st, 3rd, ... card; the dealer the 2nd, 4th, ...
    assert sorted(view["hand"]) == sorted(c.code for c in pack[0:20:2])
    assert sorted(d.player_view(0)["hand"]) == sorted(c.code for c in pack[1:20:2])
    assert view["stock"] == [pack[20].code]


def test_colonel_cl1_going_out_may_end_with_a_discard() -> None:
    # seed 003 (CL-1): unlike Conquián's eleven down, the last card may be discarded
    d = arrange("colonel", [C0, C1], "5H", "QC 4C")
    play(d, "1 draw pack", "1 discard QC", "0 draw pack")
    play(d, "0 layout AC 2C 3C 4C", "0 layout 4D 5D 6D", "0 layout 7S 8S 9S", "0 discard KH")
    o = d.outcome()
    assert o is not None and o.kind == "out" and o.winner == 0
    assert o.payments == (97, -97)  # the other's pips (C1)
