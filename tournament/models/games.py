"""A game at a table: its players in seat order, its append-only event log, and a snapshot of its state.

The log is the game record: the active events, in sequence order, replay to the snapshot. Undone and voided
events stay in the log with who did it, when and why.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import available_variants
from tournament.labels import variant_label
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, at_most

NAME_LENGTH = 120  # a player's or participant's name, everywhere (forms, imports, the database)
REASON_LENGTH = 200  # why a move was undone or voided, why a result was reopened
CLIENT_KEY_LENGTH = 64  # the key a console form carries so that a resent request is applied once


class GameStatus(models.TextChoices):
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class EventStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    UNDONE = "undone", _("undone")
    VOIDED = "voided", _("voided")


class GameQuerySet(models.QuerySet):
    def at(self, table):
        """The game played at this tournament table (at most one)."""
        return self.filter(table=table)

    def at_tables(self, tables):
        """The games played at these tables."""
        return self.filter(table__in=tables)


class GameEventQuerySet(models.QuerySet):
    def active(self):
        """The moves that count: those the game replays (undone and voided ones stay in the log)."""
        return self.filter(status=EventStatus.ACTIVE)


class Game(models.Model):
    Status = GameStatus

    objects = GameQuerySet.as_manager()

    name = models.CharField(_("name"), max_length=250, blank=True)
    # The tournament table this game is played at (none for a game started on its own): one game per table.
    table = models.OneToOneField(
        "tournament.Table",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="game",
        verbose_name=_("table"),
    )
    variant = models.CharField(_("variant"), max_length=40, choices=[(v, v) for v in available_variants()])
    # a board id (rules.available_boards): a shipped board or a stored BoardEdition, checked by the forms
    board = models.CharField(_("board"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="refereed_games", verbose_name=_("referees")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    started_at = models.DateTimeField(_("clock started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # The current state, kept so that a move does not replay the game (rules.snapshot), and the ledger totals.
    state = models.JSONField(_("state"), default=dict, editable=False)
    # player id -> [income, cost]
    ledger = models.JSONField(_("income and cost"), default=dict, editable=False)
    # The referee's cash counts as they stand (rules.cash_counts: each player's last count and the moves
    # since), kept beside the state so that no screen replays the game for them; None for a game stored
    # before they were kept (recording.counts_of fills it from a replay, once).
    counts = models.JSONField(_("cash counts"), null=True, default=None, editable=False)
    # +1 at every change of the log
    version = models.PositiveIntegerField(
        _("version"), default=0, editable=False, validators=at_most(INTEGER_MAX)
    )
    next_seq = models.PositiveIntegerField(
        _("next sequence number"), default=1, editable=False, validators=at_most(INTEGER_MAX)
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(condition=Q(status__in=GameStatus.values), name="game_status_valid"),
            models.CheckConstraint(condition=Q(next_seq__gte=1), name="game_next_seq_from_1"),
        ]

    def __str__(self):
        """What people read: a tournament table's game by its tournament, round and table (in the reader's
        language, whoever started it), another by its name, or by its variant's name and number."""
        if self.table_id is not None:
            table = self.table
            return gettext("%(tournament)s · round %(round)s · table %(table)s") % {
                "tournament": table.round.tournament.name,
                "round": table.round.number,
                "table": table.number,
            }
        return self.name or f"{variant_label(self.variant)} #{self.pk}"

    @property
    def last_move(self) -> int:
        """The number of the log's last move (0: none yet): the numbers a dispute, the replay's ``?move=``
        and a participant's page may name are 1 to it."""
        return self.next_seq - 1


class GamePlayer(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players", verbose_name=_("game"))
    seat = models.PositiveSmallIntegerField(_("seat"), validators=at_most(SMALL_MAX))
    pid = models.CharField(_("player id"), max_length=16)
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    role = models.CharField(_("role"), max_length=12, blank=True)
    participant = models.ForeignKey(
        "tournament.Participant",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="game_players",
        verbose_name=_("participant"),
    )

    class Meta:
        ordering = ["game", "seat"]
        verbose_name = _("player in a game")
        verbose_name_plural = _("players in games")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="unique_seat_per_game"),
            models.UniqueConstraint(fields=["game", "pid"], name="unique_player_id_per_game"),
            models.CheckConstraint(condition=~Q(name=""), name="game_player_named"),
        ]

    def __str__(self):
        return self.name


class GameEvent(models.Model):
    Status = EventStatus

    objects = GameEventQuerySet.as_manager()

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", verbose_name=_("game"))
    seq = models.PositiveIntegerField(_("sequence number"), validators=at_most(INTEGER_MAX))
    data = models.JSONField(_("event"))  # the event as in a game record
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.ACTIVE)
    # what it did, as messages (rules.messages)
    notes = models.JSONField(_("notes"), default=list, editable=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), default=timezone.now, editable=False)
    client_key = models.CharField(
        _("request key"), max_length=CLIENT_KEY_LENGTH, null=True, blank=True
    )  # a resent move: once
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("taken back by"),
    )
    changed_at = models.DateTimeField(_("taken back at"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=REASON_LENGTH, blank=True)
    # The request that undid or voided it: a resent undo / void is answered, not applied twice.
    change_key = models.CharField(
        _("taking-back request key"), max_length=CLIENT_KEY_LENGTH, null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("move in the log")
        verbose_name_plural = _("moves in the log")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_seq_per_game"),
            models.UniqueConstraint(fields=["game", "client_key"], name="unique_client_key_per_game"),
            models.UniqueConstraint(fields=["game", "change_key"], name="unique_change_key_per_game"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="event_seq_from_1"),
            models.CheckConstraint(condition=Q(status__in=EventStatus.values), name="event_status_valid"),
            models.CheckConstraint(
                condition=Q(status="active") | (Q(changed_at__isnull=False) & ~Q(reason="")),
                name="event_taken_back_with_reason",
            ),
        ]

    def __str__(self):
        return f"{self.game_id}#{self.seq} {self.data.get('type')}"
