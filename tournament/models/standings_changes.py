"""A tournament's standings version: how many changes of what the standings show were committed, so that the
public standings page can be kept rendered, and answered with a 304, until the next one.

What the standings read: the tournament (its name, date, tie-breaks, second confirmation), its participants
and its results with their score rows (written only by the result's ``save`` and ``bulk_create``: the result's
signal stands for them). Every save or delete of one of them writes a ``StandingsChange`` row in the same
transaction (the models' signals below). Writes that send no signal (``bulk_create``, ``QuerySet.update``)
call ``standings_changed`` themselves: the participants' import, the backup's restore, the demo.

Why a row a change, counted, and not a number bumped: an insert locks no row that another transaction waits
for (a confirmation takes its locks in order, round, table, game; a counter's row would be one more lock,
taken in the middle of every writer), and it is made in the writer's own transaction, so that the change and
its row are seen together. The count, not the highest id: ids are given at insert and committed in any
order, a count grows with every commit.
"""

from __future__ import annotations

from django.db import models
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _

from tournament.models.results import TableResult
from tournament.models.rounds import Table
from tournament.models.tournaments import Participant, Tournament


class StandingsChange(models.Model):
    """A change of what a tournament's standings show, committed (counted by ``version``)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )

    class Meta:
        verbose_name = _("standings change")
        verbose_name_plural = _("standings changes")


def version(tournament: Tournament) -> str:
    """What the tournament's standings are now, in one short query: its id, when it was made (an id used again
    by a database rolled back is another tournament) and how many changes were committed."""
    changes = StandingsChange.objects.filter(tournament=tournament.pk).count()
    return f"{tournament.pk}.{tournament.created_at.timestamp():.6f}.{changes}"


def counts(tournament_ids) -> dict[int, int]:
    """How many changes of each tournament's standings were committed, in one query (the event streams')."""
    rows = StandingsChange.objects.filter(tournament__in=tournament_ids).values("tournament")
    return dict(rows.annotate(n=models.Count("pk")).values_list("tournament", "n"))


def standings_changed(tournament_id: int | None) -> None:
    """Record a change of the tournament's standings (in the current transaction)."""
    if tournament_id is not None:
        StandingsChange.objects.create(tournament_id=tournament_id)


def with_its_tournament(origin) -> bool:
    """A row deleted along with its tournament (``tournament.delete()`` or a query's ``delete()``): nothing
    is left to show, and a change row would name a tournament gone."""
    return isinstance(origin, Tournament) or getattr(origin, "model", None) is Tournament


def _tournament_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        standings_changed(instance.pk)


def _participant_changed(sender, instance, raw=False, origin=None, **kwargs):
    if not raw and not with_its_tournament(origin):
        standings_changed(instance.tournament_id)


def _result_changed(sender, instance, raw=False, origin=None, **kwargs):
    if not raw and not with_its_tournament(origin):
        of_table = Table.objects.filter(pk=instance.table_id).values_list("round__tournament", flat=True)
        standings_changed(of_table.first())


post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="standings_tournament_saved")
for model, receiver in (
    (Participant, _participant_changed),
    (TableResult, _result_changed),  # its score rows are written and deleted with it, never alone
):
    post_save.connect(receiver, sender=model, dispatch_uid=f"standings_{model.__name__}_saved")
    post_delete.connect(receiver, sender=model, dispatch_uid=f"standings_{model.__name__}_deleted")
