"""The members' forms: a member added by the secretary, a password chosen (issue 78)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class AddMemberForm(forms.Form):
    display_name = forms.CharField(
        max_length=80,
        label=_("Name"),
        help_text=_("As the club knows them: Mary Newcomer."),
        error_messages={"required": _("Give the member's name.")},
    )
    username = forms.CharField(
        max_length=150,
        required=False,
        label=_("Username (optional)"),
        help_text=_("Made from the name if left empty."),
    )
    email = forms.CharField(max_length=254, required=False, label=_("E-mail (optional)"))


class ChoosePasswordForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password", "autofocus": True}),
        help_text=_("At least 8 characters, not all digits, not a common password."),
        error_messages={"required": _("Choose a password.")},
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
