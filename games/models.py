"""Deals played online and their append-only action logs.

A deal replays exactly from its rules, players, dealer, pack (recorded top first) and
the actions in order; ``snapshot`` (the engine's versioned JSON of the state after the
last action, games/engine/snapshot.py) only saves a request from replaying the whole deal.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Deal(models.Model):
    """One deal at an online club table (a "game" is a round of deals, L5)."""

    table = models.ForeignKey("club.Table", on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()  # 1, 2, ... within the table
    game_number = models.PositiveIntegerField(default=1)
    deal_in_game = models.PositiveIntegerField(default=0)
    variant = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    players = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    pack = models.JSONField(default=list)  # card codes, top first
    carry_in = models.PositiveIntegerField(default=0)
    # The game's scores the deal was dealt from (Tunk's game to 100, K10: who is still
    # in); a replay from the log needs them as much as the pack.
    scores_in = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)  # actions applied so far
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    finished = models.BooleanField(default=False)
    outcome = models.JSONField(null=True, blank=True)
    washbook_line_id = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the deal last moved (dealt, or an action applied), and whether the seat to
    # move now is a computer player's: the bot sweep serves the quiet ones oldest first,
    # and practice tables left idle are closed, both through one index (issue 37).
    moved_at = models.DateTimeField(default=timezone.now)
    bot_turn = models.BooleanField(default=False)
    # A round every player answers at once (Tonk's call round, TO5; issue 58): when it
    # closes for everyone, and the seats that called in it so far. The calls are secret
    # until it closes: nothing published, no version, no action until then.
    call_round_until = models.DateTimeField(null=True, blank=True)
    called = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="deal_number_once"),
        ]
        indexes = [
            # current_deal(): WHERE table_id = ? ORDER BY number DESC LIMIT 1
            models.Index(fields=["table", "-number"], name="deal_latest"),
            models.Index(fields=["finished", "table"], name="deal_unfinished"),
            # bot_sweep() and the idle practice tables: unfinished deals, the quietest first
            models.Index(
                fields=["moved_at"], condition=models.Q(finished=False), name="deal_open_moved"
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} at table {self.table_id} ({self.variant})"


class DealAction(models.Model):
    """One applied action: ``index`` is the deal's version before it was applied."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="log")
    index = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # NULL (not ""): many actions carry no token, and NULLs never collide in the unique pair.
    client_token = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    by_member_id = models.BigIntegerField(null=True, blank=True)  # who clicked (a substitute)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deal", "index"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "index"], name="deal_action_index_once"),
            # A double click or an identical resubmission applies once.
            models.UniqueConstraint(fields=["deal", "client_token"], name="deal_action_token_once"),
        ]

    def __str__(self) -> str:
        return f"{self.deal_id}#{self.index}: {self.action}"
