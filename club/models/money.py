"""The ledger (`Posting` + `Leg`): money, double-entry in the django-hordak manner, a posting's legs summing to zero; members' and the club's accounts; a settlement's transfers."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from club.models.evenings import ClubSession
from club.models.members import Member


class Account(models.Model):
    """A member's money account, or the club's own (``is_club``: table fees and what
    members pay the club). ``balance`` is a cache, verified against the legs."""

    member = models.OneToOneField(
        Member, on_delete=models.PROTECT, related_name="account", null=True, blank=True
    )
    is_club = models.BooleanField(default=False, db_default=False)
    balance = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0.00"))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["is_club"], condition=Q(is_club=True), name="one_club_account"
            ),
            models.CheckConstraint(
                condition=Q(is_club=True, member__isnull=True)
                | Q(is_club=False, member__isnull=False),
                name="account_of_a_member_or_the_club",
            ),
        ]

    def __str__(self) -> str:
        return "The club's account" if self.is_club else f"Account of {self.member}"


class Posting(models.Model):
    """A double-entry transaction. Positive legs: the club owes the member more."""

    SESSION_BALANCE, PAYMENT, ADJUSTMENT, FEE = "session-balance", "payment", "adjustment", "fee"
    REVERSAL, REFUND = "reversal", "refund"
    CASH, BANK = "cash", "bank"
    METHODS = [(CASH, _("in cash")), (BANK, _("by bank transfer"))]
    kind = models.CharField(
        max_length=20,
        choices=[
            (SESSION_BALANCE, _("evening's balance")),
            (PAYMENT, pgettext_lazy("posting", "payment")),
            # A washbook line corrected after its evening was balanced (the memo says
            # which line and why): only the members the correction changes have legs.
            (ADJUSTMENT, _("adjustment")),
            # The evening's table fees: each member checked in pays the club (issue 42).
            (FEE, _("table fee")),
            # A payment recorded by mistake is reversed, never edited (issue 53): the
            # opposite legs, the reason in the memo, `reverses` naming the payment.
            (REVERSAL, _("payment reversed")),
            # The club pays a member back what it owes him (a credit on account).
            (REFUND, _("refund from the club")),
        ],
    )
    method = models.CharField(
        max_length=10,
        choices=METHODS,
        blank=True,
        db_default="",
        help_text="How a payment was made.",
    )
    session = models.ForeignKey(
        ClubSession, on_delete=models.PROTECT, null=True, blank=True, related_name="postings"
    )
    memo = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    sealed = models.BooleanField(default=False)
    # A reversal's payment (or refund): one reversal a payment, by the unique key.
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversal"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            # Exactly-once balancing: one balance posting per session, ever.
            models.UniqueConstraint(
                fields=["session"],
                condition=Q(kind="session-balance"),
                name="one_balance_posting_per_session",
            ),
            models.UniqueConstraint(
                fields=["session"], condition=Q(kind="fee"), name="one_fee_posting_per_session"
            ),
            models.CheckConstraint(
                condition=Q(kind="reversal", reverses__isnull=False)
                | (~Q(kind="reversal") & Q(reverses__isnull=True)),
                name="a_reversal_names_its_payment",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class Leg(models.Model):
    posting = models.ForeignKey(Posting, on_delete=models.PROTECT, related_name="legs")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="legs")
    amount = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["posting", "pk"]
        indexes = [models.Index(fields=["account", "posting"], name="leg_account_posting")]

    def __str__(self) -> str:
        return f"{self.account} {self.amount:+}"


class Transfer(models.Model):
    """One transfer of a session's settlement: ``payer`` pays ``payee`` ``amount``."""

    session = models.ForeignKey(ClubSession, on_delete=models.CASCADE, related_name="transfers")
    payer = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    payment = models.OneToOneField(
        Posting, on_delete=models.PROTECT, null=True, blank=True, related_name="transfer"
    )
    # Set on the transfers that settle an adjustment posted after the balancing (a line
    # corrected later); None for the balancing's own settlement.
    adjustment = models.ForeignKey(
        Posting, on_delete=models.PROTECT, null=True, blank=True, related_name="settling"
    )

    class Meta:
        ordering = ["session", "-amount", "pk"]

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"

    @property
    def paid(self) -> bool:
        return self.payment_id is not None
