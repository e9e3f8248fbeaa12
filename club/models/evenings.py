"""Evenings (sessions): opened with a stake and fees, closed, balanced; who arrived and left."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from club.models.members import HouseRules, Member
from club.models.variants import default_variant, variant_choices


class ClubSession(models.Model):
    """An evening: opened by the secretary with a stake, closed, then balanced (Celery)."""

    OPEN, CLOSING, BALANCING, BALANCED, FAILED, CANCELLED, VOIDED = (
        "open",
        "closing",
        "balancing",
        "balanced",
        "failed",
        "cancelled",
        "voided",
    )
    STATUSES = [
        (OPEN, pgettext_lazy("evening", "open")),
        (CLOSING, _("closing (queued for balancing)")),
        (BALANCING, _("balancing")),
        (BALANCED, pgettext_lazy("evening", "balanced")),
        (FAILED, _("balancing failed")),
        (CANCELLED, _("cancelled (nothing was played)")),
        (VOIDED, _("voided (never balanced)")),
    ]

    name = models.CharField(max_length=80, blank=True)
    stake = models.DecimalField(
        max_digits=12, decimal_places=4, help_text="Money per point, e.g. 0.0100."
    )
    default_variant = models.CharField(
        max_length=20, choices=variant_choices, default=default_variant
    )
    status = models.CharField(max_length=12, choices=STATUSES, default=OPEN)
    opened_at = models.DateTimeField(default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    balanced_at = models.DateTimeField(null=True, blank=True)
    balance_note = models.TextField(blank=True)
    void_reason = models.CharField(max_length=200, blank=True)
    # Table fees (issue 42, item 3): what each member and each guest checked in pays the
    # club for the evening, charged when it is balanced; 0 charges nothing.
    fee_member = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        default=Decimal("0.00"),
        db_default=Decimal("0.00"),
        verbose_name="table fee, member",
    )
    fee_guest = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        default=Decimal("0.00"),
        db_default=Decimal("0.00"),
        verbose_name="table fee, guest",
    )
    settlement_method = models.CharField(max_length=10, blank=True)  # "exact" | "greedy"
    # "Close when the deals in progress end": no new deal is dealt at its tables, and the
    # evening closes (with this note) once the last one is booked (`finish_close_if_due`).
    close_requested_at = models.DateTimeField(null=True, blank=True)
    close_note = models.CharField(max_length=200, blank=True)
    # The evening's house rules (issue 43): the set its tables of that game start from.
    house_rules = models.ForeignKey(
        HouseRules, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-opened_at"]
        verbose_name = "session"
        # What money depends on, kept by the database too (issue 53, item 1): no path
        # (the admin, a shell, a script) can write a stake of nothing or less, or a
        # negative fee. Migration 0016 also fixes stake and fees once the evening has a
        # table (a trigger: a check cannot see other rows).
        constraints = [
            models.CheckConstraint(condition=Q(stake__gt=0), name="session_stake_positive"),
            models.CheckConstraint(
                condition=Q(fee_member__gte=0, fee_guest__gte=0), name="session_fees_not_negative"
            ),
        ]

    def __str__(self) -> str:
        """Its name in the books (the audit's and the ledger's stored words: English)."""
        return self.name or f"Evening of {self.opened_at:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("club:session", args=[self.pk])

    @property
    def title(self) -> str:
        """Its name on a page, in the reader's language (issue 82)."""
        return self.name or gettext("Evening of %(day)s") % {"day": f"{self.opened_at:%Y-%m-%d}"}

    def fee_for(self, is_guest: bool) -> Decimal:
        """The evening's table fee for a guest or a member (issue 42, item 3)."""
        return self.fee_guest if is_guest else self.fee_member

    @property
    def is_open(self) -> bool:
        return self.status == self.OPEN

    @property
    def is_closing_after_deals(self) -> bool:
        """Open, waiting for its deals in progress to end before it closes."""
        return self.status == self.OPEN and self.close_requested_at is not None


class Arrival(models.Model):
    """A member checked in to a session. ``order`` is the order of arrival (L3 prior right).

    ``queue_table``/``queue_seq``: the table the member waits to cut in to (L5) and his
    place in its queue; a substitute's arrival is never touched (L6).
    """

    session = models.ForeignKey(ClubSession, on_delete=models.CASCADE, related_name="arrivals")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="arrivals")
    order = models.PositiveIntegerField()
    arrived_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    queue_table = models.ForeignKey(
        "Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="queue"
    )
    queue_seq = models.PositiveIntegerField(default=0)
    # The secretary may waive the evening's table fee (issue 42's fees), saying why: a
    # member who checked in and left without playing, a helper of the club.
    fee_waived = models.BooleanField(default=False)
    fee_waived_why = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["session", "order"]
        constraints = [
            models.UniqueConstraint(fields=["session", "member"], name="arrival_once"),
            models.UniqueConstraint(fields=["session", "order"], name="arrival_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.order}. {self.member}"
