"""House rules (issue 43): the club's named sets of a game's options, and the options a
table plays under, shown wherever a result is read.

A set holds a value for every option of its game, checked by the engine's own
`make_rules` when saved. A form names an option's field ``opt-<game>-<option>`` (as the
practice form does), so a refusal is told beside the field it is about.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from club.models import AuditEntry, ClubSession, HouseRules, Table
from club.services import audit
from club.services.base import Actor, ClubError, recorded_user, shown_name
from games.engine.errors import InvalidActionError
from games.engine.rules import make_rules
from games.engine.variant import VARIANTS, OptionSpec, OptionValue


def field_name(variant: str, option: str) -> str:
    """The form field of one option of one game."""
    return f"opt-{variant}-{option}"


def option_value(variant: str, spec: OptionSpec, raw: object) -> OptionValue:
    """A form's text for an option as the option's own value, or ClubError beside its
    field naming the values it may take."""
    for choice in spec.choices:
        if str(choice) == str(raw) or choice == raw and type(choice) is type(raw):
            return choice
    allowed = ", ".join(spec.word(c) for c in spec.choices)
    raise ClubError(
        f"{spec.title} is one of {allowed}, not {raw!r}", field=field_name(variant, spec.name)
    )


def checked_options(variant: str, given: Mapping[str, object]) -> dict[str, OptionValue]:
    """Every option of ``variant`` from ``given`` (raw form text or values; the game's
    default for an option not given), checked one by one beside its field and then
    together by the engine (`make_rules`). An option the game does not have is refused."""
    if variant not in VARIANTS:
        raise ClubError(gettext("unknown game %(game)s") % {"game": repr(variant)}, field="variant")
    game = VARIANTS[variant]
    known = {o.name for o in game.options}
    unknown = sorted(set(given) - known)
    if unknown:
        raise ClubError(
            f"{game.display_name} has no option {', '.join(unknown)}"
            + (f" (its options: {', '.join(sorted(known))})" if known else " (it has none)"),
            field="variant",
        )
    problems: list[ClubError] = []
    values: dict[str, OptionValue] = {}
    for spec in game.options:
        try:
            values[spec.name] = option_value(variant, spec, given.get(spec.name, spec.default))
        except ClubError as e:
            problems.append(e)
    if problems:
        raise ClubError.all_of(problems)
    try:
        make_rules(variant, values)
    except InvalidActionError as e:
        raise ClubError(gettext("these options do not fit together: %(e)s") % {"e": e}) from e
    return values


def save(
    *,
    name: str,
    variant: str,
    options: Mapping[str, object],
    default: bool = False,
    rules: HouseRules | None = None,
    by: Actor = None,
) -> HouseRules:
    """Save a named set (new, or ``rules`` changed): checked by the engine, its name once
    a game; ``default`` makes it the club's default for the game (and the previous
    default no longer). Tables already formed keep what they were formed with."""
    name = shown_name(name, field="name", what=gettext("the name of the house rules"))
    if not name:
        raise ClubError(gettext("give the house rules a name, e.g. “Tuesday rules”"), field="name")
    values = checked_options(variant, options)
    try:
        with transaction.atomic():
            # One save of a game's sets at a time (issue 53, item 7): two sets saved as
            # the default at once both found no other default to clear, and the second's
            # insert broke the one-default rule, refused as a name taken. Now the later
            # waits, then takes the default from the earlier.
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"house-rules:{variant}"]
                )
            if default:
                HouseRules.objects.select_for_update().filter(
                    variant=variant, is_default=True
                ).exclude(pk=rules.pk if rules else None).update(is_default=False)
            target = rules or HouseRules()
            target.name, target.variant, target.options = name, variant, values
            target.is_default = default
            target.updated_at = timezone.now()
            target.updated_by = recorded_user(by)
            target.save()
            audit.record(by, AuditEntry.HOUSE_RULES, saved_words(target, changed=rules is not None))
    except IntegrityError as e:
        constraint = getattr(getattr(e.__cause__, "diag", None), "constraint_name", None)
        if constraint == "house_rules_name_once_a_game":
            raise ClubError(
                gettext(
                    "the club's house rules for %(display_name)s already have a set called %(name)s"
                )
                % {"display_name": VARIANTS[variant].display_name, "name": name},
                field="name",
            ) from e
        raise ClubError(
            gettext(
                "another set was saved for %(display_name)s at the same moment; nothing was saved: look at the house rules again and save once more"
            )
            % {"display_name": VARIANTS[variant].display_name},
        ) from e
    return target


def saved_words(saved: HouseRules, *, changed: bool) -> str:
    """A saved set as the secretary is told and the audit log keeps it."""
    return (
        f"{'Changed' if changed else 'Saved'} house rules {saved.name} for "
        f"{VARIANTS[saved.variant].display_name}: {described(saved.variant, saved.options)}"
        + (" (the club's default)" if saved.is_default else "")
    )


def add_named_sets(*, by: Actor = None) -> list[HouseRules]:
    """The sources' named sets of every game (the registry's ``named_sets``, issue 80:
    "Conquián as played today" beside Foster's), added to the club's house rules where
    the club has no set of that name for the game; a club's own set is never changed.
    The sets added."""
    added = []
    for variant, game in VARIANTS.items():
        for name, options in game.named_sets:
            if not HouseRules.objects.filter(variant=variant, name__iexact=name).exists():
                added.append(save(name=name, variant=variant, options=options, by=by))
    return added


def default_for(variant: str, session: ClubSession | None = None) -> HouseRules | None:
    """The set a table of ``variant`` starts from: the evening's, when it is of that
    game; else the club's default for the game; else none (the game's own defaults)."""
    if session is not None and session.house_rules_id is not None:
        chosen = session.house_rules
        if chosen is not None and chosen.variant == variant:
            return chosen
    return HouseRules.objects.filter(variant=variant, is_default=True).first()


@dataclass(frozen=True)
class InForce:
    """One option a table plays under, as its pages show it."""

    spec: OptionSpec
    value: OptionValue

    @property
    def word(self) -> str:
        return self.spec.word(self.value)

    # As a page says them, in the reader's language (issue 82).
    @property
    def title(self) -> str:
        return gettext(self.spec.title)

    @property
    def said(self) -> str:
        return gettext(self.word)

    @property
    def source(self) -> str:
        return gettext(self.spec.source)

    @property
    def changed(self) -> bool:
        """Not the game's own default: a house rule."""
        return self.value != self.spec.default


def in_force(table: Table) -> list[InForce]:
    """Every option of the table's game with the value it plays under."""
    rules = make_rules(table.variant, table.options or {})
    game = VARIANTS[table.variant]
    return [InForce(spec, rules.opt(spec.name)) for spec in game.options]


def described(variant: str, options: Mapping[str, Any], *, to_reader: bool = False) -> str:
    """The options that differ from the game's own, in words ("Ratting: a first show
    of six cards or more; Jokers: the two deuces of spades"), or "the game's own rules";
    ``to_reader``: in the reader's language (a page's), else the books' English."""
    say = gettext if to_reader else str
    rules = make_rules(variant, dict(options))
    changed = [
        f"{say(spec.title)}: {say(spec.word(rules.opt(spec.name)))}"
        for spec in VARIANTS[variant].options
        if rules.opt(spec.name) != spec.default
    ]
    return "; ".join(changed) or say(gettext_noop("the game's own rules"))


def rules_label(table: Table, *, to_reader: bool = False) -> str:
    """What a table plays under in a line: its house rules' name (as formed) and the
    options that differ from the game's own: "Dalton rules: Jokers: the two deuces of
    spades", or "the game's own rules"."""
    words = described(table.variant, table.options or {}, to_reader=to_reader)
    return f"{table.house_rules_name}: {words}" if table.house_rules_name else words
