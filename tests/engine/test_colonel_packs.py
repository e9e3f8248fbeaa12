"""Colonel with a 40-card pack (issue 58, CL-opt-1, seed 003: "A single, 40-card,
Spanish-suited pack was traditionally used, but a French pack may be used either without
the courts or without the 8, 9 and 10"), law by law, and over 1,000 random deals of each:
cards conserved, points summing to zero, the replay and the snapshot round trip."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import make_rules, new_deal
from games.engine.deal import deal_from_json
from games.engine.errors import IllegalActionError, InvalidActionError
from games.engine.rummy.deal import RummyDeal
from tests.engine.helpers import act, arrange, play, texts
from tests.scale import scaled

# seat 1 is the pone (seat 0 deals) and plays first
JUNK = "2C 3D 4S 5C 6D 2S 3C 4D 5S 6C"


def test_cl_opt_1_the_spanish_pack_deals_ten_each_from_forty() -> None:
    d = arrange("colonel", [JUNK, "6H 7H JH QS KS AS 2D 3S 4C 5D"], "QH", pack="spanish")
    v = d.player_view(1)
    assert v["hand_counts"] == [10, 10] and v["pack_count"] == 19
    assert len(d.pack_order) == 40 and not {"8H", "9C", "10D"} & {c.code for c in d.pack_order}


def test_cl_opt_1_in_the_spanish_pack_the_jack_follows_the_seven() -> None:
    d = arrange("colonel", [JUNK, "6H 7H JH QS KS AS 2D 3S 4C 5D"], "QH", "KC", pack="spanish")
    play(d, "1 draw pack")
    shown = set(texts(d))
    assert {"1 layout 6H 7H JH", "1 layout QS KS AS"} <= shown  # 6 7 J; Q K A (CLO1)
    play(d, "1 layout 7H JH 6H")
    assert d.combinations[0].code == "6H 7H JH"
    with pytest.raises((IllegalActionError, InvalidActionError)):
        d.apply(act("1 layout 2D 3S 4C"))  # not one suit
    with pytest.raises(IllegalActionError) as e:
        d.apply(act("1 layout KS AS 2D"))  # round the corner
    assert e.value.law in ("L15", "L16")


def test_cl_opt_1_a_card_the_pack_lacks_is_refused_by_name() -> None:
    d = arrange("colonel", [JUNK, "6H 7H JH QS KS AS 2D 3S 4C 5D"], "QH", "KC", pack="spanish")
    play(d, "1 draw pack")
    with pytest.raises((IllegalActionError, InvalidActionError)):
        d.apply(act("1 layout 7H 8H 9H"))  # no 8 or 9 in the Spanish pack, nor in the hand


def test_cl_opt_1_the_pack_without_courts_runs_ace_to_ten_the_ace_high_after_ten() -> None:
    d = arrange("colonel", [JUNK, "8H 9H 10H 9S 10S AS 2D 3S 4C 5D"], "AH", "7D",
                pack="no-courts")  # fmt: skip
    play(d, "1 draw pack")
    shown = set(texts(d))
    assert {"1 layout 8H 9H 10H", "1 layout 9S 10S AS"} <= shown
    play(d, "1 layout 8H 9H 10H", "1 discard 7D")
    assert len(d.pack_order) == 40
    play(d, "0 draw stock")  # the 7D: seat 0 has no 7H to add


def test_cl_opt_1_adding_at_the_ends_of_a_spanish_run() -> None:
    d = arrange("colonel", [JUNK, "6H 7H JH 5H QH KS AS 2D 3S 4C"], "QC", "KH", pack="spanish")
    play(d, "1 draw pack", "1 layout 6H 7H JH")
    adds = {t for t in texts(d) if " add " in t}
    assert {"1 add 0 5H", "1 add 0 QH"} <= adds  # 5 below the 6; the queen after the jack
    play(d, "1 add 0 QH", "1 add 0 KH")
    assert d.combinations[0].code == "6H 7H JH QH KH"


@pytest.mark.parametrize("pack", ["spanish", "no-courts"])
def test_1000_random_deals_conserve_cards_sum_to_zero_and_replay(pack: str) -> None:
    rules = make_rules("colonel", pack=pack)
    rng = random.Random(40)
    ends = set()
    for n in range(scaled(1000)):
        d = new_deal(rules, 2, n % 2, seed=n)
        assert isinstance(d, RummyDeal)
        while not d.is_over():
            seat = d.to_move()
            assert seat is not None
            legal = d.legal_actions(seat)
            calm = [a for a in legal if a.type != "challenge"]  # now and then a challenge
            d.apply(rng.choice(calm if calm and rng.random() < 0.97 else legal))
        view = d.spectator_view()
        held = sum(len(h) for h in (d.player_view(s)["hand"] for s in (0, 1)))
        laid = sum(len(c["cards"]) for c in view["combinations"])
        assert held + laid + view["pack_count"] + view["stock_count"] == 40
        out = d.outcome()
        assert out is not None and sum(out.payments) == 0
        ends.add(out.kind)
        again = new_deal(rules, 2, n % 2, seed=n)
        for a in d.history:
            again.apply(a)
        snap = json.loads(json.dumps(d.to_json()))
        assert again.to_json() == d.to_json() == deal_from_json(snap).to_json()
    assert len(ends) >= 3, ends  # out, the challenge and the exhausted pack


def test_cl_opt_1_a_state_from_a_view_keeps_the_spanish_runs() -> None:
    """The computer players' search rebuilds deals from a seat's view (from_view): a run
    6H 7H JH on the table must come back with its jack after the seven."""
    from games.engine.deal import deal_from_view
    from tests.engine.test_from_view import true_hidden

    d = arrange("colonel", [JUNK, "6H 7H JH 5H QH KS AS 2D 3S 4C"], "QC", "KH", pack="spanish")
    play(d, "1 draw pack", "1 layout 6H 7H JH", "1 discard 2D")
    rebuilt = deal_from_view(d.player_view(0), true_hidden(d, 0))
    assert rebuilt.legal_actions(0) == d.legal_actions(0)
    assert [c.lo for c in rebuilt.combinations] == [c.lo for c in d.combinations] == [6]


def test_l15_a_card_named_for_the_end_it_does_not_fit_is_refused_by_that_end() -> None:
    """A card that goes at one end only, named for the other, is refused saying so (L15),
    and goes where it fits."""
    d = arrange("colonel", [JUNK, "5H 6H 7H 8H QS KS AS 2D 3S 4C"], "QH", "KC")
    play(d, "1 draw pack", "1 layout 5H 6H 7H")
    with pytest.raises(IllegalActionError) as e:
        d.apply(act("1 add 0 8H low"))
    assert str(e.value.reason) == "8H does not fit the low end" and e.value.law == "L15"
    play(d, "1 add 0 8H")
    assert d.combinations[0].code == "5H 6H 7H 8H"
