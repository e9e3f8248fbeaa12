"""The setup page's form: "Start your club" (issue 78)."""

from __future__ import annotations

import zoneinfo

from django import forms

from club.models import variant_choices


def _zones() -> list[tuple[str, str]]:
    return [(z, z.replace("_", " ")) for z in sorted(zoneinfo.available_timezones())]


class StartClubForm(forms.Form):
    code = forms.CharField(widget=forms.HiddenInput)
    name = forms.CharField(
        max_length=80,
        label="The club's name",
        help_text="As members will see it at the top of every page.",
        error_messages={"required": "Give the club's name."},
    )
    time_zone = forms.ChoiceField(
        choices=_zones,
        label="Time zone",
        help_text="Evenings and statements show the club's local time.",
    )
    currency_symbol = forms.CharField(
        max_length=4, label="Currency symbol", initial="£", help_text="£, $, €, MX$ …"
    )
    currency_places = forms.TypedChoiceField(
        coerce=int,
        choices=[(2, "2 (0.05)"), (1, "1 (0.5)"), (0, "0 (whole units)")],
        initial=2,
        label="Decimal places of money",
    )
    default_variant = forms.ChoiceField(choices=variant_choices, label="The club's usual game")
    display_name = forms.CharField(
        max_length=80,
        label="Secretary's name",
        help_text="As members will see it.",
        error_messages={"required": "Give the secretary's name."},
    )
    username = forms.CharField(
        max_length=150,
        label="Secretary's username",
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
        error_messages={"required": "Give the secretary's username."},
    )
    password = forms.CharField(
        label="Secretary's password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="At least 8 characters, not all digits, not a common password.",
        error_messages={"required": "Choose the secretary's password."},
    )
    password_again = forms.CharField(
        label="The password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        error_messages={"required": "Type the password again."},
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("password") and data.get("password_again") not in (None, data["password"]):
            self.add_error("password_again", "The two passwords differ.")
        return data
