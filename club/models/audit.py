"""The audit log: what the secretary did, who, when, what and why."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from club.models.evenings import ClubSession
from club.models.tables import Table


class AuditEntry(models.Model):
    """One thing the secretary did (issue 42, item 7): who, when, what, and why where the
    action takes a reason. Written by `club.services.audit.record` beside the action; append-only
    and read by staff at /club/audit/ and in the admin.

    Our own model rather than django-auditlog: that library logs model saves through
    signals, and the books are written with bulk_create and conditional UPDATEs, which
    send none; nor has it a place for the secretary's reason. An action log is what the
    club reads ("Checked in: Ann", "Table 2 voided: the wrong game")."""

    CHECK_IN, CHECK_OUT = "check-in", "check-out"
    TABLE, TABLE_CANCEL, TABLE_VOID = "table", "table-cancel", "table-void"
    TABLE_COMPUTER = "table-computer"
    RESULT, CORRECTION = "result", "correction"
    OPEN, FEE, CLOSE, CANCEL, VOID = "open", "fee", "close", "cancel", "void"
    PAYMENT = "payment"
    HOUSE_RULES = "house-rules"
    MEMBER = "member"
    REVERSAL, REFUND = "reversal", "refund"
    CLUB_START = "club-start"
    MEMBER_ADD, SIGNIN_LINK, SIGNIN_USED = "member-add", "signin-link", "signin-used"
    SIGN_OUT, LOGIN_DISABLED, LOGIN_ENABLED = "sign-out", "login-disabled", "login-enabled"
    BALANCED, BACKUP = "balanced", "backup"
    ACTIONS = [
        (SIGN_OUT, pgettext_lazy("audit", "signed out everywhere")),
        (LOGIN_DISABLED, pgettext_lazy("audit", "login disabled")),
        (LOGIN_ENABLED, pgettext_lazy("audit", "login enabled")),
        (CLUB_START, pgettext_lazy("audit", "club started")),
        (MEMBER_ADD, pgettext_lazy("audit", "member added")),
        (SIGNIN_LINK, pgettext_lazy("audit", "sign-in link given")),
        (SIGNIN_USED, pgettext_lazy("audit", "sign-in link used")),
        (CHECK_IN, pgettext_lazy("audit", "check-in")),
        (CHECK_OUT, pgettext_lazy("audit", "check-out")),
        (TABLE, pgettext_lazy("audit", "table formed")),
        (TABLE_CANCEL, pgettext_lazy("audit", "table cancelled")),
        (TABLE_VOID, pgettext_lazy("audit", "table voided")),
        (TABLE_COMPUTER, pgettext_lazy("audit", "computer player seated")),
        (RESULT, pgettext_lazy("audit", "result entered")),
        (CORRECTION, pgettext_lazy("audit", "line corrected")),
        (OPEN, pgettext_lazy("audit", "evening opened")),
        (FEE, pgettext_lazy("audit", "table fees")),
        (CLOSE, pgettext_lazy("audit", "evening closed")),
        (CANCEL, pgettext_lazy("audit", "evening cancelled")),
        (VOID, pgettext_lazy("audit", "evening voided")),
        (PAYMENT, pgettext_lazy("audit", "payment")),
        (HOUSE_RULES, pgettext_lazy("audit", "house rules")),
        (MEMBER, pgettext_lazy("audit", "member edited")),
        (REVERSAL, pgettext_lazy("audit", "payment reversed")),
        (REFUND, pgettext_lazy("audit", "refund")),
        (BALANCED, pgettext_lazy("audit", "evening balanced")),
        (BACKUP, pgettext_lazy("audit", "backup taken")),
    ]

    at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=20, choices=ACTIONS)
    what = models.CharField(max_length=300)
    why = models.CharField(max_length=200, blank=True)
    # The address the action came from, where it matters who was where (issue 78: a
    # sign-in link given, used or revoked; a club started; a login signed out).
    address = models.CharField(max_length=45, blank=True)
    # No database constraint on these two: an entry is written in the transaction of the
    # action it records, and a constraint's check would take a key-share lock on the
    # evening while the action may hold only a table (out of the app's lock order: a
    # deadlock with closing). Evenings and tables are never deleted (PROTECT still holds
    # in the ORM).
    session = models.ForeignKey(
        ClubSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit",
        db_constraint=False,
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit",
        db_constraint=False,
    )

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit log"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.what}"
