"""House rules at club tables (issue 43): named sets of a game's options, checked by the
engine, chosen when a table is formed (or by the evening), copied into the table so that
changing a set never changes a table already formed, and shown wherever a result is read:
the table's page, its rules page, the console, the washbook and its CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.models import AuditEntry, ClubSession, HouseRules, Member, Table
from club.services import house_rules
from club.services.base import ClubError
from club.services.sessions import check_in, open_session
from club.services.tables import form_table
from club.services.washbook import PhysicalResult, enter_physical_result
from games.engine.rules import make_rules
from games.engine.variant import VARIANTS, DealStart

from .conftest import field_error

pytestmark = pytest.mark.django_db

DALTON = {"ratting": "six", "jokers": "spade-twos"}


def _dalton(**kw: object) -> HouseRules:
    return house_rules.save(name="Dalton rules", variant="foster", options=DALTON, **kw)


def test_a_set_holds_every_option_checked_by_the_engine() -> None:
    rules = _dalton()
    assert rules.options == {"splash": 0, "ratting": "six", "jokers": "spade-twos",
                             "max_turnovers": 100}  # fmt: skip
    assert make_rules("foster", rules.options).opt("jokers") == "spade-twos"
    assert (
        house_rules.described("foster", rules.options)
        == "Ratting: a first show of six cards or more; Jokers: the two deuces of spades"
    )


@pytest.mark.parametrize(
    ("variant", "options", "field", "words"),
    [
        ("foster", {"ratting": "seven"}, "opt-foster-ratting", "not 'seven'"),
        ("foster", {"splash": "30"}, "opt-foster-splash", "one of none, 25 points, 50 points"),
        ("foster", {"scoring": "pips"}, "variant", "has no option scoring"),
        ("tunk", {"jokers": "jokers"}, "variant", "it has none"),
    ],
)
def test_an_option_out_of_range_or_not_of_the_game_is_refused_beside_its_field(
    variant: str, options: dict[str, str], field: str, words: str
) -> None:
    with pytest.raises(ClubError, match=words) as refused:
        house_rules.save(name="Bad", variant=variant, options=options)
    assert refused.value.each()[0].field == field
    assert not HouseRules.objects.exists()


def test_one_default_a_game_and_one_name_a_game() -> None:
    first = _dalton(default=True)
    second = house_rules.save(
        name="Tuesday rules", variant="foster", options={"splash": 25}, default=True
    )
    first.refresh_from_db()
    assert second.is_default and not first.is_default
    with pytest.raises(ClubError, match="already have a set called dalton rules") as refused:
        house_rules.save(name="dalton rules", variant="foster", options={})
    assert refused.value.each()[0].field == "name"
    # The same name for another game is another set.
    assert house_rules.save(name="Dalton rules", variant="conquian", options={}).pk


def _four(session: ClubSession, make_members: Callable[..., list[Member]]) -> list[Member]:
    members = make_members(4)
    for m in members:
        check_in(session, m)
    return members


def test_the_console_forms_a_table_with_a_set_and_a_changed_set_leaves_it_as_formed(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    a, b, c, d = _four(session, make_members)
    rules = _dalton()
    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "foster", "size": "4", "mode": Table.PHYSICAL, "house_rules": rules.pk},
    )
    assert r.status_code == 302, r.content.decode()[:500]
    table = Table.objects.get(session=session)
    assert table.options == rules.options and table.house_rules_name == "Dalton rules"
    entry = AuditEntry.objects.filter(action=AuditEntry.TABLE).latest("pk")
    assert "Dalton rules" in entry.what
    # The set changes afterwards: the table keeps what it was formed with.
    house_rules.save(name="Dalton rules", variant="foster", options={"ratting": "none"},
                     rules=rules)  # fmt: skip
    table.refresh_from_db()
    assert table.options["ratting"] == "six" and table.options["jokers"] == "spade-twos"
    # Shown wherever a result is read.
    enter_physical_result(
        table.pk, PhysicalResult(winner_id=a.pk, losses={b.pk: 4, c.pk: 3, d.pk: 0})
    )
    said = (
        "Dalton rules: Ratting: a first show of six cards or more; Jokers: the two deuces of spades"
    )
    assert said in staff.get(table.get_club_url()).content.decode()
    assert said in staff.get(reverse("club:console", args=[session.pk])).content.decode()
    assert said in staff.get(reverse("club:washbook", args=[table.pk])).content.decode()
    rows = list(
        csv.reader(
            io.StringIO(
                staff.get(
                    reverse("club:washbook", args=[table.pk]), {"format": "csv"}
                ).content.decode()
            )
        )
    )
    assert rows[1][rows[0].index("rules")] == f"Cooncan, {said}"
    rules_page = staff.get(
        reverse("games:rules_variant", args=["foster"]), {"table": table.pk}
    ).content.decode()
    assert "House rules: <strong>Dalton rules</strong>" in rules_page
    assert (
        "<strong>Ratting: a first show of six cards or more</strong> (a house rule)" in rules_page
    )
    assert (
        'Jokers: the two deuces of spades</strong> (a house rule) <span class="muted">— L1, Dalton'
        in (rules_page)
    )


def test_a_set_of_another_game_or_a_value_out_of_range_forms_no_table(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    _four(session, make_members)
    tonk = house_rules.save(name="Tonk rules", variant="tonk", options={"five_card": "True"})
    url = reverse("club:table_create", args=[session.pk])
    r = staff.post(
        url, {"variant": "foster", "size": "4", "mode": Table.PHYSICAL, "house_rules": tonk.pk}
    )
    assert r.status_code == 400
    assert "Tonk rules are house rules for Tonk" in field_error(r.content.decode(), "house_rules")
    r = staff.post(
        url,
        {"variant": "foster", "size": "4", "mode": Table.PHYSICAL, "opt-foster-ratting": "ten"},
    )
    assert r.status_code == 400
    assert "not a valid choice" in field_error(r.content.decode(), "opt-foster-ratting").replace(
        "Select a valid choice. ten is not one of the available choices.", "not a valid choice"
    )
    assert not Table.objects.filter(session=session).exists()
    with pytest.raises(ClubError, match="no option scoring"):
        form_table(session, variant="foster", options={"scoring": "game-points"})


def test_the_form_offers_the_games_options_with_the_clubs_defaults_and_the_evenings_set(
    staff: Client, secretary: Member, make_members: Callable[..., list[Member]]
) -> None:
    club_default = house_rules.save(
        name="Club Conquián", variant="conquian", options={"scoring": "pips"}, default=True
    )
    dalton = _dalton()
    evening = open_session(stake="0.05", by=secretary.user, house_rules=dalton)
    page = staff.get(reverse("club:console", args=[evening.pk])).content.decode()
    assert "· house rules Dalton rules" in page  # the evening's set, in its header
    # Every option with its label, source, help and values; the club's default filled in.
    assert '<label for="id_opt-foster-ratting">Ratting (Dalton):</label>' in page
    assert "Showing down part of a hand early: free (Foster)" in page
    assert '<option value="penalty30">free, but 30 more if the ratter does not win</option>' in page
    assert '<option value="pips" selected>the loser&#x27;s pips</option>' in page
    assert f'<option value="{dalton.pk}" selected>Dalton rules</option>' in page
    assert club_default.pk
    # The option fields as the form sends them: a Conquián table of two at pips.
    a, b = make_members(2)
    for m in (a, b):
        check_in(evening, m)
    r = staff.post(
        reverse("club:table_create", args=[evening.pk]),
        {"variant": "conquian", "mode": Table.PHYSICAL, "opt-conquian-scoring": "pips",
         "opt-conquian-pack": "spanish"},
    )  # fmt: skip
    assert r.status_code == 302
    table = Table.objects.get(session=evening)
    assert table.options["scoring"] == "pips" and table.options["pack"] == "spanish"
    assert table.house_rules_name == ""


def test_a_practice_table_starts_from_a_set(
    client: Client, make_members: Callable[..., list[Member]]
) -> None:
    (me,) = make_members(1)
    client.force_login(me.user)
    rules = house_rules.save(name="Tonk club", variant="tonk", options={"deuces_wild": True})
    assert "Tonk club (Tonk" in client.get(reverse("games:practice")).content.decode()
    r = client.post(
        reverse("games:practice"), {"variant": "tonk", "house_rules": rules.pk, "players-tonk": 2}
    )
    assert r.status_code == 302
    table = Table.objects.get(is_practice=True)
    assert table.options["deuces_wild"] is True and table.house_rules_name == "Tonk club"
    r = client.post(reverse("games:practice"), {"variant": "foster", "house_rules": rules.pk})
    assert r.status_code == 400 and Table.objects.filter(is_practice=True).count() == 1


def test_the_secretary_saves_and_changes_a_set_on_its_page(staff: Client) -> None:
    url = reverse("club:house_rules")
    r = staff.post(
        url,
        {"name": "Dalton rules", "variant": "foster", "opt-foster-ratting": "six",
         "opt-foster-jokers": "spade-twos", "is_default": "on"},
    )  # fmt: skip
    assert r.status_code == 302
    saved = HouseRules.objects.get()
    assert saved.is_default and saved.options["ratting"] == "six"
    page = staff.get(url).content.decode()
    assert (
        "Dalton rules" in page
        and "Ratting: a first show of six cards or more; Jokers: the two deuces of spades" in page
    )
    r = staff.post(url, {"edit": saved.pk, "name": "", "variant": "foster"})
    assert r.status_code == 400 and field_error(r.content.decode(), "name")
    r = staff.post(url, {"name": "Odd", "variant": "foster", "opt-foster-splash": "30"})
    assert r.status_code == 400 and field_error(r.content.decode(), "opt-foster-splash")
    assert HouseRules.objects.count() == 1
    assert AuditEntry.objects.filter(action=AuditEntry.HOUSE_RULES).count() == 1


# --- The sources' named sets (issue 80, item 6) -------------------------------------------


def test_a_club_starts_with_the_sources_named_sets_and_a_table_plays_by_them(
    make_members: Any,
) -> None:
    from club.services import setup
    from games.engine.conquian.deal import ConquianDeal

    secretary = setup.start_club(
        setup.setup_code(),
        setup.NewClub(
            name="Own", time_zone="UTC", currency_symbol="£", currency_places=2,
            default_variant="conquian", username="own", display_name="Own Sec",
            password="a long pass phrase",
        ),
    )  # fmt: skip
    sets = {r.name: r for r in HouseRules.objects.filter(variant="conquian")}
    assert set(sets) == {"Foster's Conquián", "Conquián as played today"}
    today = sets["Conquián as played today"].options
    # seed 004: the Spanish forty, no upcard, ten dealt one at a time; the rest Foster's
    assert (today["pack"], today["upcard"], today["deal"]) == ("spanish", False, "singly")
    assert sets["Foster's Conquián"].options == {
        o.name: o.default for o in VARIANTS["conquian"].options
    }
    # a table formed with the set deals as the set says
    session = open_session(stake=Decimal("0.05"), by=secretary.user)
    a, b = make_members(2)
    check_in(session, a)
    check_in(session, b)
    table = form_table(session, variant="conquian", house_rules=sets["Conquián as played today"])
    assert table.house_rules_name == "Conquián as played today"
    deal = VARIANTS["conquian"].deal(make_rules("conquian", table.options), 2, 0, DealStart(seed=1))
    assert isinstance(deal, ConquianDeal) and deal.to_move() is not None
    assert deal.spectator_view()["phase"] == "turn"  # no upcard: the pone turns the first


def test_the_named_sets_never_change_a_clubs_own_set_of_that_name() -> None:
    own = house_rules.save(
        name="conquián as played today", variant="conquian", options={"pack": "full"}
    )
    added = house_rules.add_named_sets()
    assert [r.name for r in added] == ["Foster's Conquián"]
    own.refresh_from_db()
    assert own.options["pack"] == "full"
    assert house_rules.add_named_sets() == []  # nothing twice
