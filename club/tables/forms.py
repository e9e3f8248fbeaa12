"""Forms of a table: forming one, a physical deal's result, a substitute.

Validation only: the services decide."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import Case, When
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import (
    Member,
    Table,
    variant_choices,
)
from club.office.forms import OptionFields, add_option_fields, rules_choice
from club.services import house_rules
from games.engine.variant import first_variant

if TYPE_CHECKING:
    from games.engine.variant import Variant


class FormTableForm(OptionFields, forms.Form):
    variant = forms.ChoiceField(choices=variant_choices, label=_("Game"))
    players = forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(), required=False, label=_("Who plays"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick who sits together (L3 lets the club choose); none ticked: everyone "
        "waiting, in order of arrival, and the cut decides when there are more than places."),
    )  # fmt: skip
    size = forms.IntegerField(
        min_value=2, max_value=7, required=False, label=_("Players"),
        help_text=_("Empty: as many as the game usually seats."),
    )  # fmt: skip
    mode = forms.ChoiceField(
        choices=[(Table.ONLINE, _("in the browser")), (Table.PHYSICAL, _("real cards"))],
        label=_("Played"),
    )
    computers = forms.IntegerField(
        min_value=0, max_value=6, required=False, initial=0, label=_("Computer players"),
        help_text=_("Tables in the browser only: seats the members leave empty. Such a table "
        "is not staked."),
    )  # fmt: skip
    fill = forms.BooleanField(
        required=False, label=_("Fill the empty seats with computer players"),
        help_text=_("In the browser: when fewer members play than the table's players."),
    )  # fmt: skip
    auto_redraw = forms.BooleanField(required=False, label=_("Redraw seats every hour"))
    house_rules = rules_choice(
        _("House rules"),
        _("none: the options below"),
        _("A set the club saved; the table copies it as it is now."),
    )

    def __init__(self, *args: Any, session: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        start = house_rules.default_for(
            session.default_variant if session else first_variant().name, session
        )
        self.fields["house_rules"].initial = start.pk if start else None
        add_option_fields(self, session)
        if session is not None:  # the members waiting now (the service checks again)
            from club.services.tables import waiting_members

            # Listed in order of arrival, as the hint says and the cut would take them (L3).
            waiting = [a.member_id for a in waiting_members(session)]
            arrival = Case(*(When(pk=pk, then=i) for i, pk in enumerate(waiting)))
            self.fields["players"].queryset = Member.objects.filter(  # type: ignore[attr-defined]
                pk__in=waiting
            ).order_by(arrival)


class ResultForm(forms.Form):
    """A physical deal: the winner, and for each other player his pips or his cards."""

    winner = forms.TypedChoiceField(
        coerce=int, label=_("Who went out"), error_messages={"required": _("Say who went out.")}
    )
    note = forms.CharField(
        max_length=200, required=False, label=_("Note"), help_text=_("Kept on the washbook line.")
    )

    def __init__(
        self, *args: Any, players: list[Member], game: Variant | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        # No one chosen until the secretary chooses (issue 79: the first player was taken
        # as the winner of a form sent without one).
        self.fields["winner"].choices = [("", "— choose —")] + [
            (m.pk, m.display_name) for m in players
        ]
        # A game whose deals end in more ways than one winner collecting (Tonk): how the
        # deal ended, the player it names, and every player's count when it asks them.
        self.endings = game.endings if game is not None else ()
        counts = bool(self.endings)
        for m in players:
            said = {"name": m.display_name}
            self.fields[f"pips_{m.pk}"] = forms.IntegerField(
                min_value=0, max_value=1000, required=False,
                label=(gettext("%(name)s: count in hand") if counts
                       else gettext("%(name)s: pips in hand")) % said,
                error_messages={
                    "invalid": (gettext("%(name)s's count is a whole number.") if counts
                                else gettext("%(name)s's pips are a whole number.")) % said,
                    "min_value": (gettext("%(name)s's count cannot be negative.") if counts
                                  else gettext("%(name)s's pips cannot be negative.")) % said,
                    "max_value": (gettext("%(name)s's count cannot be over 1000.") if counts
                                  else gettext("%(name)s's pips cannot be over 1000.")) % said,
                },
            )  # fmt: skip
            self.fields[f"cards_{m.pk}"] = forms.CharField(
                max_length=120,
                required=False,
                label=_("or the cards left in hand"),
                help_text=_("e.g. KS 5H JK"),
            )
            if not self.endings:
                self.fields[f"extra_{m.pk}"] = forms.IntegerField(
                    min_value=0, max_value=1000, required=False,
                    label=_("extra points paid (splash, ratting, foul hand)"),
                    error_messages={
                        "invalid": gettext("%(name)s's extra points are a whole number.") % said,
                        "min_value": gettext("%(name)s's extra points cannot be negative.") % said,
                    },
                )  # fmt: skip
        if self.endings:
            self.fields["ending"] = forms.ChoiceField(
                label=_("How the deal ended"),
                choices=[("", "— choose —")] + [(e.name, f"{e.label} ({e.law})") for e in self.endings],
                error_messages={"required": _("Say how the deal ended.")},
            )  # fmt: skip
            named = sorted({e.seat for e in self.endings if e.seat})
            winner = self.fields["winner"]
            winner.label = "Who: " + ", ".join(named)
            winner.help_text = "Leave it at “nobody” when the deal ended with every hand counted."
            winner.required = False
            winner.choices = [("", "— nobody —"), *winner.choices[1:]]
            winner.empty_value = None  # type: ignore[attr-defined]
            for m in players:
                self.fields[f"pips_{m.pk}"].help_text = "asked after a drop or an empty pack"
            self.order_fields(["ending", "winner"])

    def player_fields(self) -> list[tuple[Member, Any, Any, Any]]:
        return [
            (m, self[f"pips_{m.pk}"], self[f"cards_{m.pk}"], self._extra(m)) for m in self.players
        ]

    def _extra(self, m: Member) -> Any:
        return self[f"extra_{m.pk}"] if f"extra_{m.pk}" in self.fields else None


class SubstituteForm(forms.Form):
    substitute = forms.ModelChoiceField(queryset=Member.objects.filter(is_bot=False, active=True))
