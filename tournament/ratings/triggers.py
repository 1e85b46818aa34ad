"""When the ratings are rebuilt: once the transaction that changed what they are made of commits — a
tournament's date changed or a tournament deleted (the signals below), a result written (confirmed, confirmed
a second time, reopened, entered by hand: ``tournament.event.results.result_written`` asks) — from that
tournament's place in the ratings' order on (``rebuild.Point``). The links of participants to players, merges
and splits (``identities``) and past results imported ask for theirs themselves (``after_commit``).

The rebuild runs after the commit, in the request that made the change: what the request did stands whatever
befalls the ratings, which are derived data. The change's request for it is a row written with the change
(``rebuild.ask``): a rebuild that fails is logged and its row waits for the next one, which does it."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save

from tournament.models import PastEvent, RatingsPending, Tournament
from tournament.ratings.rebuild import Point, ask, rebuild_asked

log = logging.getLogger(__name__)


def after_commit(since: Point | None) -> None:
    """Ask for a rebuild of the ratings from ``since`` (None: all), in the current transaction (a row: lost
    with it if it rolls back, kept until a rebuild does it otherwise), and run the rebuilds asked for once it
    commits (at once outside a transaction)."""
    ask(since)
    transaction.on_commit(_run)


def _run() -> None:
    if not RatingsPending.objects.exists():  # done by a rebuild that ran meanwhile: no write lock taken
        return
    try:
        rebuild_asked()
    except Exception:  # derived data: the change itself stands; its row waits for the next rebuild
        log.exception("the ratings could not be rebuilt; the rebuild asked for waits for the next one")


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
    pre_save.connect(_tournament_date_before, sender=Tournament, dispatch_uid="ratings_tournament_date")
    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="ratings_tournament_saved")
    post_delete.connect(_tournament_deleted, sender=Tournament, dispatch_uid="ratings_tournament_deleted")
    post_delete.connect(_past_event_deleted, sender=PastEvent, dispatch_uid="ratings_past_event_deleted")
