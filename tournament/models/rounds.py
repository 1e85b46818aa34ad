"""A tournament's rounds, their tables (with referees; a table's game is ``Game.table``) and who sits
where."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules import roles
from tournament.labels import ROLES
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, at_most
from tournament.models.statuses import ResultStatus, RoundStatus
from tournament.models.tournaments import Participant, Tournament


class Round(models.Model):
    Status = RoundStatus

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"), validators=at_most(SMALL_MAX))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.SEATED)
    seed = models.PositiveIntegerField(_("seating seed"), default=0, validators=at_most(INTEGER_MAX))
    created_at = models.DateTimeField(_("seated at"), default=timezone.now, editable=False)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("tournament round")
        verbose_name_plural = _("tournament rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_1"),
            models.CheckConstraint(condition=Q(status__in=RoundStatus.values), name="round_status_valid"),
        ]

    def __str__(self):
        return f"{self.tournament} — {self.number}"


class TableQuerySet(models.QuerySet):
    def closed(self):
        """The tables whose game is read-only: their round is over, or their result is confirmed."""
        return self.filter(Q(round__status=RoundStatus.FINISHED) | Q(results__status=ResultStatus.CONFIRMED))


class Table(models.Model):
    objects = TableQuerySet.as_manager()

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("table"), validators=at_most(SMALL_MAX))
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="tables", verbose_name=_("referees")
    )
    # Its game, once started: ``Game.table`` (a unique column there, so a table never gets two games).

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")]

    def __str__(self):
        return f"{self.round} — {self.number}"

    @property
    def game_or_none(self):
        """The table's game, or None before it starts (``table.game`` raises then)."""
        try:
            return self.game
        except ObjectDoesNotExist:
            return None


class Seat(models.Model):
    class Role(models.TextChoices):
        """Anti-Monopoly: the participant's role at this table (blank in other variants)."""

        COMPETITOR = roles.COMPETITOR, ROLES[roles.COMPETITOR]
        MONOPOLIST = roles.MONOPOLIST, ROLES[roles.MONOPOLIST]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="seats", verbose_name=_("participant")
    )
    order = models.PositiveSmallIntegerField(_("order of play"), default=0, validators=at_most(SMALL_MAX))
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, blank=True)

    class Meta:
        ordering = ["table", "order"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [models.UniqueConstraint(fields=["table", "participant"], name="unique_seat")]
