"""Forms of the office: a set of house rules, and the option fields a game's rules give to
every form that chooses them (the evening's default, a table's, a set's).

Validation only: the services decide."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import (
    HouseRules,
    variant_choices,
)
from club.services import house_rules
from games.engine.variant import VARIANTS

if TYPE_CHECKING:
    pass


def rules_choice(label: str, empty: str, help_text: str) -> forms.ModelChoiceField[HouseRules]:
    """A choice of the club's house rules (issue 43), none allowed."""
    return forms.ModelChoiceField(
        queryset=HouseRules.objects.all(),
        required=False,
        label=label,
        empty_label=empty,
        help_text=help_text,
    )


def add_option_fields(form: forms.Form, session: Any = None) -> None:
    """Every game's options as fields ``opt-<game>-<option>`` (issue 43): the label with
    the option's source, its help, its values, the club's default filled in (the evening's
    or the club's default house rules for the game, else the game's own)."""
    for name, game in VARIANTS.items():
        start = house_rules.default_for(name, session)
        for spec in game.options:
            value = start.options.get(spec.name, spec.default) if start else spec.default
            form.fields[house_rules.field_name(name, spec.name)] = forms.ChoiceField(
                choices=[(str(c), gettext(spec.word(c))) for c in spec.choices],
                required=False,
                initial=str(value),
                label=f"{gettext(spec.title)} ({gettext(spec.source)})",
                help_text=capfirst(gettext(spec.help)) + ".",
            )


class OptionFields:
    """What a form with every game's option fields offers its template and its view."""

    def option_groups(self) -> list[tuple[str, str, list[Any]]]:
        """(game, its label, its option fields) for each game with options."""
        form: Any = self
        return [
            (
                name,
                gettext(game.display_name),
                [form[house_rules.field_name(name, o.name)] for o in game.options],
            )
            for name, game in VARIANTS.items()
            if game.options
        ]

    def chosen_options(self, variant: str) -> dict[str, str]:
        """The form's text for each option of ``variant`` (blank: the game's own)."""
        form: Any = self
        out: dict[str, str] = {}
        for spec in VARIANTS[variant].options:
            raw = form.cleaned_data.get(house_rules.field_name(variant, spec.name))
            out[spec.name] = raw if raw not in (None, "") else str(spec.default)
        return out

    def plain_fields(self) -> list[Any]:
        """The fields that are not a game's option (rendered before the options)."""
        form: Any = self
        return [f for f in form if not f.name.startswith("opt-")]


class HouseRulesForm(OptionFields, forms.Form):
    """A named set of one game's options (issue 43): its name, its game, each option of
    the game (the others' fields are left out of the check), the club's default or not."""

    name = forms.CharField(
        max_length=60,
        label=_("Name"),
        help_text=_("E.g. “Tuesday rules”."),
        error_messages={"required": _("Give the house rules a name, e.g. “Tuesday rules”.")},
    )
    variant = forms.ChoiceField(choices=variant_choices, label=_("Game"))
    is_default = forms.BooleanField(
        required=False,
        label=_("The club's default for the game"),
        help_text=_(
            "Filled in when a table of the game is formed, unless the evening has its own."
        ),
    )

    def __init__(self, *args: Any, rules: HouseRules | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_option_fields(self)
        if rules is not None:  # the set's own values filled in
            self.fields["name"].initial = rules.name
            self.fields["variant"].initial = rules.variant
            self.fields["is_default"].initial = rules.is_default
            for key, value in rules.options.items():
                field = house_rules.field_name(rules.variant, key)
                if field in self.fields:
                    self.fields[field].initial = str(value)
