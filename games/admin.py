"""Deals in the admin, read-only: a deal is its seed and its log, changed only by the
engine through games.play.services (issue 53, item 1: its players, dealer or finished flag
edited here would bend the washbook it books)."""

from django.contrib import admin

from club.admin import AppendOnlyAdmin, ReadOnlyInline

from .models import Deal, DealAction


class DealActionInline(ReadOnlyInline):
    model = DealAction
    readonly_fields = ("index", "seat", "action", "client_token", "by_member_id", "created_at")


@admin.register(Deal)
class DealAdmin(AppendOnlyAdmin):
    list_display = ("id", "table", "number", "variant", "players", "dealer", "version", "finished")
    list_filter = ("variant", "finished")
    readonly_fields = ("seed", "pack", "version", "outcome", "washbook_line_id")
    exclude = ("snapshot",)
    inlines = [DealActionInline]
