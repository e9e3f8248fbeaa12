"""The club itself (issue 78): its name, time zone, currency and first game, and how it
was started. One row (pk 1), made by the setup page, `manage.py start_club` or the demo.

While the club has not been started the row holds a random salt (``secrets``); the
one-time setup code is its HMAC under the SECRET_KEY, so every web process (and every
replica on the compose path) prints the same code without the code being stored
anywhere: `make run` prints it, as Jupyter prints its token, and whoever opens the setup
page must show it, so nobody else on the club's Wi-Fi can take the club first. It is
compared in constant time and spent once the club is started (the salt cleared); the
setup page then answers 404.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models


class Club(models.Model):
    name = models.CharField(max_length=80, default="Cooncan Club")
    time_zone = models.CharField(max_length=64, default="UTC")
    currency_symbol = models.CharField(max_length=4, default="£")
    currency_places = models.PositiveSmallIntegerField(default=2, validators=[MaxValueValidator(2)])
    default_variant = models.CharField(max_length=40, blank=True)
    language = models.CharField(
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text="The club's language: a member's own choice, or the browser's, comes first.",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    demo = models.BooleanField(default=False, help_text="Started as the demo club.")
    setup_salt = models.CharField(max_length=64, blank=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(pk=1), name="club_one_row")]

    def __str__(self) -> str:
        return self.name

    @property
    def started(self) -> bool:
        return self.started_at is not None
