"""Forms for the club pages (validation only; the services decide)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms

from games.engine.variant import VARIANTS, first_variant

from .models import (
    HouseRules,
    Member,
    Posting,
    Table,
    Transfer,
    default_variant,
    variant_choices,
)
from .services import house_rules, money
from .services.base import ClubError

if TYPE_CHECKING:
    from games.engine.variant import Variant


def rules_choice(label: str, empty: str, help_text: str) -> forms.ModelChoiceField[HouseRules]:
    """A choice of the club's house rules (issue 43), none allowed."""
    return forms.ModelChoiceField(
        queryset=HouseRules.objects.all(),
        required=False,
        label=label,
        empty_label=empty,
        help_text=help_text,
    )


MONEY_INPUT = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})


class OpenSessionForm(forms.Form):
    name = forms.CharField(
        max_length=80,
        label="Name of the evening",
        help_text='What members will see on their statements, e.g. "Tuesday".',
        error_messages={"required": "Give the evening a name."},
    )
    # Money is read as text by money.check_stake / check_amount (club.inputs: ASCII
    # digits and a point only): a DecimalField takes "1e30" and "٣" (issue 53, item 3).
    stake = forms.CharField(initial="0.05", max_length=30, widget=MONEY_INPUT)
    default_variant = forms.ChoiceField(choices=variant_choices, initial=default_variant)
    house_rules = rules_choice(
        "The evening's house rules",
        "the club's defaults",
        "Its tables of that game start from this set.",
    )
    fee_member = forms.CharField(
        label="Table fee, member", required=False, max_length=30, widget=MONEY_INPUT
    )
    fee_guest = forms.CharField(
        label="Table fee, guest", required=False, max_length=30, widget=MONEY_INPUT
    )
    second = forms.BooleanField(
        required=False,
        label="Open a second evening",
        help_text="Only if another evening is open and both should run at once.",
    )

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip()
        if not name:
            raise forms.ValidationError("Give the evening a name.")
        return name

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["stake"].help_text = (
            f"Money a point in {money.symbol()}, at most {money.places()} decimal places "
            f"(so that every difference can be paid), up to {money.shown(money.MAX_STAKE)}."
        )
        member_fee, guest_fee = money.default_fees()
        for name, fee, who in (
            ("fee_member", member_fee, "member"),
            ("fee_guest", guest_fee, "guest"),
        ):
            self.fields[name].initial = fee
            self.fields[name].help_text = (
                f"What each {who} checked in pays the club for the evening, charged when "
                f"it is balanced; 0 for none. The club's is {money.shown(fee)}."
            )

    def clean_fee_member(self) -> Decimal:
        return self._fee("fee_member", "a member's table fee")

    def clean_fee_guest(self) -> Decimal:
        return self._fee("fee_guest", "a guest's table fee")

    def _fee(self, field: str, what: str) -> Decimal:
        given = self.cleaned_data[field]
        if given in (None, ""):  # left empty: the club's fee
            given = self.fields[field].initial
        try:
            return money.check_amount(given, field=field, what=what, zero=True)
        except ClubError as e:
            raise forms.ValidationError(str(e)) from None

    def clean_stake(self) -> Decimal:
        try:
            return money.check_stake(self.cleaned_data["stake"])
        except ClubError as e:
            raise forms.ValidationError(str(e)) from None


def add_option_fields(form: forms.Form, session: Any = None) -> None:
    """Every game's options as fields ``opt-<game>-<option>`` (issue 43): the label with
    the option's source, its help, its values, the club's default filled in (the evening's
    or the club's default house rules for the game, else the game's own)."""
    for name, game in VARIANTS.items():
        start = house_rules.default_for(name, session)
        for spec in game.options:
            value = start.options.get(spec.name, spec.default) if start else spec.default
            form.fields[house_rules.field_name(name, spec.name)] = forms.ChoiceField(
                choices=[(str(c), house_rules.option_word(c)) for c in spec.choices],
                required=False,
                initial=str(value),
                label=f"{spec.title} ({spec.source})",
                help_text=spec.help[:1].upper() + spec.help[1:] + ".",
            )


class OptionFields:
    """What a form with every game's option fields offers its template and its view."""

    def option_groups(self) -> list[tuple[str, str, list[Any]]]:
        """(game, its label, its option fields) for each game with options."""
        form: Any = self
        return [
            (
                name,
                game.club_label,
                [form[house_rules.field_name(name, o.name)] for o in game.options],
            )
            for name, game in VARIANTS.items()
            if game.options
        ]

    def chosen_options(self, variant: str) -> dict[str, str]:
        """The form's text for each option of ``variant`` (blank: the game's own)."""
        form: Any = self
        out: dict[str, str] = {}
        for spec in VARIANTS[variant].options:
            raw = form.cleaned_data.get(house_rules.field_name(variant, spec.name))
            out[spec.name] = raw if raw not in (None, "") else str(spec.default)
        return out

    def plain_fields(self) -> list[Any]:
        """The fields that are not a game's option (rendered before the options)."""
        form: Any = self
        return [f for f in form if not f.name.startswith("opt-")]


class FormTableForm(OptionFields, forms.Form):
    variant = forms.ChoiceField(choices=variant_choices, label="Game")
    players = forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(), required=False, label="Who plays",
        widget=forms.CheckboxSelectMultiple,
        help_text="Tick who sits together (L3 lets the club choose); none ticked: everyone "
        "waiting, in order of arrival, and the cut decides when there are more than places.",
    )  # fmt: skip
    size = forms.IntegerField(
        min_value=2, max_value=7, required=False, label="Players",
        help_text="Empty: as many as the game usually seats.",
    )  # fmt: skip
    mode = forms.ChoiceField(choices=[(Table.ONLINE, "online"), (Table.PHYSICAL, "real cards")])
    computers = forms.IntegerField(
        min_value=0, max_value=6, required=False, initial=0, label="Computer players",
        help_text="Online tables only: seats the members leave empty. Such a table is not staked.",
    )  # fmt: skip
    auto_redraw = forms.BooleanField(required=False, label="Redraw seats every hour")
    house_rules = rules_choice(
        "House rules",
        "none: the options below",
        "A set the club saved; the table copies it as it is now.",
    )

    def __init__(self, *args: Any, session: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        start = house_rules.default_for(
            session.default_variant if session else first_variant().name, session
        )
        self.fields["house_rules"].initial = start.pk if start else None
        add_option_fields(self, session)
        if session is not None:  # the members waiting now (the service checks again)
            from .services import waiting_members

            waiting = [a.member_id for a in waiting_members(session)]
            self.fields["players"].queryset = Member.objects.filter(  # type: ignore[attr-defined]
                pk__in=waiting
            ).order_by("display_name")


class ResultForm(forms.Form):
    """A physical deal: the winner, and for each other player his pips or his cards."""

    winner = forms.TypedChoiceField(coerce=int, label="Who went out")
    note = forms.CharField(
        max_length=200, required=False, label="Note", help_text="Kept on the washbook line."
    )

    def __init__(
        self, *args: Any, players: list[Member], game: Variant | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        self.fields["winner"].choices = [(m.pk, m.display_name) for m in players]
        # A game whose deals end in more ways than one winner collecting (Tonk): how the
        # deal ended, the player it names, and every player's count when it asks them.
        self.endings = game.endings if game is not None else ()
        word = "count" if self.endings else "pips"
        for m in players:
            name = m.display_name
            self.fields[f"pips_{m.pk}"] = forms.IntegerField(
                min_value=0, max_value=1000, required=False, label=f"{name}: {word} in hand",
                error_messages={"invalid": f"{name}'s {word} is a whole number."},
            )  # fmt: skip
            self.fields[f"cards_{m.pk}"] = forms.CharField(
                max_length=120,
                required=False,
                label="or the cards left in hand",
                help_text="e.g. KS 5H JK",
            )
            if not self.endings:
                self.fields[f"extra_{m.pk}"] = forms.IntegerField(
                    min_value=0, max_value=1000, required=False,
                    label="extra points paid (splash, ratting, foul hand)",
                    error_messages={"invalid": f"{name}'s extra points are a whole number."},
                )  # fmt: skip
        if self.endings:
            self.fields["ending"] = forms.ChoiceField(
                label="How the deal ended",
                choices=[("", "— choose —")] + [(e.name, f"{e.label} ({e.law})") for e in self.endings],
                error_messages={"required": "Say how the deal ended."},
            )  # fmt: skip
            named = sorted({e.seat for e in self.endings if e.seat})
            winner = self.fields["winner"]
            winner.label = "Who: " + ", ".join(named)
            winner.help_text = "Leave it at “nobody” when the deal ended with every hand counted."
            winner.required = False
            winner.choices = [("", "— nobody —"), *winner.choices]
            winner.empty_value = None  # type: ignore[attr-defined]
            for m in players:
                self.fields[f"pips_{m.pk}"].help_text = "asked after a drop or an empty pack"
            self.order_fields(["ending", "winner"])

    def player_fields(self) -> list[tuple[Member, Any, Any, Any]]:
        return [
            (m, self[f"pips_{m.pk}"], self[f"cards_{m.pk}"], self._extra(m)) for m in self.players
        ]

    def _extra(self, m: Member) -> Any:
        return self[f"extra_{m.pk}"] if f"extra_{m.pk}" in self.fields else None


class CorrectionForm(ResultForm):
    """Correcting a washbook line: the reason, and the deal as it really was (entered as
    a physical result is), or only the reversal."""

    field_order = ["reason", "reverse_only", "winner"]

    reason = forms.CharField(
        max_length=200, label="Reason for the correction",
        help_text="Kept on the reversing line and, after balancing, on the adjustment.",
        error_messages={"required": "Give the reason for the correction."},
    )  # fmt: skip
    reverse_only = forms.BooleanField(
        required=False, label="Only reverse the line (post no corrected line)",
        help_text="For a deal booked at the wrong table or never played.",
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
                self.add_error("ending", "Say how the deal ended, or tick “Only reverse the line”.")
        elif data.get("winner") is None and "winner" in data:
            self.add_error("winner", "Choose who went out, or tick “Only reverse the line”.")
        return data


class SubstituteForm(forms.Form):
    substitute = forms.ModelChoiceField(queryset=Member.objects.filter(is_bot=False, active=True))


class StandingsForm(forms.Form):
    """The standings between two dates (the sessions' opening dates), both optional."""

    since = forms.DateField(required=False, label="From", widget=forms.DateInput({"type": "date"}))
    until = forms.DateField(required=False, label="To", widget=forms.DateInput({"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "The end date comes before the start date.")
        return data


class CheckInForm(forms.Form):
    """The secretary checks members in for them (they need not log in, or own a phone),
    several at once as they come through the door, or adds a new member by name and
    checks him in."""

    member = forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(), required=False, label="Members arriving",
        widget=forms.CheckboxSelectMultiple, help_text="Tick everyone who has come in.",
    )  # fmt: skip
    new_name = forms.CharField(
        max_length=60, required=False, label="or a new member's name",
        help_text="Adds the newcomer to the club and checks the newcomer in.",
    )  # fmt: skip
    guest = forms.BooleanField(
        required=False, label="a guest, not a member",
        help_text="A guest plays and settles like a member but is left out of the standings.",
    )  # fmt: skip

    def __init__(self, *args: Any, session: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        here = session.arrivals.filter(left_at=None).values("member_id")
        self.fields["member"].queryset = (  # type: ignore[attr-defined]
            Member.objects.filter(is_bot=False, active=True, user__is_staff=False)
            .exclude(pk__in=here)
            .order_by("display_name")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen, name = list(data.get("member") or []), str(data.get("new_name") or "").strip()
        data["new_name"] = name
        if not chosen and not name:
            self.add_error("member", "Choose a member, or give a new member's name.")
        elif chosen and name:
            self.add_error("new_name", "Choose members or give a new name, not both.")
        elif chosen and data.get("guest"):
            self.add_error("guest", "A guest is added by name; a member on the list is a member.")
        return data


class VoidForm(forms.Form):
    """Voiding a table or an evening after play: the reason is kept and shown."""

    reason = forms.CharField(
        max_length=200, label="Reason",
        help_text="Kept with the washbook, e.g. \"played the wrong game\".",
        error_messages={"required": "Give the reason."},
    )  # fmt: skip

    def clean_reason(self) -> str:
        reason = " ".join(str(self.cleaned_data["reason"]).split())
        if not reason:
            raise forms.ValidationError("Give the reason.")
        return reason


class CloseForm(forms.Form):
    """Closing an evening: what becomes of the online deals still being played."""

    WAIT, END = "wait", "end"
    deals = forms.ChoiceField(
        required=False, widget=forms.RadioSelect, label="The deals in progress",
        choices=[
            (WAIT, "Wait for them: no new deal is dealt, and the evening closes and is "
                   "balanced by itself when the last one ends"),
            (END, "End them now, unscored"),
        ],
    )  # fmt: skip
    note = forms.CharField(
        max_length=200, required=False, label="Note for the players",
        help_text="Shown at the tables when the evening closes, e.g. \"the room closes at eleven\".",
    )  # fmt: skip


class PaymentForm(forms.Form):
    """The secretary records a payment a member made (issue 42, item 2): to a member he
    owes by a settlement's transfer, in full or in part, or to the club (his fees)."""

    to = forms.ChoiceField(label="Paid to")
    amount = forms.CharField(label="Amount", max_length=20)
    method = forms.ChoiceField(label="How", choices=Posting.METHODS, initial=Posting.CASH)
    note = forms.CharField(label="Note", max_length=120, required=False)
    credit = forms.BooleanField(
        required=False,
        label="Credit on account",
        help_text="To the club only: keep what is more than he owes it as a credit the club "
        "owes him (refunded or set against his next fees).",
    )

    def __init__(self, *args: Any, member: Member, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.member = member
        choices = [
            (f"t{t.pk}", f"{t.payee} for {t.session} ({money.shown(t.amount)} unpaid)")
            for t in Transfer.objects.filter(payer=member, payment__isnull=True)
            .select_related("payee", "session")
            .order_by("session__opened_at", "pk")
        ]
        self.fields["to"].choices = [*choices, ("club", "the club (table fees)")]
        self.fields["amount"].widget.attrs.update(inputmode="decimal", autocomplete="off")
        self.fields[
            "amount"
        ].help_text = f"In {money.symbol()}; less than a transfer pays part of it."

    def clean_amount(self) -> Decimal:
        try:
            return money.check_amount(
                self.cleaned_data["amount"], field="amount", what="the amount"
            )
        except ClubError as e:
            raise forms.ValidationError(str(e)) from None


class RefundForm(forms.Form):
    """The club pays a member back what it owes him (issue 53, item 2): at most his
    credit with the club (a credit on his account, from paying it more than his fees).
    Its fields are prefixed: the member's page holds the payment's form too, and ids
    must not clash."""

    prefix = "refund"
    amount = forms.CharField(label="Amount", max_length=20, widget=MONEY_INPUT)
    method = forms.ChoiceField(label="How", choices=Posting.METHODS, initial=Posting.CASH)
    note = forms.CharField(label="Note", max_length=120, required=False)

    def clean_amount(self) -> Decimal:
        try:
            return money.check_amount(
                self.cleaned_data["amount"], field="amount", what="the refund"
            )
        except ClubError as e:
            raise forms.ValidationError(str(e)) from None


class ReversalForm(forms.Form):
    """A payment recorded by mistake is reversed with a reason (issue 53, item 2)."""

    reason = forms.CharField(
        label="Why is it reversed?",
        max_length=120,
        error_messages={"required": "Say why the payment is reversed."},
    )


class HouseRulesForm(OptionFields, forms.Form):
    """A named set of one game's options (issue 43): its name, its game, each option of
    the game (the others' fields are left out of the check), the club's default or not."""

    name = forms.CharField(
        max_length=60,
        label="Name",
        help_text="E.g. “Tuesday rules”.",
        error_messages={"required": "Give the house rules a name, e.g. “Tuesday rules”."},
    )
    variant = forms.ChoiceField(choices=variant_choices, label="Game")
    is_default = forms.BooleanField(
        required=False,
        label="The club's default for the game",
        help_text="Filled in when a table of the game is formed, unless the evening has its own.",
    )

    def __init__(self, *args: Any, rules: HouseRules | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_option_fields(self)
        if rules is not None:  # the set's own values filled in
            self.fields["name"].initial = rules.name
            self.fields["variant"].initial = rules.variant
            self.fields["is_default"].initial = rules.is_default
            for key, value in rules.options.items():
                field = house_rules.field_name(rules.variant, key)
                if field in self.fields:
                    self.fields[field].initial = str(value)
