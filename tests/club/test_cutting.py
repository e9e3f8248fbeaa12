"""L2: cutting order and ties."""

from __future__ import annotations

import random
from typing import Any

import pytest

from club.tables.cutting import cut, lower_of, pack_for, rank
from games.engine.errors import InvalidActionError
from tests.club.conftest import ScriptedRandom


def test_it_ranks_king_high_ace_next_to_joker_joker_lowest() -> None:
    order = ["KS", "QH", "JD", "10C", "9S", "2H", "AD", "JK"]
    assert [rank(c) for c in order] == sorted((rank(c) for c in order), reverse=True)
    assert rank("AS") == 1 and rank("JK") == 0 and rank("KD") == 13


def test_it_ignores_suits() -> None:
    assert rank("7S") == rank("7H") == rank("7D") == rank("7C")


def test_it_takes_the_lower_of_two_exposed_cards() -> None:
    assert lower_of(["KS", "AH"]) == "AH"


def test_it_rejects_a_non_card() -> None:
    with pytest.raises(ValueError):
        rank("ZZ")


def test_it_orders_players_by_their_cuts() -> None:
    r = cut(["a", "b", "c"], ScriptedRandom(["5H", "KS", "JK"]), pack_for("foster"))
    assert r.order == ["b", "a", "c"]
    assert [(d.player, d.card, d.round) for d in r.draws] == [
        ("a", "5H", 1),
        ("b", "KS", 1),
        ("c", "JK", 1),
    ]


def test_it_cuts_ties_again_and_the_second_cut_decides_only_the_tie() -> None:
    # b and c tie on kings above a's queen; d is lowest. On the second cut c beats b,
    # but both stay above a (the tie cut decides nothing else), even with low cards.
    rng = ScriptedRandom(["QS", "KH", "KD", "3C", "2S", "4D"])
    r = cut(["a", "b", "c", "d"], rng, pack_for("foster"))
    assert r.order == ["c", "b", "a", "d"]
    assert [(d.player, d.round) for d in r.draws][-2:] == [("b", 2), ("c", 2)]


def test_it_resolves_ties_of_ties() -> None:
    rng = ScriptedRandom(["7S", "7H", "9D", "9C", "2S", "KC"])  # tie, tie, then y's king
    r = cut(["x", "y"], rng, pack_for("foster"))
    assert r.order == ["y", "x"]
    assert max(d.round for d in r.draws) == 3


def test_it_always_returns_everyone_once() -> None:
    rng = random.Random(3)
    for n in range(1, 12):
        r = cut(list(range(n)), rng, pack_for("foster"))
        assert sorted(r.order) == list(range(n))


def test_each_table_cuts_with_its_games_cutting_pack_under_its_options() -> None:
    from collections import Counter

    assert (len(pack_for("foster")), pack_for("foster").count("JK")) == (106, 2)
    assert Counter(pack_for("foster")) == Counter(pack_for("foster", {"jokers": "spade-twos"}))
    assert len(pack_for("conquian")) == 40 and "KS" not in pack_for("conquian", {"pack": "spanish"})
    assert (len(pack_for("colonel")), pack_for("colonel").count("JK")) == (52, 0)
    # The three-hand table cuts with the pack it deals: a joker only when dealt with one.
    assert (len(pack_for("foster-three")), pack_for("foster-three").count("JK")) == (52, 0)
    assert pack_for("foster-three", {"joker": True}).count("JK") == 1
    assert all(rank(c) >= 0 for c in pack_for("foster"))  # every code is one the cut reads


def test_a_cut_never_fails_for_options_its_game_does_not_take() -> None:
    assert pack_for("colonel", {"scoring": "pips"}) == pack_for("colonel")
    assert pack_for("foster-three", {"joker": "maybe"}) == pack_for("foster-three")
    with pytest.raises(InvalidActionError, match="unknown variant 'chess'"):
        pack_for("chess")


def test_c_opt_2_a_low_cut_puts_the_lowest_first_and_its_ties_cut_low_again() -> None:
    # seed 004 (C-opt-2): players draw; the lowest picks his seat and deals first
    r = cut(["a", "b", "c"], ScriptedRandom(["5H", "KS", "2C"]), pack_for("conquian"), low=True)
    assert r.order == ["c", "a", "b"]
    rng = ScriptedRandom(["3S", "3H", "KD", "9C", "4D"])  # a and b tie low; b cuts lower
    r = cut(["a", "b", "c"], rng, pack_for("conquian"), low=True)
    assert r.order == ["b", "a", "c"]


@pytest.mark.django_db
def test_c_opt_2_at_a_conquian_table_cut_low_the_lowest_takes_seat_one_and_deals(
    make_members: Any, secretary: Any
) -> None:
    from club.models import CutBatch, Seat, Table
    from club.services.sessions import check_in, open_session
    from club.services.tables import form_table
    from club.tables.cutting import lowest_deals

    assert lowest_deals("conquian", {"cut": "low"}) == "C-opt-2" and not lowest_deals("conquian")
    assert not lowest_deals("foster", {"cut": "low"})  # an option Foster does not take
    assert lowest_deals("colonel", {"cut": "low"}) == "CL-1" and not lowest_deals("colonel")
    evening = open_session(stake="0.05", by=secretary.user, name="Friday")
    tables = {}
    for cut_for in ("high", "low"):
        pair = make_members(2)
        for m in pair:
            check_in(evening, m)
        tables[cut_for] = form_table(
            evening, variant="conquian", size=2, mode=Table.PHYSICAL, candidates=pair,
            options={"cut": cut_for},
        )  # fmt: skip
    for cut_for, table in tables.items():
        batch = CutBatch.objects.get(table=table, purpose=CutBatch.SEATS)
        last = max(d.round for d in batch.draws.all())
        final = {d.member_id: rank(d.card) for d in batch.draws.all() if d.round == last}
        first = Seat.objects.get(table=table, position=0).member_id
        if len(final) == 2:  # no tie to the end: the seat-one cut is the low or the high one
            pick = min if cut_for == "low" else max
            assert final[first] == pick(final.values()), (cut_for, final)
        assert ("the lowest cut deals (C-opt-2)" in batch.note) == (cut_for == "low")
