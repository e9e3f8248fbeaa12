"""The washbook (`WashbookLine` + `WashbookEntry`): one line per deal, points per member; a line's entries sum to zero (the book's "proof")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from club.models.members import Member
from club.models.tables import Table


class WashbookLine(models.Model):
    """One line of a table's washbook: a deal, a tableau (nothing paid), or a reversal."""

    DEAL, TABLEAU, REVERSAL = "deal", "tableau", "reversal"
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="lines")
    number = models.PositiveIntegerField()  # 1, 2, ... within the table
    kind = models.CharField(
        max_length=10,
        choices=[
            (DEAL, pgettext_lazy("washbook line", "deal")),
            (TABLEAU, pgettext_lazy("washbook line", "tableau")),
            (REVERSAL, pgettext_lazy("washbook line", "reversal")),
        ],
        default=DEAL,
    )
    deal_key = models.CharField(max_length=100, null=True, blank=True, unique=True)
    game_number = models.PositiveIntegerField(default=1)
    value = models.PositiveIntegerField(default=0)  # total won: the left margin
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    corrects = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="corrected_by"
    )
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    sealed = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="line_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} line {self.number} ({self.kind})"


class WashbookEntry(models.Model):
    """A member's points on a line: plus for the winner, minus for each loser."""

    line = models.ForeignKey(WashbookLine, on_delete=models.PROTECT, related_name="entries")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="entries")
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField()

    class Meta:
        ordering = ["line", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["line", "member"], name="entry_member_once"),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.points:+d}"
