"""The setup page's form: "Start your club" (issue 78)."""

from __future__ import annotations

import zoneinfo

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from club.models import variant_choices


def _zones() -> list[tuple[str, str]]:
    return [(z, z.replace("_", " ")) for z in sorted(zoneinfo.available_timezones())]


class StartClubForm(forms.Form):
    code = forms.CharField(widget=forms.HiddenInput)
    name = forms.CharField(
        max_length=80,
        label=_("The club's name"),
        help_text=_("As members will see it at the top of every page."),
        error_messages={"required": _("Give the club's name.")},
    )
    time_zone = forms.ChoiceField(
        choices=_zones,
        label=_("Time zone"),
        help_text=_("Evenings and statements show the club's local time."),
    )
    currency_symbol = forms.CharField(
        max_length=4, label=_("Currency symbol"), initial="£", help_text=_("£, $, €, MX$ …")
    )
    currency_places = forms.TypedChoiceField(
        coerce=int,
        choices=[(2, "2 (0.05)"), (1, "1 (0.5)"), (0, _("0 (whole units)"))],
        initial=2,
        label=_("Decimal places of money"),
    )
    default_variant = forms.ChoiceField(choices=variant_choices, label=_("The club's usual game"))
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        required=False,  # not given: the settings' LANGUAGE_CODE
        label=_("The club's language"),
        help_text=_("Each member may choose a language; until then, the browser's comes first."),
    )
    display_name = forms.CharField(
        max_length=80,
        label=_("Secretary's name"),
        help_text=_("As members will see it."),
        error_messages={"required": _("Give the secretary's name.")},
    )
    username = forms.CharField(
        max_length=150,
        label=_("Secretary's username"),
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
        error_messages={"required": _("Give the secretary's username.")},
    )
    password = forms.CharField(
        label=_("Secretary's password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("At least 8 characters, not all digits, not a common password."),
        error_messages={"required": _("Choose the secretary's password.")},
    )
    password_again = forms.CharField(
        label=_("The password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        error_messages={"required": _("Type the password again.")},
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("password") and data.get("password_again") not in (None, data["password"]):
            self.add_error("password_again", _("The two passwords differ."))
        return data
