"""A past results' file stored, all or none, in one short transaction: its tournaments, an entrant per
name and tournament and a placement per row, many rows at a time; the ratings' rebuild asked for."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.files.past_results.reading import PastEventRows, read_past_results
from tournament.files.past_results.rows import PastResultsError, compared_name
from tournament.models import HeldFile, PastEntrant, PastEvent, PastPlacement
from tournament.models.bulk import Rows, insert
from tournament.ratings import triggers
from tournament.ratings.rebuild import Point


@dataclass
class Imported:
    events: list[PastEvent]
    tables: int
    placements: int


def _already_imported(events: list[PastEventRows]) -> list[tuple[int | None, str]]:
    """The file's tournaments imported before (the same name, as compared, and date)."""
    stored = {
        (compared_name(name), date)
        for name, date in PastEvent.objects.filter(date__in={e.date for e in events}).values_list(
            "name", "date"
        )
    }
    return [
        (
            e.line,
            _("%(tournament)s of %(date)s is already imported: delete it first to import it again")
            % {"tournament": e.name, "date": e.date.isoformat()},
        )
        for e in events
        if (compared_name(e.name), e.date) in stored
    ]


def check_past_results(filename: str, data: bytes) -> list[PastEventRows]:
    """The file's tournaments, read and checked as they would be imported (none imported before), or
    PastResultsError listing every problem by line."""
    events = read_past_results(filename, data)
    problems = _already_imported(events)
    if problems:
        raise PastResultsError(problems)
    return events


def import_past_results(filename: str, data: bytes, user, held: HeldFile | None = None) -> Imported:
    """Store the file's past tournaments, all or none (PastResultsError says why none), imported by
    ``user``; no entrant is linked to a player yet. ``held``: the file as it was held for the director to
    confirm, let go in the same transaction (a second confirmation of it imports nothing)."""
    events = check_past_results(filename, data)
    try:
        return _store(events, user, held)
    except IntegrityError:  # the same tournament imported meanwhile, in another request
        raise PastResultsError(
            _already_imported(events) or [(None, _("The file was imported meanwhile: see the list."))]
        ) from None


def _store(events: list[PastEventRows], user, held: HeldFile | None = None) -> Imported:
    """The file's tournaments written (in the caller's transaction: on SQLite, the write lock held meanwhile).
    What can be made before is made before; the rows are written many at a time (tournament.models.bulk),
    the placements in the order of their indexes: 100,000 rows in about a second on SQLite."""
    entrants = [list(e.entrants.values()) for e in events]  # (name as stored, club)
    places = [
        [(e.entrants[compared_name(r.player)][0], r.round, r.table, r.place) for r in e.rows] for e in events
    ]
    now = timezone.now()
    with transaction.atomic():
        if held is not None and not HeldFile.objects.filter(pk=held.pk).delete()[0]:
            raise IntegrityError("the file held was imported (or let go) meanwhile")
        stored = [
            PastEvent.objects.create(name=e.name, date=e.date, imported_by=user, imported_at=now)
            for e in events
        ]
        insert(
            Rows.of(
                PastEntrant,
                ("event", "name", "club"),
                (
                    (event.pk, name, club)
                    for event, rows in zip(stored, entrants, strict=True)
                    for name, club in rows
                ),
            )
        )
        ids = PastEntrant.objects.filter(event__in=stored).values_list("event_id", "name", "pk")
        by_name = {(event, name): pk for event, name, pk in ids}
        placements = sorted(
            (by_name[(event.pk, name)], round_number, table, place)
            for event, rows in zip(stored, places, strict=True)
            for name, round_number, table, place in rows
        )
        insert(Rows.of(PastPlacement, ("entrant", "round_number", "table_number", "rank"), placements))
        triggers.after_commit(min(Point.of_past_event(event) for event in stored))
    return Imported(stored, sum(e.tables for e in events), len(placements))
