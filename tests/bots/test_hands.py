"""The computer players read sequences in the pack's own order (issue 58): Conquián's
full 52 runs to the king, Colonel's Spanish 40 has the jack after the seven and its
courtless 40 the ace high after the ten; the full pack as before."""

from __future__ import annotations

from games.bots.hands import TableCombo, fits_combo, positions
from games.engine import make_rules, new_deal
from games.engine.cards import Card


def _view(variant: str, **options: object) -> dict[str, object]:
    return new_deal(make_rules(variant, options), 2, 0, seed=1).player_view(0)  # type: ignore[arg-type]


def _run(lo: int, hi: int) -> TableCombo:
    return TableCombo(0, 1, "sequence", "H", 0, lo, hi, hi - lo + 1, (False, False))


def test_conquian_full_pack_the_king_follows_the_queen() -> None:
    view = _view("conquian", pack="full")
    assert positions(Card.from_code("KH"), view) == (12,)
    assert fits_combo(Card.from_code("KH"), _run(9, 11), view)  # 10 J Q, then K
    forty = _view("conquian")
    assert positions(Card.from_code("10H"), forty) == (9,)
    assert not fits_combo(Card.from_code("AH"), _run(7, 9), forty)  # 8 9 10: the ace low only


def test_colonel_forty_card_packs_in_their_order() -> None:
    spanish = _view("colonel", pack="spanish")
    assert positions(Card.from_code("JH"), spanish) == (8,)
    assert fits_combo(Card.from_code("JH"), _run(5, 7), spanish)  # 5 6 7, then J
    assert positions(Card.from_code("AH"), spanish) == (1, 11)  # Q K A (CLO1)
    courtless = _view("colonel", pack="no-courts")
    assert fits_combo(Card.from_code("AH"), _run(8, 10), courtless)  # 8 9 10, then A
    full = _view("colonel")
    assert positions(Card.from_code("AH"), full) == (1, 14)
    assert positions(Card.from_code("JH"), full) == (11,)


def test_the_club_player_sees_a_spanish_run_take_the_jack() -> None:
    from games.bots.rummy_club import fits_table, make_context
    from games.engine.combinations import CARD_ID
    from tests.engine.helpers import arrange, play

    d = arrange("colonel", ["2C 3D 4S 5C 6D 2S 3C 4D 5S 6C", "5H 6H 7H QS KS AS 2D 3S 4C QD"],
                "QH", "KC", pack="spanish")  # fmt: skip
    play(d, "1 draw pack", "1 layout 5H 6H 7H", "1 discard KC")
    ctx = make_context(d.player_view(0))
    assert ctx.order.top == 10 and [c.lo for c in ctx.combos] == [5]
    assert fits_table(CARD_ID[Card.from_code("JH")], ctx) == 0  # 5 6 7, then the jack
    assert fits_table(CARD_ID[Card.from_code("8H")], ctx) == -1  # not in this pack's order
