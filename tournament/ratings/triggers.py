"""When the ratings are rebuilt: once the transaction that changed what they are made of commits — a result
confirmed (or confirmed a second time), reopened, entered or corrected by hand, a tournament's date changed or
a tournament deleted — from that tournament's place in the ratings' order on (``rebuild.Point``). The links of
participants to players, merges and splits (``identities``) and past results imported ask for theirs
themselves (``after_commit``).

The rebuild runs after the commit, in the request that made the change: what the request did stands whatever
befalls the ratings, which are derived data; a rebuild that fails is logged and the next one mends it (every
rebuild recomputes everything from its point on)."""

from __future__ import annotations

import logging
import threading

from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save

from tournament.models import PastEvent, TableResult, Tournament
from tournament.ratings.rebuild import Point, rebuild

log = logging.getLogger(__name__)
_asked = threading.local()  # the points asked for in this thread since the last rebuild


def after_commit(since: Point | None) -> None:
    """Rebuild the ratings from ``since`` (None: all) once the current transaction commits (at once outside
    one). Asked many times in one transaction (a tournament deleted with its results), it rebuilds once, from
    the earliest point asked; a point asked in a transaction rolled back only makes a later rebuild start
    earlier, which changes no figure."""
    points = _asked.__dict__.setdefault("points", [])
    points.append(since)
    transaction.on_commit(_run)


def _run() -> None:
    points, _asked.points = getattr(_asked, "points", []), []
    if not points:
        return
    since = None if None in points else min(points)
    try:
        rebuild(since)
    except Exception:  # derived data: the change itself stands, the next rebuild mends the ratings
        log.exception("the ratings could not be rebuilt from %s", since)


def _result_changed(sender, instance: TableResult, **kwargs) -> None:
    if kwargs.get("raw"):
        return
    try:
        tournament = Tournament.objects.only("date").get(round_set__tables__pk=instance.table_id)
    except Tournament.DoesNotExist:  # deleted with its tournament: the tournament's own signal rebuilds
        return
    after_commit(Point.of_tournament(tournament))


def _tournament_date_before(sender, instance: Tournament, **kwargs) -> None:
    instance._date_stored = None
    if instance.pk is not None and not kwargs.get("raw"):
        instance._date_stored = (
            Tournament.objects.filter(pk=instance.pk).values_list("date", flat=True).first()
        )


def _tournament_saved(sender, instance: Tournament, created: bool, **kwargs) -> None:
    stored = getattr(instance, "_date_stored", None)
    if created or kwargs.get("raw") or stored is None or stored == instance.date:
        return
    first = min(stored, instance.date)
    after_commit(Point(first, 0, 0))


def _tournament_deleted(sender, instance: Tournament, **kwargs) -> None:
    after_commit(Point.of_tournament(instance))


def _past_event_deleted(sender, instance: PastEvent, **kwargs) -> None:
    after_commit(Point.of_past_event(instance))


def connect() -> None:
    """Called once, when the app is ready (tournament/apps.py)."""
    post_save.connect(_result_changed, sender=TableResult, dispatch_uid="ratings_result_saved")
    post_delete.connect(_result_changed, sender=TableResult, dispatch_uid="ratings_result_deleted")
    pre_save.connect(_tournament_date_before, sender=Tournament, dispatch_uid="ratings_tournament_date")
    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="ratings_tournament_saved")
    post_delete.connect(_tournament_deleted, sender=Tournament, dispatch_uid="ratings_tournament_deleted")
    post_delete.connect(_past_event_deleted, sender=PastEvent, dispatch_uid="ratings_past_event_deleted")
