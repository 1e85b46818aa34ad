"""The Django admin, for the director's corrections."""

from django.contrib import admin

from tournament.models import (
    Game,
    GameEvent,
    GamePlayer,
    Participant,
    Round,
    Seat,
    Table,
    TableResult,
    Tournament,
)


class ReadOnlyAdminMixin:
    """Shown, never changed here: these rows have their own audited paths (confirm / reopen a result with who,
    when and why; seat, swap and withdraw through the round pages)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


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
    readonly_fields = ("table", "status", "version", "next_seq", "started_at", "finished_at")


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


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "variant", "board", "rounds", "table_size")
    search_fields = ("name",)
    filter_horizontal = ("directors",)
    inlines = [ParticipantInline]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "seed", "tournament", "withdrawn_after")
    list_filter = ("tournament",)
    search_fields = ("name", "club")


class SeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Seat
    extra = 0


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number",)
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "started_at")
    list_filter = ("tournament", "status")
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "game")
    filter_horizontal = ("referees",)
    inlines = [SeatInline]


@admin.register(TableResult)
class TableResultAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("table", "status", "confirmed_by", "confirmed_at", "second_by", "reopened_by", "reason")
    list_filter = ("status",)


@admin.register(GamePlayer)
class GamePlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "seat", "pid", "participant")
    search_fields = ("name",)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("participant", "table", "order")
    list_filter = ("table__round__tournament",)
