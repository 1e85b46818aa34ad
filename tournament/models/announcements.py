"""On PostgreSQL, a row saved says so to the event streams' listeners: ``NOTIFY`` on one channel with the
topic it changed (``table:12``, ``tournament:3``), sent in the writer's own transaction, so that it is
delivered when that commits and never when it rolls back. Every app server listens (``tournament/streams/
hub.py``): a move at one server reaches the streams held by another at once.

An announcement only wakes the listeners early: they read what changed from the database themselves, and
read every topic they serve again every few seconds anyway, so that a write sending no signal
(``bulk_create``, ``QuerySet.update``), or an announcement lost while a listener reconnects, shows a moment
later. On SQLite (one machine) the listeners only read, every half second; nothing is announced.

The topics (``tournament/streams/topics.py`` reads what each shows):
- ``table:<id>``: the table's game (its version and sequence number), its players' signatures, its result
  (announced by the result's writers: ``tournament.event.results.result_written``);
- ``tournament:<id>``: the standings (announced with each change: ``standings_changes``), the rounds, their
  seating, the check-ins;
- ``play:<tournament id>``: the moves at any of its tables (the director's round page) — announced as
  ``table:<id>``: a listener serving a ``play`` topic reads it again at any table's announcement.
"""

from __future__ import annotations

from django.db import connection
from django.db.models.signals import post_delete, post_save

from tournament.models.check_ins import CheckIn
from tournament.models.games import Game
from tournament.models.rounds import Round
from tournament.models.signatures import Signature
from tournament.models.tournaments import Participant

#: The PostgreSQL channel of every announcement.
CHANNEL = "tournament_live"


def topic(kind: str, pk: int) -> str:
    return f"{kind}:{pk}"


def announce(kind: str, pk: int | None) -> None:
    """Tell the listeners, when the current transaction commits, that ``kind:pk`` changed (PostgreSQL)."""
    if pk is not None and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, topic(kind, pk)])


def _table_row(sender, instance, raw=False, **kwargs):
    if not raw:
        announce("table", instance.table_id)


def _tournament_row(sender, instance, raw=False, **kwargs):
    if not raw:
        announce("tournament", instance.tournament_id)


def _check_in(sender, instance, raw=False, origin=None, **kwargs):
    """A check-in made, or taken back by itself (not deleted with its participant or tournament)."""
    by_itself = origin is None or isinstance(origin, CheckIn) or getattr(origin, "model", None) is CheckIn
    if not by_itself:
        return
    if not raw and connection.vendor == "postgresql":
        of_participant = Participant.objects.filter(pk=instance.participant_id)
        announce("tournament", of_participant.values_list("tournament_id", flat=True).first())


# Saves only (a deleted row is read at the listeners' next whole read): a receiver of deletes would cost every
# cascade Django's fast delete, and announce each row of a tournament deleted. A check-in taken back is the
# one delete a page waits for.
for model, receiver in (
    (Game, _table_row),  # a game started; its moves are saved by an update: recording announces them
    (Signature, _table_row),
    (Round, _tournament_row),  # seated, started, over
    (CheckIn, _check_in),
):
    post_save.connect(receiver, sender=model, dispatch_uid=f"announce_{model.__name__}_saved")
post_delete.connect(_check_in, sender=CheckIn, dispatch_uid="announce_CheckIn_deleted")
