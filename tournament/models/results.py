"""A table's result as confirmed (and its history: reopened results stay), and its rows: each player's place,
final score and placement points, which the standings add up."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.standings import MAX_PLACEMENT_POINTS
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, at_most
from tournament.models.games import NAME_LENGTH, REASON_LENGTH
from tournament.models.rounds import Table
from tournament.models.statuses import ResultStatus
from tournament.models.tournaments import Participant, Tournament


def result_counts(*, status: str, second_by, second_confirmation: bool) -> bool:
    """The rule of what counts in the standings, the ratings and the league: a result counts once it stands
    (confirmed, not reopened) and, where its tournament asks for a second confirmation, a second person has
    confirmed it. Of one result: ``TableResult.counts``; in a query: ``counting``; a backup's rows: here."""
    return status == ResultStatus.CONFIRMED and (not second_confirmation or second_by is not None)


def counting(path: str = "") -> Q:
    """``result_counts`` as a query's condition, on the results ``path`` leads to ("result__": a score's)."""
    return Q(**{f"{path}status": ResultStatus.CONFIRMED}) & (
        Q(**{f"{path}table__round__tournament__second_confirmation": False})
        | Q(**{f"{path}second_by__isnull": False})
    )


class TableResultQuerySet(models.QuerySet):
    def confirmed(self):
        """The results that stand (at most one per table); a reopened one stays only in the history."""
        return self.filter(status=ResultStatus.CONFIRMED)

    def counted(self):
        """The results that count (``result_counts``)."""
        return self.filter(counting())

    def reopened(self):
        return self.filter(status=ResultStatus.REOPENED)

    def at(self, table):
        """One table's results."""
        return self.filter(table=table)

    def at_tables(self, tables):
        return self.filter(table__in=tables)

    def of_tournament(self, tournament):
        return self.filter(table__round__tournament=tournament)

    def with_scores(self):
        """With each result's score rows read along (one query for all), for ``ranking`` and ``scores``."""
        return self.prefetch_related("scores")

    def bulk_create(self, objs, *args, **kwargs):
        """As Django's, and the score rows of each result given a ``ranking`` stored too (in one query)."""
        objs = list(objs)
        created = super().bulk_create(objs, *args, **kwargs)
        TableScore.objects.bulk_create(row for result in objs for row in result.pending_scores())
        return created


class TableResult(models.Model):
    """A table's result as confirmed (history: a reopened result stays, with who reopened it and why)."""

    Status = ResultStatus

    objects = TableResultQuerySet.as_manager()
    _ranking_to_store = None  # a ranking given (``ranking = [...]``), written as score rows by ``save``

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="results", verbose_name=_("table")
    )
    # Its ranking: a ``TableScore`` row per player (``scores``), read and written as a list by ``ranking``.
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.CONFIRMED)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), default=timezone.now, editable=False)
    second_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("second confirmation by"),
    )
    second_at = models.DateTimeField(_("second confirmation at"), null=True, blank=True)
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("reopened by"),
    )
    reopened_at = models.DateTimeField(_("reopened at"), null=True, blank=True)
    reason = models.CharField(_("why reopened"), max_length=REASON_LENGTH, blank=True)
    # A result the director entered by hand (a table that played on paper, a device that died), and why.
    by_hand = models.BooleanField(_("entered by hand"), default=False)
    hand_reason = models.CharField(_("why by hand"), max_length=REASON_LENGTH, blank=True)

    def counts(self, tournament: Tournament | None = None) -> bool:
        """Whether this result counts (``result_counts``); ``tournament`` its own, when read already."""
        tournament = tournament or self.table.round.tournament
        return result_counts(
            status=self.status,
            second_by=self.second_by_id,
            second_confirmation=tournament.second_confirmation,
        )

    class Meta:
        ordering = ["table", "-confirmed_at"]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")
        constraints = [
            # What must never happen: two results of one table counting at once (a double-tapped "confirm").
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="confirmed"), name="one_confirmed_result_per_table"
            ),
            models.CheckConstraint(condition=Q(status__in=ResultStatus.values), name="result_status_valid"),
            models.CheckConstraint(
                condition=Q(status="confirmed") | (Q(reopened_at__isnull=False) & ~Q(reason="")),
                name="result_reopened_with_reason",
            ),
            models.CheckConstraint(
                condition=Q(by_hand=False) | ~Q(hand_reason=""), name="result_by_hand_with_reason"
            ),
        ]

    @property
    def ranking(self) -> list[dict]:
        """The result's rows, best first, as the engine and the director's hand result make them and the
        backup writes them: ``{"participant": id, "name", "rank", "score", "points"}`` (and ``"role"`` where
        the player had one). Read from the score rows (prefetch them: ``with_scores()``)."""
        if self._ranking_to_store is not None:
            return self._ranking_to_store
        return [row.as_dict() for row in self.scores.all()]

    @ranking.setter
    def ranking(self, rows: list[dict]) -> None:
        """Rows to store as the result's score rows, in this order, when the result is saved."""
        self._ranking_to_store = list(rows)

    def pending_scores(self) -> list[TableScore]:
        """The score rows of the ``ranking`` given since the result was last saved (taken: stored once)."""
        rows, self._ranking_to_store = self._ranking_to_store, None
        if rows is None:
            return []
        return [TableScore.from_dict(self, position, row) for position, row in enumerate(rows)]

    def save(self, *args, **kwargs):
        """Saved, with the score rows of a ``ranking`` given (they replace the ones stored)."""
        super().save(*args, **kwargs)
        scores = self.pending_scores()
        if scores:
            self.scores.all().delete()
            TableScore.objects.bulk_create(scores)


class TableScore(models.Model):
    """One player's line of a table's result: his place, final score (RULES.md §4) and placement points
    (§5), which the standings add up; ``position`` keeps the result's order (by place, then name)."""

    result = models.ForeignKey(
        TableResult, on_delete=models.CASCADE, related_name="scores", verbose_name=_("table result")
    )
    position = models.PositiveSmallIntegerField(_("order in the result"), validators=at_most(SMALL_MAX))
    # None for a player of the game who was no participant; the row keeps his name as it was at the table
    participant = models.ForeignKey(
        Participant,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="table_scores",
        verbose_name=_("participant"),
    )
    name = models.CharField(_("name"), max_length=NAME_LENGTH, blank=True)
    role = models.CharField(_("role"), max_length=12, blank=True)  # Anti-Monopoly: the player's role
    rank = models.PositiveSmallIntegerField(_("place"), validators=at_most(SMALL_MAX))
    score = models.IntegerField(
        _("score"), validators=[MinValueValidator(-INTEGER_MAX), *at_most(INTEGER_MAX)]
    )
    points = models.IntegerField(_("points"), validators=at_most(MAX_PLACEMENT_POINTS))

    class Meta:
        ordering = ["result", "position"]
        verbose_name = _("player's score at a table")
        verbose_name_plural = _("players' scores at tables")
        constraints = [
            models.UniqueConstraint(fields=["result", "position"], name="unique_score_position"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="score_rank_from_1"),
        ]

    def __str__(self):
        return f"{self.result_id}: {self.rank}. {self.name}"

    @classmethod
    def from_dict(cls, result: TableResult, position: int, row: dict) -> TableScore:
        return cls(
            result=result,
            position=position,
            participant_id=row.get("participant"),
            name=row.get("name", ""),
            role=row.get("role", ""),
            rank=row["rank"],
            score=row["score"],
            points=row["points"],
        )

    def as_dict(self) -> dict:
        """The row as the result's ``ranking`` lists it (the keys in this order; a role only where there is
        one)."""
        row = {
            "participant": self.participant_id,
            "name": self.name,
            "rank": self.rank,
            "score": self.score,
            "points": self.points,
        }
        if self.role:
            row["role"] = self.role
        return row
