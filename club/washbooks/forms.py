"""Forms of the washbook: a line's correction.

Validation only: the services decide."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import (
    Member,
)
from club.tables.forms import ResultForm

if TYPE_CHECKING:
    pass


class CorrectionForm(ResultForm):
    """Correcting a washbook line: the reason, and the deal as it really was (entered as
    a physical result is), or only the reversal."""

    field_order = ["reason", "reverse_only", "winner"]

    reason = forms.CharField(
        max_length=200, label=_("Reason for the correction"),
        help_text=_("Kept on the reversing line and, after balancing, on the adjustment."),
        error_messages={"required": _("Give the reason for the correction.")},
    )  # fmt: skip
    reverse_only = forms.BooleanField(
        required=False, label=_("Only reverse the line (post no corrected line)"),
        help_text=_("For a deal booked at the wrong table or never played."),
    )  # fmt: skip

    def __init__(
        self, *args: Any, players: list[Member], scoring: str = "pips", **kwargs: Any
    ) -> None:
        super().__init__(*args, players=players, **kwargs)
        if self.endings:  # the ending is asked, and the player it names (or nobody)
            self.fields["ending"].required = False
            self.order_fields(self.field_order + ["ending", "winner"])
            return
        self.fields["winner"].required = False
        self.fields["winner"].choices = [("", "— choose —"), *self.fields["winner"].choices]
        self.fields["winner"].empty_value = None
        self.game_points = scoring == "game-points"
        if self.game_points:
            # A deal scored in game points (Conquián for two, book p.55): the loser pays
            # the game, and any carry from tableaux; no pips, no cards to count.
            for m in players:
                self.fields[f"pips_{m.pk}"].label = f"{m.display_name}: game points paid"
                self.fields[f"pips_{m.pk}"].error_messages["invalid"] = (
                    f"{m.display_name}'s game points are a whole number."
                )
                del self.fields[f"cards_{m.pk}"], self.fields[f"extra_{m.pk}"]
        self.order_fields(self.field_order)

    game_points = False

    def player_fields(self) -> list[tuple[Member, Any, Any, Any]]:
        if not self.game_points:
            return super().player_fields()
        return [(m, self[f"pips_{m.pk}"], None, None) for m in self.players]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("reverse_only"):
            return data
        if self.endings:
            if not data.get("ending") and "ending" in data:
                self.add_error(
                    "ending", _("Say how the deal ended, or tick “Only reverse the line”.")
                )
        elif data.get("winner") is None and "winner" in data:
            self.add_error("winner", _("Choose who went out, or tick “Only reverse the line”."))
        return data
