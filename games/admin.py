from django.contrib import admin

from .models import Deal, DealAction


class DealActionInline(admin.TabularInline):
    model = DealAction
    extra = 0
    can_delete = False
    readonly_fields = ("index", "seat", "action", "client_token", "by_member_id", "created_at")

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "number", "variant", "players", "dealer", "version", "finished")
    list_filter = ("variant", "finished")
    readonly_fields = ("seed", "pack", "version", "outcome", "washbook_line_id")
    exclude = ("snapshot",)
    inlines = [DealActionInline]
