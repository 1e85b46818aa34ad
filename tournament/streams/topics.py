"""What each topic of the event streams shows now, read from the database in a few queries for any number
of topics of a kind (the hub reads every topic it serves at once): a short token that changes whenever what a
page subscribed to it shows changes, and the figures an event tells (the game's version and sequence number).

A topic is ``(kind, id)``:
- ``("table", id)``: the table's game — its version (every move, undo, void) and the sequence number of its
  latest move — its players' signatures and its results (confirmed, reopened);
- ``("tournament", id)``: the standings' version (results, participants, the settings:
  ``standings_changes``), the rounds and their status, the seats of its rounds (seated, moved, roles), the
  tables' referees and the check-ins;
- ``("standings", id)``: the standings' version alone (the standings page and the projector: a check-in or a
  seat moved does not change them);
- ``("play", id)``: the moves at every table of the tournament (the director's round page).

A token is read, never kept by the writers: nothing here is written, and a topic's token changes with the rows
themselves (counts with highest ids: a row added, deleted or replaced changes one of them).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Count, Max, Sum

from tournament.models import CheckIn, Game, Round, Seat, Signature, Table, TableResult, standings_changes
from tournament.models.statuses import RoundStatus

Topic = tuple[str, int]


def _digest(rows) -> str:
    return hashlib.blake2b(repr(rows).encode(), digest_size=6).hexdigest()


def _counted(queryset, by: str) -> dict[int, tuple]:
    """Each group's row count and highest id (a row added or deleted changes the one or the other)."""
    rows = queryset.values(by).annotate(n=Count("pk"), top=Max("pk")).values_list(by, "n", "top")
    return {key: (n, top) for key, n, top in rows}


def _tables(ids: list[int]) -> dict[Topic, dict]:
    games = {
        table: (game, version, next_seq - 1)
        for table, game, version, next_seq in Game.objects.filter(table__in=ids).values_list(
            "table_id", "pk", "version", "next_seq"
        )
    }
    signed = _counted(Signature.objects.filter(table__in=ids), "table_id")
    results = defaultdict(list)
    of_tables = TableResult.objects.filter(table__in=ids)
    for table, pk, status in of_tables.values_list("table_id", "pk", "status"):
        results[table].append((pk, status))
    shown = {}
    for table in ids:
        game, version, seq = games.get(table, (None, 0, 0))
        token = f"{version}.{seq}.{_digest((game, signed.get(table), results.get(table)))}"
        figures = {"table": table, "game": game, "version": version, "seq": seq}
        shown[("table", table)] = {"token": token, **figures}
    return shown


def _tournaments(ids: list[int]) -> dict[Topic, dict]:
    rounds = defaultdict(list)
    for tournament, pk, status, started in Round.objects.filter(tournament__in=ids).values_list(
        "tournament_id", "pk", "status", "started_at"
    ):
        rounds[tournament].append((pk, status, started))
    seats = defaultdict(list)
    # the seats' rows themselves: a move to another table, an order or a role is an update, not a new row
    for tournament, table, participant, order, role in (
        Seat.objects.filter(table__round__tournament__in=ids)
        .exclude(table__round__status=RoundStatus.FINISHED)  # a finished round's seats no longer change
        .order_by("pk")
        .values_list("table__round__tournament_id", "table_id", "participant_id", "order", "role")
    ):
        seats[tournament].append((table, participant, order, role))
    referees = Table.referees.through.objects.filter(table__round__tournament__in=ids)
    refereed = _counted(referees, "table__round__tournament")
    checked = _counted(CheckIn.objects.filter(participant__tournament__in=ids), "participant__tournament")
    standings = standings_changes.counts(ids)
    shown = {}
    for tournament in ids:
        seen = [part.get(tournament) for part in (rounds, seats, refereed, checked)]
        token = f"{standings.get(tournament, 0)}.{_digest(seen)}"
        shown[("tournament", tournament)] = {"token": token, "tournament": tournament}
    return shown


def _standings(ids: list[int]) -> dict[Topic, dict]:
    counts = standings_changes.counts(ids)
    return {("standings", t): {"token": str(counts.get(t, 0)), "tournament": t} for t in ids}


def _play(ids: list[int]) -> dict[Topic, dict]:
    """The moves at every table (the sum of their games' versions), and the players' signatures on them (the
    round page says who disputes, whose signature is awaited)."""
    signed = _counted(Signature.objects.filter(table__round__tournament__in=ids), "table__round__tournament")
    moves = dict(
        Game.objects.filter(table__round__tournament__in=ids)
        .values("table__round__tournament")
        .annotate(moves=Sum("version"))
        .values_list("table__round__tournament", "moves")
    )
    return {
        ("play", t): {
            "token": f"{moves.get(t) or 0}.{_digest(signed.get(t))}",
            "tournament": t,
            "moves": moves.get(t) or 0,
        }
        for t in ids
    }


READERS = {"table": _tables, "tournament": _tournaments, "standings": _standings, "play": _play}


def read(topics: Iterable[Topic]) -> dict[Topic, dict]:
    """Each topic's token and figures now, a few queries a kind."""
    by_kind = defaultdict(set)
    for kind, pk in topics:
        by_kind[kind].add(pk)
    shown = {}
    for kind, ids in by_kind.items():
        shown.update(READERS[kind](sorted(ids)))
    return shown


def stream_id(shown: dict[Topic, dict], topics: Iterable[Topic]) -> str:
    """A stream's position, its events' ``id`` (the browser sends the last one back as ``Last-Event-ID`` when
    it reconnects): each topic's token, ``table12=57.41.9f0c…,tournament3=8.1a2b…``."""
    return ",".join(f"{kind}{pk}={shown[(kind, pk)]['token']}" for kind, pk in sorted(topics))


def changed_since(last: str, shown: dict[Topic, dict], topics: Iterable[Topic]) -> list[Topic]:
    """The topics whose token is not the one the stream's ``last`` id holds (all of them without one)."""
    seen = dict(part.partition("=")[::2] for part in last.split(",") if "=" in part)
    return [t for t in sorted(topics) if seen.get(f"{t[0]}{t[1]}") != shown[t]["token"]]
