"""Forms of money: payments, refunds, reversals, the standings' period.

Validation only: the services decide."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import (
    Member,
    Posting,
    Transfer,
)
from club.pages.web import sentence
from club.services import money
from club.services.accounts import Period
from club.services.base import ClubError

if TYPE_CHECKING:
    pass


MONEY_INPUT = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})


class StandingsForm(forms.Form):
    """A period between two dates, both optional: the standings', the club's account's,
    a statement's, the audit log's."""

    since = forms.DateField(
        required=False, label=_("From"), widget=forms.DateInput({"type": "date"})
    )
    until = forms.DateField(required=False, label=_("To"), widget=forms.DateInput({"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The end date comes before the start date."))
        return data

    def period(self) -> Period:
        """The period the form names: every date when it is unbound or wrong (its errors
        are shown beside their fields)."""
        if self.is_bound and self.is_valid():
            return Period(self.cleaned_data["since"], self.cleaned_data["until"])
        return Period()


class PaymentForm(forms.Form):
    """The secretary records a payment a member made (issue 42, item 2): to a member he
    owes by a settlement's transfer, in full or in part, or to the club (his fees)."""

    to = forms.ChoiceField(label=_("Paid to"))
    amount = forms.CharField(label=_("Amount"), max_length=20)
    method = forms.ChoiceField(label=_("How"), choices=Posting.METHODS, initial=Posting.CASH)
    note = forms.CharField(label=_("Note"), max_length=120, required=False)
    credit = forms.BooleanField(
        required=False,
        label=_("Credit on account"),
        help_text=_(
            "To the club only: keep what is more than the member owes it as a credit "
            "the club owes the member (refunded or set against their next fees)."
        ),
    )

    def __init__(self, *args: Any, member: Member, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.member = member
        choices = [
            (
                f"t{t.pk}",
                gettext("%(payee)s for %(evening)s (%(amount)s unpaid)")
                % {
                    "payee": t.payee,
                    "evening": t.session.title,
                    "amount": money.shown_to_reader(t.amount),
                },
            )
            for t in Transfer.objects.filter(payer=member, payment__isnull=True)
            .select_related("payee", "session")
            .order_by("session__opened_at", "pk")
        ]
        self.fields["to"].choices = [*choices, ("club", gettext("the club (table fees)"))]
        self.fields["amount"].widget.attrs.update(inputmode="decimal", autocomplete="off")
        self.fields["amount"].help_text = gettext(
            "In %(symbol)s; less than a transfer pays part of it."
        ) % {"symbol": money.symbol()}

    def clean_amount(self) -> Decimal:
        try:
            return money.check_amount(
                self.cleaned_data["amount"], field="amount", what=gettext("the amount")
            )
        except ClubError as e:
            raise forms.ValidationError(sentence(e)) from None


class RefundForm(forms.Form):
    """The club pays a member back what it owes him (issue 53, item 2): at most his
    credit with the club (a credit on his account, from paying it more than his fees).
    Its fields are prefixed: the member's page holds the payment's form too, and ids
    must not clash."""

    prefix = "refund"
    amount = forms.CharField(label=_("Amount"), max_length=20, widget=MONEY_INPUT)
    method = forms.ChoiceField(label=_("How"), choices=Posting.METHODS, initial=Posting.CASH)
    note = forms.CharField(label=_("Note"), max_length=120, required=False)

    def clean_amount(self) -> Decimal:
        try:
            return money.check_amount(
                self.cleaned_data["amount"], field="amount", what=gettext("the refund")
            )
        except ClubError as e:
            raise forms.ValidationError(sentence(e)) from None


class ReversalForm(forms.Form):
    """A payment recorded by mistake is reversed with a reason (issue 53, item 2)."""

    reason = forms.CharField(
        label=_("Why is it reversed?"),
        max_length=120,
        error_messages={"required": _("Say why the payment is reversed.")},
    )
