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


def all_fields(model) -> list[str]:
    """Every field of the model the admin shows (its own and its many-to-many ones)."""
    return [f.name for f in model._meta.get_fields() if (f.concrete and not f.auto_created) or f.many_to_many]


class LockedTournamentMixin:
    """Anything of a tournament whose first round has started (``Tournament.locked``) is shown, not changed
    here: the director's pages change it then, with who, when and why."""

    def tournament_of(self, obj):
        return obj

    def locked(self, obj) -> bool:
        tournament = self.tournament_of(obj) if obj is not None else None
        return tournament is not None and tournament.locked

    def get_readonly_fields(self, request, obj=None):
        if self.locked(obj):
            return all_fields(self.model)
        return super().get_readonly_fields(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self.locked(obj) and super().has_delete_permission(request, obj)


class GamePlayerInline(admin.TabularInline):
    model = GamePlayer
    extra = 0
    readonly_fields = ("pid",)  # the log names the player by it


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "variant", "board", "status", "version", "created_at")
    list_filter = ("status", "variant", "board")
    search_fields = ("name", "players__name")
    filter_horizontal = ("referees",)
    inlines = [GamePlayerInline]
    # the variant, board and options the log replays by: a game is not replayed under other rules here
    readonly_fields = (
        "table",
        "variant",
        "board",
        "options",
        "status",
        "version",
        "next_seq",
        "started_at",
        "finished_at",
    )


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


class ParticipantInline(LockedTournamentMixin, admin.TabularInline):
    model = Participant
    extra = 0

    def has_add_permission(self, request, obj=None):
        return not self.locked(obj) and super().has_add_permission(request, obj)


@admin.register(Tournament)
class TournamentAdmin(LockedTournamentMixin, admin.ModelAdmin):
    list_display = ("name", "date", "variant", "board", "rounds", "table_size")
    search_fields = ("name",)
    filter_horizontal = ("directors",)
    inlines = [ParticipantInline]


@admin.register(Participant)
class ParticipantAdmin(LockedTournamentMixin, admin.ModelAdmin):
    list_display = ("name", "club", "seed", "tournament", "withdrawn_after")
    list_filter = ("tournament",)
    search_fields = ("name", "club")

    def tournament_of(self, obj):
        return obj.tournament


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
    readonly_fields = ("status",)  # started and finished by the round pages, results confirmed


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
    readonly_fields = ("pid",)  # the log names the player by it


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("participant", "table", "order")
    list_filter = ("table__round__tournament",)
