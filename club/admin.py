"""Everything in the admin for the secretary. The books (washbook, ledger) are read-only
here: they are appended to through the services, never edited."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from . import models


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AppendOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Member)
class MemberAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["display_name", "user", "joined", "active", "is_bot"]
    list_filter = ["active", "is_bot"]
    search_fields = ["display_name", "user__username"]


class ArrivalInline(admin.TabularInline):  # type: ignore[type-arg]
    model = models.Arrival
    extra = 0
    fields = ["order", "member", "arrived_at", "left_at", "queue_table", "queue_seq"]


class TableInline(admin.TabularInline):  # type: ignore[type-arg]
    model = models.Table
    extra = 0
    fields = ["number", "variant", "size", "mode", "status", "auto_redraw"]
    show_change_link = True


@admin.register(models.ClubSession)
class ClubSessionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["__str__", "stake", "status", "opened_at", "closed_at", "balanced_at"]
    list_filter = ["status"]
    readonly_fields = ["status", "closed_at", "balanced_at", "balance_note", "settlement_method"]
    inlines = [ArrivalInline, TableInline]


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = models.Seat
    extra = 0


class EventInline(ReadOnlyInline):
    model = models.TableEvent


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
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
class SubstitutionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["table", "leaver", "substitute", "game_number", "status"]
    list_filter = ["status"]


@admin.register(models.RedrawDemand)
class RedrawDemandAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
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
    list_display = ["at", "actor", "action", "what", "why", "session"]
    list_filter = ["action"]
    search_fields = ["what", "why", "actor__username"]
