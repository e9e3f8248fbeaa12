"""A deal played with real cards, scored (issue 82 split it from the washbook's module):
each player's points from what the secretary entered, refusing what cannot have happened
(`physical_points`), and the most pips a hand can hold at a table's game (`most_pips`).
`club.services.washbook` posts the line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils.translation import gettext

from club.models import Member, Seat, Table
from club.services.base import ClubError
from games.engine.cards import Card
from games.engine.errors import InvalidActionError
from games.engine.rules import Rules, make_rules
from games.engine.variant import find_variant, first_variant

if TYPE_CHECKING:
    from club.services.washbook import PhysicalResult


def count_pips(cards: str | Iterable[str], variant: str | None = None) -> int:
    """The pips of the cards left in a hand at a physical table of ``variant`` (its
    ``physical_pips`` in the engine's registry: Foster's values, L24, in every game; the
    registry's first game when none is named). The hand is written as the secretary
    types it: codes with spaces or commas, a joker as JK, JOKER or *.

    >>> count_pips("KS 5H JK")
    30
    >>> count_pips(["AH", "10D"])
    21
    """
    codes = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    written, bad = [], []
    for code in codes:
        c = code.strip().upper()
        if c.startswith("JK") or c in ("JOKER", "*"):
            written.append("JK")
            continue
        try:
            Card.from_code(c)
        except InvalidActionError:
            bad.append(repr(code))  # every bad card named, not the first only (issue 79)
            continue
        written.append(c)
    if bad:
        raise ClubError(
            gettext("not %(a_card_if_len)s: %(join)s (write e.g. KS, 10H, AD, JK)")
            % {"a_card_if_len": "a card" if len(bad) == 1 else "cards", "join": ", ".join(bad)}
        )
    game = find_variant(variant) if variant is not None else first_variant()
    return game.physical_pips(written)


def most_pips(table: Table, players: int | None = None) -> int:
    """The most pips a loser's hand can hold at the table's game: one card more than the
    hand dealt (he has drawn and not yet discarded), each the pack's highest (L24)."""
    game = find_variant(table.variant)
    rules = _table_rules(table)
    players = players or Seat.objects.filter(table=table).count()
    top = max(game.physical_pips([c.code]) for c in game.pack(rules))
    return (game.hand_size(rules, players) + 1) * top


def _table_rules(table: Table) -> Rules:
    try:
        return make_rules(table.variant, dict(table.options or {}))
    except InvalidActionError:
        return make_rules(table.variant)


def physical_points(
    table: Table, result: PhysicalResult, *, players: list[Member] | None = None
) -> dict[Member, int]:
    """Each player's points for a deal played with real cards, refusing what cannot have
    happened, whatever sends it: a winner who is not seated or has cards left, a player
    who is not at the table, a loser with more pips than the game's hand can hold.
    ``players``: who played the deal (a correction's: the line's players); by default
    who is seated now."""
    if players is None:
        players = [
            s.member
            for s in Seat.objects.filter(table=table).select_related("member").order_by("position")
        ]
    game = find_variant(table.variant)
    if game.endings or result.ending:
        return _ended_points(table, result, players)
    seats = {m.pk: m for m in players}
    named = set(result.losses) | set(result.cards) | set(result.extra)
    if named - set(seats):
        raise ClubError(gettext("a player named in the result is not seated at this table"))
    problems: list[ClubError] = []  # every mistake of the result, told at once
    winner = seats.get(result.winner_id) if result.winner_id is not None else None
    if winner is None:  # the other hands are still checked, and told with it
        problems.append(
            ClubError(
                "say who went out" if result.winner_id is None
                else "the winner is not seated at this table",
                field="winner",
            )
        )  # fmt: skip
    elif result.winner_id in set(result.losses) | set(result.cards):
        field_name = "cards" if result.winner_id in result.cards else "pips"
        problems.append(
            ClubError(
                gettext("%(winner)s went out: the winner has no cards left to count")
                % {"winner": winner},
                field=f"{field_name}_{result.winner_id}",
            )
        )
    if winner is not None and result.winner_id in result.extra:
        problems.append(
            ClubError(
                gettext("%(winner)s won: the winner pays nothing") % {"winner": winner},
                field=f"extra_{result.winner_id}",
            )
        )
    ceiling = most_pips(table, len(seats))
    points: dict[Member, int] = {}
    total = 0
    for member_id, member in seats.items():
        if member_id == result.winner_id:
            continue
        if member_id in result.losses and member_id in result.cards:
            problems.append(
                ClubError(
                    gettext("give %(member)s's pips or cards, not both") % {"member": member},
                    field=f"cards_{member_id}",
                )
            )
            continue
        if member_id in result.cards:
            try:
                pips = count_pips(result.cards[member_id], table.variant)
            except ClubError as e:
                problems.append(
                    ClubError(
                        gettext("%(member)s's cards: %(e)s") % {"member": member, "e": e},
                        field=f"cards_{member_id}",
                    )
                )
                continue
            where = f"cards_{member_id}"
        elif member_id in result.losses:
            pips = result.losses[member_id]
            where = f"pips_{member_id}"
        elif winner is None:
            continue  # one blank hand is the winner's, and he is not named: not a mistake
        else:
            problems.append(
                ClubError(
                    gettext(
                        "%(member)s played this deal: give the pips or the cards left in the hand"
                    )
                    % {"member": member},
                    field=f"pips_{member_id}",
                )
            )
            continue
        if pips > ceiling:
            problems.append(
                ClubError(
                    gettext(
                        "%(member)s's hand cannot hold %(pips)s pips: at most %(ceiling)s in this game"
                    )
                    % {"member": member, "pips": pips, "ceiling": ceiling},
                    field=where,
                )
            )
            continue
        pips += result.extra.get(member_id, 0)
        if pips < 0:
            problems.append(ClubError(gettext("pips cannot be negative"), field=where))
            continue
        points[member] = -pips
        total += pips
    if problems:
        raise ClubError.all_of(problems)
    if total == 0:
        raise ClubError(gettext("the losers paid nothing: enter their pips"))
    assert winner is not None  # told above
    points[winner] = total
    return points


def _ended_points(table: Table, result: PhysicalResult, players: list[Member]) -> dict[Member, int]:
    """A deal of a game with named endings (``Variant.endings``), scored by the game:
    what the secretary entered is checked field by field here, what cannot have happened
    in the game (a count no hand holds, two calls where only one fits) by the engine."""
    game = find_variant(table.variant)
    try:
        end = game.ending(result.ending)
    except InvalidActionError:
        choices = ", ".join(e.label for e in game.endings) or "name the winner"
        raise ClubError(
            f"say how the deal ended: {choices}"
            if not result.ending
            else f"{game.display_name} has no ending {result.ending!r}: {choices}",
            field="ending",
        ) from None
    seats = {m.pk: i for i, m in enumerate(players)}
    by_pk = {m.pk: m for m in players}
    named = set(result.losses) | set(result.cards) | set(result.extra)
    if result.winner_id is not None:
        named.add(result.winner_id)
    if named - set(seats):
        raise ClubError(gettext("a player named in the result is not seated at this table"))
    problems: list[ClubError] = []
    if end.seat and result.winner_id is None:
        problems.append(
            ClubError(
                gettext("%(label)s: name %(seat)s") % {"label": end.label, "seat": end.seat},
                field="winner",
            )
        )
    if not end.seat and result.winner_id is not None:
        problems.append(
            ClubError(
                gettext("%(label)s: it names no player") % {"label": end.label}, field="winner"
            )
        )
    for pk in result.extra:
        problems.append(
            ClubError(
                gettext("%(label)s: %(display_name)s has no extra points")
                % {"label": end.label, "display_name": game.display_name},
                field=f"extra_{pk}",
            )
        )
    counts: list[int] = []
    for member in players:
        pk = member.pk
        if not end.counts:
            for given, where in ((result.losses, "pips"), (result.cards, "cards")):
                if pk in given:
                    problems.append(
                        ClubError(
                            gettext("%(label)s: no hand is counted") % {"label": end.label},
                            field=f"{where}_{pk}",
                        )
                    )
            continue
        if pk in result.losses and pk in result.cards:
            problems.append(
                ClubError(
                    gettext("give %(member)s's count or cards, not both") % {"member": member},
                    field=f"cards_{pk}",
                )
            )
        elif pk in result.cards:
            try:
                counts.append(count_pips(result.cards[pk], table.variant))
            except ClubError as e:
                problems.append(
                    ClubError(
                        gettext("%(member)s's cards: %(e)s") % {"member": member, "e": e},
                        field=f"cards_{pk}",
                    )
                )
        elif pk in result.losses:
            counts.append(result.losses[pk])
        else:
            problems.append(
                ClubError(
                    gettext("%(label)s: give %(member)s's count or the cards left in the hand")
                    % {"label": end.label, "member": member},
                    field=f"pips_{pk}",
                )
            )
    if problems:
        raise ClubError.all_of(problems)
    seat = seats[result.winner_id] if result.winner_id is not None else None
    try:
        points = game.ended_points(_table_rules(table), len(players), end.name, seat, tuple(counts))
    except InvalidActionError as e:
        raise ClubError(str(e), field="ending") from None
    return {by_pk[m.pk]: p for m, p in zip(players, points, strict=True)}
