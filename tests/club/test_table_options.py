"""A table whose game and options disagree (issue 29, item 4): it cannot be formed (a
clear message beside the field, nothing made), and one made before the check answers
with a clear page, not an error, and can be cancelled."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubSession, Member, Table
from club.services.base import ClubError
from club.services.sessions import check_in
from club.services.tables import form_table

from .conftest import field_error

pytestmark = pytest.mark.django_db


def test_a_table_with_an_option_value_the_game_has_not_is_refused_beside_the_field(
    staff: Client, session: ClubSession, make_members: Callable[..., list[Member]]
) -> None:
    """The form offers the chosen game's own options only (issue 43); a value it has not
    is refused beside its field, and another game's option cannot be given at all."""
    for m in make_members(5):
        check_in(session, m)
    r = staff.post(
        reverse("club:table_create", args=[session.pk]),
        {"variant": "foster", "size": "5", "mode": Table.ONLINE, "opt-foster-splash": "30"},
    )
    assert r.status_code == 400
    assert "30 is not one of the available choices" in field_error(
        r.content.decode(), "opt-foster-splash"
    )
    assert not Table.objects.filter(session=session).exists()
    with pytest.raises(ClubError, match="no option scoring"):
        form_table(session, variant="foster", options={"scoring": "game-points"})


def test_a_table_made_with_options_that_do_not_fit_shows_a_page_and_can_be_cancelled(
    staff: Client,
    session: ClubSession,
    make_members: Callable[..., list[Member]],
) -> None:
    members = make_members(4)
    for m in members:
        check_in(session, m)
    table = form_table(session, variant="foster", size=4)
    Table.objects.filter(pk=table.pk).update(options={"scoring": "game-points"})  # as of old
    player = Client()
    player.force_login(members[0].user)
    r = player.get(f"/tables/{table.pk}/")
    assert r.status_code == 200
    assert "No deal can be dealt here" in r.content.decode()
    assert staff.get(reverse("club:console", args=[session.pk])).status_code == 200
    r = staff.post(reverse("club:table_cancel", args=[table.pk]))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.CLOSED
