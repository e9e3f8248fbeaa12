"""Forms of the evening: opening it, check-in, voiding a deal, closing.

Validation only: the services decide."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import (
    Arrival,
    ClubSession,
    Member,
    default_variant,
    variant_choices,
)
from club.money.forms import MONEY_INPUT
from club.office.forms import rules_choice
from club.pages.web import sentence
from club.services import money
from club.services.base import ClubError
from club.services.ledger import carried_words

if TYPE_CHECKING:
    pass


class OpenSessionForm(forms.Form):
    name = forms.CharField(
        max_length=80,
        label=_("Name of the evening"),
        help_text=_('What members will see on their statements, e.g. "Tuesday".'),
        error_messages={"required": _("Give the evening a name.")},
    )
    # Money is read as text by money.check_stake / check_amount (club.pages.inputs: ASCII
    # digits and a point only): a DecimalField takes "1e30" and "٣" (issue 53, item 3).
    stake = forms.CharField(
        initial=lambda: money.typed(Decimal("0.05")),  # as its reader types it: "0,05"
        max_length=30,
        widget=MONEY_INPUT,
        label=_("Stake"),
    )
    default_variant = forms.ChoiceField(
        choices=variant_choices, initial=default_variant, label=_("Game")
    )
    house_rules = rules_choice(
        _("The evening's house rules"),
        _("the club's defaults"),
        _("Its tables of that game start from this set."),
    )
    fee_member = forms.CharField(
        label=_("Table fee, member"), required=False, max_length=30, widget=MONEY_INPUT
    )
    fee_guest = forms.CharField(
        label=_("Table fee, guest"), required=False, max_length=30, widget=MONEY_INPUT
    )
    held_on = forms.DateField(
        required=False,
        label=_("Held on"),
        help_text=_("Today, unless the evening is entered after the fact: the day it was held."),
        widget=forms.DateInput({"type": "date"}),
        error_messages={"invalid": _("Give the day as a date, e.g. 2026-11-03.")},
    )
    second = forms.BooleanField(
        required=False,
        label=_("Open a second evening"),
        help_text=_("Only if another evening is open and both should run at once."),
    )

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip()
        if not name:
            raise forms.ValidationError(_("Give the evening a name."))
        return name

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["held_on"].widget.attrs["max"] = timezone.localdate().isoformat()
        self.fields["stake"].help_text = gettext(
            "Money a point in %(symbol)s, at most %(places)s decimal places (so that every "
            "difference can be paid), up to %(most)s."
        ) % {
            "symbol": money.symbol(),
            "places": money.places(),
            "most": money.shown_to_reader(money.MAX_STAKE),
        }
        member_fee, guest_fee = money.default_fees()
        self.fields["fee_member"].initial = money.typed(member_fee)
        self.fields["fee_member"].help_text = gettext(
            "What each member checked in pays the club for the evening, charged when it is "
            "balanced; 0 for none. The club's is %(fee)s."
        ) % {"fee": money.shown_to_reader(member_fee)}
        self.fields["fee_guest"].initial = money.typed(guest_fee)
        self.fields["fee_guest"].help_text = gettext(
            "What each guest checked in pays the club for the evening, charged when it is "
            "balanced; 0 for none. The club's is %(fee)s."
        ) % {"fee": money.shown_to_reader(guest_fee)}

    def clean_fee_member(self) -> Decimal:
        return self._fee("fee_member", gettext("a member's table fee"))

    def clean_fee_guest(self) -> Decimal:
        return self._fee("fee_guest", gettext("a guest's table fee"))

    def _fee(self, field: str, what: str) -> Decimal:
        given = self.cleaned_data[field]
        if given in (None, ""):  # left empty: the club's fee
            given = self.fields[field].initial
        try:
            return money.check_amount(given, field=field, what=what, zero=True)
        except ClubError as e:
            raise forms.ValidationError(sentence(e)) from None

    def clean_stake(self) -> Decimal:
        try:
            return money.check_stake(self.cleaned_data["stake"])
        except ClubError as e:
            raise forms.ValidationError(sentence(e)) from None


class CheckInForm(forms.Form):
    """The secretary checks members in for them (they need not log in, or own a phone),
    several at once as they come through the door, or adds a new member by name and
    checks him in."""

    member = forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(), required=False, label=_("Members arriving"),
        widget=forms.CheckboxSelectMultiple, help_text=_("Tick everyone who has come in."),
    )  # fmt: skip
    new_name = forms.CharField(
        max_length=60, required=False, label=_("and/or a new member's name"),
        help_text=_("Adds the newcomer to the club and checks the newcomer in."),
    )  # fmt: skip
    guest = forms.BooleanField(
        required=False, label=_("a guest, not a member"),
        help_text=_("A guest plays and settles like a member but is left out of the standings."),
    )  # fmt: skip

    def __init__(self, *args: Any, session: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        here = session.arrivals.filter(left_at=None).values("member_id")
        # One member, one evening (issue 79): a member present at another open evening is
        # not offered; the console lists them apart, with that evening's name.
        elsewhere = Arrival.objects.filter(left_at=None, session__status=ClubSession.OPEN).exclude(
            session=session
        )
        self.elsewhere = [
            (a.member, a.session)
            for a in elsewhere.select_related("member", "session").order_by("member__display_name")
            if not a.member.is_bot
        ]
        self.fields["member"].queryset = members = (  # type: ignore[attr-defined]
            Member.objects.filter(is_bot=False, active=True, user__is_staff=False)
            .exclude(pk__in=here)
            .exclude(pk__in=elsewhere.values("member_id"))
            .order_by("display_name")
        )
        # Each with what he brings from past evenings, before he is ticked (issue 56: the
        # balance showed only once he was checked in).
        carried = carried_words(members)
        self.fields["member"].label_from_instance = lambda m: (  # type: ignore[attr-defined]
            f"{m.display_name} ({carried[m.pk]})" if m.pk in carried else m.display_name
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen, name = list(data.get("member") or []), str(data.get("new_name") or "").strip()
        data["new_name"] = name
        if not chosen and not name:
            self.add_error("member", _("Choose a member, or give a new member's name."))
        elif data.get("guest") and not name:  # members ticked and a guest named: both
            self.add_error(
                "guest", _("A guest is added by name; a member on the list is a member.")
            )
        return data


class VoidForm(forms.Form):
    """Voiding a table or an evening after play: the reason is kept and shown."""

    reason = forms.CharField(
        max_length=200, label=_("Reason"),
        help_text=_("Kept with the washbook, e.g. \"played the wrong game\"."),
        error_messages={"required": _("Give the reason.")},
    )  # fmt: skip

    def clean_reason(self) -> str:
        reason = " ".join(str(self.cleaned_data["reason"]).split())
        if not reason:
            raise forms.ValidationError(_("Give the reason."))
        return reason


class CloseForm(forms.Form):
    """Closing an evening: what becomes of the online deals still being played."""

    WAIT, END = "wait", "end"
    deals = forms.ChoiceField(
        required=False, widget=forms.RadioSelect, label=_("The deals in progress"),
        choices=[
            (WAIT, _("Wait for them: no new deal is dealt, and the evening closes and is "
                   "balanced by itself when the last one ends")),
            (END, _("End them now, unscored")),
        ],
    )  # fmt: skip
    note = forms.CharField(
        max_length=200, required=False, label=_("Note for the players"),
        help_text=_("Shown at the tables when the evening closes, e.g. \"the room closes at eleven\"."),
    )  # fmt: skip
