"""The club's data: members, sessions (evenings), tables, cuts, washbooks and the ledger.

Two append-only books live here, both zero-sum and both checked by the database:

* the **washbook** (`WashbookLine` + `WashbookEntry`): one line per deal, points per member;
  a line's entries sum to zero (the book's "proof");
* the **ledger** (`Posting` + `Leg`): money, double-entry in the django-hordak manner; a
  posting's legs sum to zero.

A DEFERRABLE INITIALLY DEFERRED PostgreSQL constraint trigger checks each sum at commit
(migration 0002). The header carries a ``sealed`` flag that the services set after
writing the legs; triggers refuse the seal when the sum is not zero and refuse any change
to the legs of a sealed header.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from games.engine.variant import VARIANTS, first_variant


def variant_choices() -> list[tuple[str, str]]:
    """The club's choice of game: every game of the engine's registry
    (``games.engine.variant``), by its club label. A callable, so a new game needs no
    migration."""
    return [(name, v.club_label) for name, v in VARIANTS.items()]


def default_variant() -> str:
    """The game a session or table takes unless told: the registry's first."""
    return first_variant().name


def variant_seats(variant: str) -> tuple[int, int]:
    """(fewest, most) players a club table of ``variant`` seats; KeyError for no game."""
    seats = VARIANTS[variant].seats
    return seats.low, seats.high


def default_size(variant: str) -> int:
    """How many a club table of ``variant`` seats unless told; KeyError for no game."""
    return VARIANTS[variant].seats.default


class Member(models.Model):
    """A club member: a Django user with a profile. Bots fill empty online seats."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="member"
    )
    display_name = models.CharField(max_length=80)
    joined = models.DateField(default=timezone.localdate)
    active = models.BooleanField(default=True)
    is_bot = models.BooleanField(
        default=False, help_text="A computer player; never staked, never in a settlement."
    )
    is_guest = models.BooleanField(
        default=False,
        help_text="A visitor the secretary added for an evening: plays, is booked and "
        "settles like a member; left out of the club's standings.",
    )

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("club:member", args=[self.pk])


class HouseRules(models.Model):
    """A named set of one game's options the club plays by, "Tuesday rules" (issue 43).

    ``options`` holds a value for every option of the game (the engine's check passed
    when it was saved). One set a game may be the club's default. A table formed with a
    set copies its options and its name, so changing the set never changes a table
    already formed."""

    name = models.CharField(max_length=60)
    variant = models.CharField(max_length=20, choices=variant_choices, verbose_name="game")
    options = models.JSONField(default=dict)
    is_default = models.BooleanField(
        default=False, db_default=False, verbose_name="the club's default for the game"
    )
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["variant", "name"]
        verbose_name = "house rules"
        verbose_name_plural = "house rules"
        constraints = [
            models.UniqueConstraint(Lower("name"), "variant", name="house_rules_name_once_a_game"),
            models.UniqueConstraint(
                fields=["variant"], condition=Q(is_default=True), name="one_default_a_game"
            ),
        ]

    def __str__(self) -> str:
        return self.name


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
        (OPEN, "open"),
        (CLOSING, "closing (queued for balancing)"),
        (BALANCING, "balancing"),
        (BALANCED, "balanced"),
        (FAILED, "balancing failed"),
        (CANCELLED, "cancelled (nothing was played)"),
        (VOIDED, "voided (never balanced)"),
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
        return self.name or f"Session of {self.opened_at:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("club:session", args=[self.pk])

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
        max_length=10, choices=[(ONLINE, "online"), (PHYSICAL, "real cards")], default=ONLINE
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
    status = models.CharField(
        max_length=10,
        choices=[(FORMING, "forming"), (PLAYING, "playing"), (CLOSED, "closed")],
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
        return f"Table {self.number} ({self.variant}, {where})"

    def get_absolute_url(self) -> str:
        """The games app's table page (``games:table``); the club page until it exists."""
        try:
            return reverse("games:table", args=[self.pk])
        except NoReverseMatch:
            return reverse("club:table", args=[self.pk])

    def get_club_url(self) -> str:
        return reverse("club:table", args=[self.pk])

    @property
    def label(self) -> str:
        """ "Table 3" at an evening; "Practice table 2" for a member's own practice."""
        return f"Practice table {self.number}" if self.is_practice else f"Table {self.number}"

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
        (PLACES, "for places at the table (L3)"),
        (SEATS, "for seats and the first deal (L3)"),
        (REDRAW, "hourly redraw for seats (L4)"),
        (ROTATION, "to go out after a game (L5)"),
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


# --- The washbook --------------------------------------------------------------------


class WashbookLine(models.Model):
    """One line of a table's washbook: a deal, a tableau (nothing paid), or a reversal."""

    DEAL, TABLEAU, REVERSAL = "deal", "tableau", "reversal"
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="lines")
    number = models.PositiveIntegerField()  # 1, 2, ... within the table
    kind = models.CharField(
        max_length=10,
        choices=[(DEAL, "deal"), (TABLEAU, "tableau"), (REVERSAL, "reversal")],
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


# --- The ledger ----------------------------------------------------------------------


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
    METHODS = [(CASH, "in cash"), (BANK, "by bank transfer")]
    kind = models.CharField(
        max_length=20,
        choices=[
            (SESSION_BALANCE, "session balance"),
            (PAYMENT, "payment"),
            # A washbook line corrected after its evening was balanced (the memo says
            # which line and why): only the members the correction changes have legs.
            (ADJUSTMENT, "adjustment"),
            # The evening's table fees: each member checked in pays the club (issue 42).
            (FEE, "table fee"),
            # A payment recorded by mistake is reversed, never edited (issue 53): the
            # opposite legs, the reason in the memo, `reverses` naming the payment.
            (REVERSAL, "payment reversed"),
            # The club pays a member back what it owes him (a credit on account).
            (REFUND, "refund from the club"),
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


# --- The audit log ---------------------------------------------------------------------


class AuditEntry(models.Model):
    """One thing the secretary did (issue 42, item 7): who, when, what, and why where the
    action takes a reason. Written by `club.audit.record` beside the action; append-only
    and read by staff at /club/audit/ and in the admin.

    Our own model rather than django-auditlog: that library logs model saves through
    signals, and the books are written with bulk_create and conditional UPDATEs, which
    send none; nor has it a place for the secretary's reason. An action log is what the
    club reads ("Checked in: Ann", "Table 2 voided: the wrong game")."""

    CHECK_IN, CHECK_OUT = "check-in", "check-out"
    TABLE, TABLE_CANCEL, TABLE_VOID = "table", "table-cancel", "table-void"
    RESULT, CORRECTION = "result", "correction"
    OPEN, FEE, CLOSE, CANCEL, VOID = "open", "fee", "close", "cancel", "void"
    PAYMENT = "payment"
    HOUSE_RULES = "house-rules"
    MEMBER = "member"
    REVERSAL, REFUND = "reversal", "refund"
    ACTIONS = [
        (CHECK_IN, "check-in"),
        (CHECK_OUT, "check-out"),
        (TABLE, "table formed"),
        (TABLE_CANCEL, "table cancelled"),
        (TABLE_VOID, "table voided"),
        (RESULT, "result entered"),
        (CORRECTION, "line corrected"),
        (OPEN, "evening opened"),
        (FEE, "table fees"),
        (CLOSE, "evening closed"),
        (CANCEL, "evening cancelled"),
        (VOID, "evening voided"),
        (PAYMENT, "payment"),
        (HOUSE_RULES, "house rules"),
        (MEMBER, "member edited"),
        (REVERSAL, "payment reversed"),
        (REFUND, "refund"),
    ]

    at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=20, choices=ACTIONS)
    what = models.CharField(max_length=300)
    why = models.CharField(max_length=200, blank=True)
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
