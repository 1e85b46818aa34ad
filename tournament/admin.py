"""The Django admin, for the director's corrections."""

from django.contrib import admin

from tournament.models import Game, GameEvent, GamePlayer


class GamePlayerInline(admin.TabularInline):
    model = GamePlayer
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "variant", "board", "status", "version", "created_at")
    list_filter = ("status", "variant", "board")
    search_fields = ("name", "players__name")
    filter_horizontal = ("referees",)
    inlines = [GamePlayerInline]
    readonly_fields = ("version", "next_seq", "started_at", "finished_at")


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    """The log is append-only: events are read here; undo and void go through the console (they replay)."""

    list_display = ("game", "seq", "status", "entered_by", "entered_at", "reason")
    list_filter = ("status",)
    readonly_fields = [f.name for f in GameEvent._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
