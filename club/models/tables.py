"""Tables: their seats, the cuts and their batches, redraw demands, substitutes, the table's log of events."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from club.models.evenings import ClubSession
from club.models.members import HouseRules, Member
from club.models.variants import default_variant, variant_choices
from games.engine.variant import find_variant


class Table(models.Model):
    """A table of play. The games app reads id, variant, options, size, mode, session."""

    FORMING, PLAYING, CLOSED = "forming", "playing", "closed"
    ONLINE, PHYSICAL = "online", "physical"

    session = models.ForeignKey(
        ClubSession, on_delete=models.CASCADE, null=True, blank=True, related_name="tables"
    )
    number = models.PositiveIntegerField(default=1)
    variant = models.CharField(max_length=20, choices=variant_choices, default=default_variant)
    size = models.PositiveSmallIntegerField(default=5)
    mode = models.CharField(
        max_length=10,
        choices=[(ONLINE, _("in the browser")), (PHYSICAL, _("real cards"))],
        default=ONLINE,
    )
    options = models.JSONField(default=dict, blank=True)
    # The house rules the table was formed with (issue 43): their name as it was then
    # (the options are copied into ``options``; a set changed later changes nothing here).
    house_rules = models.ForeignKey(
        HouseRules, on_delete=models.SET_NULL, null=True, blank=True, related_name="tables"
    )
    house_rules_name = models.CharField(max_length=80, blank=True, db_default="")
    is_practice = models.BooleanField(
        default=False, help_text="Unstaked: excluded from balancing (any table with a bot)."
    )
    had_computer_players = models.BooleanField(
        default=False,
        help_text="A computer player sat here (formed with one): never staked, even after "
        "members took every seat and whatever the washbook's lines show.",
    )
    computers_wanted = models.PositiveSmallIntegerField(
        default=0,
        db_default=0,
        help_text="Computer players the secretary seated in empty seats while a game was in "
        "play: they sit down when it ends (issue 56).",
    )
    status = models.CharField(
        max_length=10,
        choices=[
            (FORMING, pgettext_lazy("table", "forming")),
            (PLAYING, pgettext_lazy("table", "playing")),
            (CLOSED, pgettext_lazy("table", "closed")),
        ],
        default=FORMING,
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    # L5: a game is one round of deals. game_number counts from 1; deal_in_game from 0.
    game_number = models.PositiveIntegerField(default=1)
    deal_in_game = models.PositiveIntegerField(default=0)
    deals_played = models.PositiveIntegerField(default=0)
    dealer_position = models.PositiveSmallIntegerField(default=0)
    # L4: the hourly redraw. The beat task claims rows whose next_redraw_at has passed.
    next_redraw_at = models.DateTimeField(null=True, blank=True)
    redraw_window_until = models.DateTimeField(null=True, blank=True)
    auto_redraw = models.BooleanField(
        default=False, help_text="Club custom: redraw for seats automatically every hour."
    )
    # Voided after play, with the secretary's reason: its lines stay in the washbook,
    # struck through, and balancing leaves the table out of money.
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["session", "number"]
        indexes = [
            # open_due_redraw_windows: WHERE status='playing' AND next_redraw_at <= now
            models.Index(fields=["status", "next_redraw_at"], name="table_redraw_due"),
        ]

    def __str__(self) -> str:
        where = f"{self.session}" if self.session_id else "practice"
        return f"Table {self.number} ({find_variant(self.variant).short_name}, {where})"

    def get_absolute_url(self) -> str:
        """The games app's table page (``games:table``); the club page until it exists."""
        try:
            return reverse("games:table", args=[self.pk])
        except NoReverseMatch:
            return reverse("club:table", args=[self.pk])

    @property
    def title(self) -> str:
        """Its name on a page, in the reader's language (issue 82); ``str()`` is the
        books' English."""
        said = {
            "number": self.number,
            "game": gettext(find_variant(self.variant).short_name),
            "evening": self.session.title if self.session_id else gettext("practice"),
        }
        return gettext("Table %(number)s (%(game)s, %(evening)s)") % said

    @property
    def game_name(self) -> str:
        """The game's short name, as a player says it ("Tonk", "Foster's Cooncan")."""
        return find_variant(self.variant).short_name

    @property
    def game_and_deal(self) -> str:
        """Where the table's deal in play stands in its game, as the game counts ("Game 2,
        deal 3 of 4"; Tunk's "Game 2 to 100, deal 3"; at two players "Game 7")."""
        return find_variant(self.variant).game_and_deal(
            self.game_number, self.deal_in_game, self.size, self.options
        )

    def get_club_url(self) -> str:
        return reverse("club:table", args=[self.pk])

    @property
    def label(self) -> str:
        """ "Table 3" at an evening; "Practice table 2" for a member's own practice: in
        the reader's language (the books keep theirs: ``base.books_label``)."""
        if self.is_practice:
            return gettext("Practice table %(number)s") % {"number": self.number}
        return gettext("Table %(number)s") % {"number": self.number}

    @property
    def redraw_window_open(self) -> bool:
        return bool(self.redraw_window_until and self.redraw_window_until >= timezone.now())


class Seat(models.Model):
    """Who sits where. ``member`` is the account holder; a substitute plays on his account."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 0..size-1, clockwise: 1 is on 0's left
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="seats")
    consecutive_games = models.PositiveIntegerField(default=0)
    seated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            models.UniqueConstraint(fields=["table", "member"], name="seat_member_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position + 1}: {self.member}"  # seats count from 1


class CutBatch(models.Model):
    """One cutting (L2): for places (L3), for seats and deal (L3/L4), or to go out (L5)."""

    PLACES, SEATS, REDRAW, ROTATION = "places", "seats", "redraw", "rotation"
    PURPOSES = [
        (PLACES, _("for places at the table (L3)")),
        (SEATS, _("for seats and the first deal (L3)")),
        (REDRAW, _("hourly redraw for seats (L4)")),
        (ROTATION, _("to go out after a game (L5)")),
    ]
    session = models.ForeignKey(
        ClubSession, on_delete=models.CASCADE, null=True, blank=True, related_name="cuts"
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="cuts"
    )
    purpose = models.CharField(max_length=10, choices=PURPOSES)
    created_at = models.DateTimeField(default=timezone.now)
    note = models.CharField(max_length=200, blank=True)
    result = models.JSONField(default=list)  # member ids, highest cut first

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "cut batches"  # not Django's "cut batchs" (issue 79)

    def __str__(self) -> str:
        return f"Cut {self.get_purpose_display()} at {self.created_at:%H:%M}"


class Cut(models.Model):
    """One card drawn by one member in a cutting; ``round`` > 1 is a tie being cut again."""

    batch = models.ForeignKey(CutBatch, on_delete=models.CASCADE, related_name="draws")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    card = models.CharField(max_length=4)
    round = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["batch", "round", "pk"]

    def __str__(self) -> str:
        return f"{self.member} drew {self.card} (cut {self.round})"


class RedrawDemand(models.Model):
    """A seated player's demand for a redraw (L4), applied between deals."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="redraw_demands")
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )  # None: the table's automatic hourly redraw (club custom)
    created_at = models.DateTimeField(default=timezone.now)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"Redraw demanded by {self.member or 'the hourly custom'}"


class Substitution(models.Model):
    """L6: a leaving player's substitute for the rest of the game, with every consent."""

    PROPOSED, ACTIVE, LAPSED, REFUSED = "proposed", "active", "lapsed", "refused"
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="substitutions")
    leaver = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    game_number = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10,
        choices=[(s, s) for s in (PROPOSED, ACTIVE, LAPSED, REFUSED)],
        default=PROPOSED,
    )
    consents = models.ManyToManyField(Member, related_name="+", blank=True)
    required = models.JSONField(default=list)  # member ids whose consent is needed
    created_at = models.DateTimeField(default=timezone.now)
    lapsed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "leaver"],
                condition=Q(status__in=["proposed", "active"]),
                name="one_live_substitution_per_leaver",
            )
        ]

    def __str__(self) -> str:
        return f"{self.substitute} for {self.leaver} ({self.status})"


class TableEvent(models.Model):
    """The table's log: forming, cuts, rotation, substitutes, redraw windows."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(default=timezone.now)
    text = models.CharField(max_length=300)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return self.text
