"""The admin for the secretary: a window on the club's rows, not a way round its rules.

Every change to an evening, a table, its seats and arrivals, a washbook, the ledger, a
settlement or the audit goes through the services (their checks, the lock order, the
audit log): here those rows are read-only (issue 53, item 1). An evening's stake changed
here after its balancing once made a later correction pay the wrong way. Members' own
details (name, active, guest) stay editable, and every change is audited."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from club import models
from club.models import AuditEntry
from club.pages.web import sentence
from club.services import audit
from club.services.base import ClubError, reserved_name, shown_name


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AppendOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: no add, change or delete (the services write these rows)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MemberForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = models.Member
        fields = ["display_name", "active"]

    def clean_display_name(self) -> str:
        """The name as the Members page takes it: no hidden characters, spaces tidied, not
        a computer player's."""
        try:
            name = shown_name(self.cleaned_data["display_name"], field="display_name")
        except ClubError as e:
            raise forms.ValidationError(sentence(e)) from None
        if not name:
            raise forms.ValidationError("Give the member a name.")
        if reserved_name(name):
            raise forms.ValidationError(f"{name!r} is a computer player's name")
        return name


@admin.register(models.Member)
class MemberAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A member's own details; a computer player's flag and his login are not edited here
    (a bot is never staked: turning one into a member would stake his past tables)."""

    list_display = ["display_name", "user", "joined", "active", "is_bot", "is_guest"]
    list_filter = ["active", "is_bot"]
    search_fields = ["display_name", "user__username"]
    form = MemberForm
    readonly_fields = ["user", "is_bot", "is_guest", "joined"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # members join through the Members page (their login and account)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a member with books is never deleted; "active" retires him

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        changed = ", ".join(form.changed_data) or "nothing"
        audit.record(
            request.user, AuditEntry.MEMBER, f"Member {obj} edited in the admin: {changed}"
        )


class ArrivalInline(ReadOnlyInline):
    model = models.Arrival
    fields = ["order", "member", "arrived_at", "left_at", "queue_table", "queue_seq"]


class TableInline(ReadOnlyInline):
    model = models.Table
    fields = ["number", "variant", "size", "mode", "status", "auto_redraw"]
    show_change_link = True


@admin.register(models.ClubSession)
class ClubSessionAdmin(AppendOnlyAdmin):
    list_display = ["__str__", "stake", "status", "opened_at", "closed_at", "balanced_at"]
    list_filter = ["status"]
    inlines = [ArrivalInline, TableInline]


class SeatInline(ReadOnlyInline):
    model = models.Seat


class EventInline(ReadOnlyInline):
    model = models.TableEvent


@admin.register(models.Table)
class TableAdmin(AppendOnlyAdmin):  # type: ignore[type-arg]
    list_display = ["__str__", "variant", "size", "mode", "status", "game_number", "next_redraw_at"]
    list_filter = ["status", "variant", "mode", "is_practice"]
    inlines = [SeatInline, EventInline]


class CutInline(ReadOnlyInline):
    model = models.Cut


@admin.register(models.CutBatch)
class CutBatchAdmin(AppendOnlyAdmin):
    list_display = ["__str__", "table", "purpose", "created_at", "note"]
    list_filter = ["purpose"]
    inlines = [CutInline]


@admin.register(models.Substitution)
class SubstitutionAdmin(AppendOnlyAdmin):
    list_display = ["table", "leaver", "substitute", "game_number", "status"]
    list_filter = ["status"]


@admin.register(models.RedrawDemand)
class RedrawDemandAdmin(AppendOnlyAdmin):
    list_display = ["table", "member", "created_at", "applied_at"]


class EntryInline(ReadOnlyInline):
    model = models.WashbookEntry


@admin.register(models.WashbookLine)
class WashbookLineAdmin(AppendOnlyAdmin):
    list_display = ["__str__", "kind", "value", "game_number", "created_at", "sealed"]
    list_filter = ["kind"]
    inlines = [EntryInline]


class LegInline(ReadOnlyInline):
    model = models.Leg


@admin.register(models.Posting)
class PostingAdmin(AppendOnlyAdmin):
    list_display = ["__str__", "kind", "session", "memo", "created_at", "sealed"]
    list_filter = ["kind"]
    inlines = [LegInline]


@admin.register(models.Account)
class AccountAdmin(AppendOnlyAdmin):
    list_display = ["__str__", "balance"]


@admin.register(models.Transfer)
class TransferAdmin(AppendOnlyAdmin):
    list_display = ["session", "payer", "payee", "amount", "paid"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(AppendOnlyAdmin):
    list_display = ["at", "actor", "action", "what", "why", "address", "session"]
    list_filter = ["action"]
    search_fields = ["what", "why", "actor__username"]
