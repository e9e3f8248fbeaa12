"""Members (a Django user with a profile; computer players and guests too) and the club's house rules."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from club.models.variants import variant_choices


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
    phone = models.CharField(max_length=40, blank=True, help_text="As the roster gave it.")
    language = models.CharField(
        max_length=10,
        choices=settings.LANGUAGES,
        blank=True,
        help_text="The member's own choice of language; blank: the browser's, else the club's.",
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


class SignInLink(models.Model):
    """A one-use link that lets a member choose his password and sign in (issue 78): given
    by the secretary (shown as a QR code to scan at the venue, or printed), it expires
    after SIGNIN_LINK_DAYS, and a newer one revokes it. Only the token's SHA-256 is kept:
    the link itself is shown once, when it is given."""

    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="signin_links")
    token_sha256 = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_from = models.CharField(max_length=45, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"sign-in link for {self.member} ({self.state()})"

    def state(self) -> str:
        """ "used", "revoked", "expired" or "open"."""
        if self.used_at is not None:
            return "used"
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        return "open"
